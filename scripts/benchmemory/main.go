// Command benchmemory measures the explorer's memory after scrolling a
// partition of 1,000,000 items of ~350 bytes from top to bottom with page
// down, then g (back to the top) and G: the real ui model, its Update and
// View as the program runs them, without a terminal, against a read-only
// client that makes the partition's items as they are asked for (so no
// server's memory is in the process). It runs twice, each in a process of
// its own so that each peak RSS is its own: with the window of rows the
// explorer holds (the default), and with every row held (the baseline, as
// before the window). Figures only: it never passes or fails on them (make
// bench-memory).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dynascope/dynascope/internal/dynamo"
	"github.com/dynascope/dynascope/internal/ui"
	"github.com/dynascope/dynascope/internal/ui/common"
	"github.com/dynascope/dynascope/internal/ui/list"
)

// figures is one run's account, printed by the child as JSON.
type figures struct {
	Mode     string  `json:"mode"`
	Rows     int     `json:"rows"`
	Presses  int     `json:"presses"`
	Requests int     `json:"requests"`
	RCU      float64 `json:"rcu"`
	Rereads  int     `json:"rereads"`
	HeapMB   float64 `json:"heapMB"` // live heap after a collection, at the end
	Wall     string  `json:"wall"`
	Title    string  `json:"title"`
	PeakMB   float64 `json:"peakMB"` // filled in by the parent: the child's maxrss
}

func main() {
	items := flag.Int("items", 1_000_000, "items in the partition")
	payload := flag.Int("payload", 300, "payload bytes per item (~50 more in the key and the other attributes)")
	child := flag.String("child", "", "run one mode and print its figures (window or all)")
	flag.Parse()
	if *child != "" {
		f, err := run(*child, *items, *payload)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		_ = json.NewEncoder(os.Stdout).Encode(f)
		return
	}
	self, err := os.Executable()
	if err != nil {
		fail(err)
	}
	fmt.Printf("scrolling %d items of ~%d bytes with page down, then g and G, at 120×35 (GOGC=%s)\n", *items, *payload+50, gogc())
	var runs []figures
	for _, mode := range []string{"window", "all"} {
		cmd := exec.Command(self, "-child", mode, fmt.Sprintf("-items=%d", *items), fmt.Sprintf("-payload=%d", *payload))
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			fail(fmt.Errorf("%s: %w", mode, err))
		}
		var f figures
		if err := json.Unmarshal(out, &f); err != nil {
			fail(fmt.Errorf("%s: %w: %s", mode, err, out))
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			f.PeakMB = float64(ru.Maxrss) / 1024 // kilobytes on Linux
		}
		runs = append(runs, f)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "rows held\tpeak RSS\tlive heap\tpresses\trequests\tRCU\tre-reads\twall\t")
	for _, f := range runs {
		name := map[string]string{"window": fmt.Sprintf("window (%d)", defaultHeld()), "all": "all (baseline)"}[f.Mode]
		fmt.Fprintf(w, "%s\t%.0f MB\t%.0f MB\t%d\t%d\t%.1f\t%d\t%s\t\n", name, f.PeakMB, f.HeapMB, f.Presses, f.Requests, f.RCU, f.Rereads, f.Wall)
	}
	_ = w.Flush()
	for _, f := range runs {
		fmt.Printf("%s: %s\n", f.Mode, f.Title)
	}
}

func defaultHeld() int { return list.DefaultHeldRows }

func gogc() string {
	if v := os.Getenv("GOGC"); v != "" {
		return v
	}
	return "100"
}

// run scrolls the partition in one mode.
func run(mode string, items, payload int) (figures, error) {
	held := 0
	if mode == "all" {
		held = -1
	}
	metered := dynamo.NewMetered(newPartition(items, payload))
	m := ui.New(ui.Config{Client: metered, Session: metered.Session, Connection: "BENCH", Table: benchTable, PK: "P", HeldRows: held})
	d := &driver{m: m}
	t0 := time.Now()
	d.send(tea.WindowSizeMsg{Width: 120, Height: 35})
	d.drive(m.Init())
	end := fmt.Sprintf("%s items loaded", common.Thousands(items))
	presses := 0
	for !strings.Contains(d.title(), end) || !strings.Contains(d.title(), "· all") {
		if presses > 4*items {
			return figures{}, fmt.Errorf("%s: never reached the end:\n%s", mode, d.screen())
		}
		d.key(tea.KeyPressMsg{Code: tea.KeyPgDown})
		presses++
	}
	d.key(tea.KeyPressMsg{Code: 'g', Text: "g"})
	d.key(tea.KeyPressMsg{Code: 'G', Text: "G"})
	presses += 2
	title := d.title()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	total, _ := metered.Session.Totals()
	return figures{Mode: mode, Rows: items, Presses: presses, Requests: total.Requests, RCU: total.RCU, Rereads: d.rereads,
		HeapMB: float64(ms.HeapAlloc) / (1 << 20), Wall: time.Since(t0).Round(100 * time.Millisecond).String(), Title: title}, nil
}

// driver runs the model as the program does, synchronously: every
// command at once, its message back through Update, a frame drawn after
// every key.
type driver struct {
	m       *ui.Model
	rereads int
}

func (d *driver) send(msg tea.Msg) {
	_, cmd := d.m.Update(msg)
	d.drive(cmd)
}

func (d *driver) key(k tea.KeyPressMsg) {
	d.send(k)
	_ = d.m.View()
}

func (d *driver) drive(cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
			return
		default:
			if n, ok := msg.(common.NoticeMsg); ok && strings.HasPrefix(n.Text, "re-read rows ") {
				d.rereads++
			}
			if _, tick := msg.(spinner.TickMsg); tick {
				continue // the spinner ticks forever
			}
			_, next := d.m.Update(msg)
			queue = append(queue, next)
		}
	}
}

func (d *driver) screen() string { return ansi.Strip(d.m.View().Content) }

// title is the list's title line.
func (d *driver) title() string {
	lines := strings.Split(d.screen(), "\n")
	if len(lines) < 2 {
		return ""
	}
	return strings.TrimSpace(lines[1])
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchmemory:", err)
	os.Exit(1)
}
