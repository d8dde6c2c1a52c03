// Command render turns a terminal capture (tmux capture-pane -e -p: text with
// SGR colour sequences) into a PNG, so that `make screenshots` can show the
// real program without vhs or freeze, which cannot be installed here.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

type cell struct {
	r      rune
	fg, bg color.RGBA
	bold   bool
	wide   bool // first half of a double-width rune
	cont   bool // second half of a double-width rune
}

type pen struct {
	fg, bg        color.RGBA
	bold, reverse bool
	faint         bool
}

var (
	defaultFG = color.RGBA{0xd8, 0xd8, 0xe0, 0xff}
	defaultBG = color.RGBA{0x16, 0x16, 0x1e, 0xff}
	// A calm palette for the 16 named colours (the terminal's choice, not ours).
	palette16 = [16]color.RGBA{
		{0x26, 0x26, 0x33, 0xff}, {0xe0, 0x6c, 0x75, 0xff}, {0x98, 0xc3, 0x79, 0xff}, {0xe5, 0xc0, 0x7b, 0xff},
		{0x61, 0xaf, 0xef, 0xff}, {0xc6, 0x78, 0xdd, 0xff}, {0x56, 0xb6, 0xc2, 0xff}, {0xc8, 0xcc, 0xd4, 0xff},
		{0x5c, 0x63, 0x70, 0xff}, {0xff, 0x7a, 0x85, 0xff}, {0xb5, 0xe8, 0x90, 0xff}, {0xff, 0xd6, 0x8a, 0xff},
		{0x7f, 0xc8, 0xff, 0xff}, {0xde, 0x9a, 0xf5, 0xff}, {0x7e, 0xe0, 0xea, 0xff}, {0xff, 0xff, 0xff, 0xff},
	}
)

func xterm256(n int) color.RGBA {
	switch {
	case n < 16:
		return palette16[n]
	case n < 232:
		n -= 16
		level := func(v int) uint8 {
			if v == 0 {
				return 0
			}
			return uint8(55 + v*40)
		}
		return color.RGBA{level(n / 36), level(n / 6 % 6), level(n % 6), 0xff}
	default:
		g := uint8(8 + (n-232)*10)
		return color.RGBA{g, g, g, 0xff}
	}
}

// applySGR updates p from the parameters of one CSI … m sequence.
func applySGR(p *pen, params string) {
	fields := strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' })
	if len(fields) == 0 {
		fields = []string{"0"}
	}
	num := func(i int) int {
		if i >= len(fields) {
			return 0
		}
		n, _ := strconv.Atoi(fields[i])
		return n
	}
	for i := 0; i < len(fields); i++ {
		switch n := num(i); {
		case n == 0:
			*p = pen{fg: defaultFG, bg: defaultBG}
		case n == 1:
			p.bold = true
		case n == 2:
			p.faint = true
		case n == 7:
			p.reverse = true
		case n == 22:
			p.bold, p.faint = false, false
		case n == 27:
			p.reverse = false
		case n >= 30 && n <= 37:
			p.fg = palette16[n-30]
		case n >= 90 && n <= 97:
			p.fg = palette16[n-90+8]
		case n >= 40 && n <= 47:
			p.bg = palette16[n-40]
		case n >= 100 && n <= 107:
			p.bg = palette16[n-100+8]
		case n == 39:
			p.fg = defaultFG
		case n == 49:
			p.bg = defaultBG
		case n == 38 || n == 48:
			var c color.RGBA
			switch num(i + 1) {
			case 5:
				c = xterm256(num(i + 2))
				i += 2
			case 2:
				// tmux writes 38:2::r:g:b or 38;2;r;g;b; FieldsFunc drops the empty colour-space id.
				c = color.RGBA{uint8(num(i + 2)), uint8(num(i + 3)), uint8(num(i + 4)), 0xff}
				i += 4
			default:
				continue
			}
			if n == 38 {
				p.fg = c
			} else {
				p.bg = c
			}
		}
	}
}

func dim(c color.RGBA) color.RGBA {
	return color.RGBA{uint8((int(c.R) + int(defaultBG.R)) / 2), uint8((int(c.G) + int(defaultBG.G)) / 2), uint8((int(c.B) + int(defaultBG.B)) / 2), 0xff}
}

// parse reads the capture into a grid of cols × rows cells.
func parse(lines []string, cols, rows int) [][]cell {
	grid := make([][]cell, rows)
	p := pen{fg: defaultFG, bg: defaultBG}
	for y := range grid {
		grid[y] = make([]cell, cols)
		for x := range grid[y] {
			grid[y][x] = cell{r: ' ', fg: defaultFG, bg: defaultBG}
		}
		if y >= len(lines) {
			continue
		}
		x := 0
		s := lines[y]
		for i := 0; i < len(s); {
			if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
				j := i + 2
				for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
					j++
				}
				if j < len(s) && s[j] == 'm' {
					applySGR(&p, s[i+2:j])
				}
				i = j + 1
				continue
			}
			r, size := rune(s[i]), 1
			if s[i] >= 0x80 {
				rs := []rune(s[i:min(len(s), i+4)])
				r = rs[0]
				size = len(string(r))
			}
			i += size
			w := ansi.StringWidth(string(r))
			if w == 0 || x >= cols {
				continue
			}
			fg, bg := p.fg, p.bg
			if p.reverse {
				fg, bg = bg, fg
			}
			if p.faint {
				fg = dim(fg)
			}
			grid[y][x] = cell{r: r, fg: fg, bg: bg, bold: p.bold, wide: w == 2}
			if w == 2 && x+1 < cols {
				grid[y][x+1] = cell{r: ' ', fg: fg, bg: bg, cont: true}
			}
			x += w
		}
	}
	return grid
}

type faces struct {
	regular, bold, fallback font.Face
}

func loadFace(path string, size float64) (font.Face, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := opentype.Parse(data)
	if err != nil {
		return nil, err
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
}

func (f faces) pick(r rune, bold bool) font.Face {
	face := f.regular
	if bold && f.bold != nil {
		face = f.bold
	}
	if _, ok := face.GlyphAdvance(r); !ok && f.fallback != nil {
		return f.fallback
	}
	return face
}

// drawBox draws box-drawing characters as lines, so borders join up
// between cells whatever the font does.
func drawBox(img *image.RGBA, r rune, x0, y0, cw, ch int, c color.RGBA) bool {
	const (
		left = 1 << iota
		right
		up
		down
	)
	var m int
	switch r {
	case '─':
		m = left | right
	case '│':
		m = up | down
	case '┌', '╭':
		m = right | down
	case '┐', '╮':
		m = left | down
	case '└', '╰':
		m = right | up
	case '┘', '╯':
		m = left | up
	case '├':
		m = up | down | right
	case '┤':
		m = up | down | left
	case '┬':
		m = left | right | down
	case '┴':
		m = left | right | up
	case '┼':
		m = left | right | up | down
	default:
		return false
	}
	cx, cy := x0+cw/2, y0+ch/2
	fill := func(x1, y1, x2, y2 int) {
		draw.Draw(img, image.Rect(x1, y1, x2, y2), image.NewUniform(c), image.Point{}, draw.Src)
	}
	if m&left != 0 {
		fill(x0, cy, cx+1, cy+1)
	}
	if m&right != 0 {
		fill(cx, cy, x0+cw, cy+1)
	}
	if m&up != 0 {
		fill(cx, y0, cx+1, cy+1)
	}
	if m&down != 0 {
		fill(cx, cy, cx+1, y0+ch)
	}
	return true
}

func render(grid [][]cell, f faces, pad int) *image.RGBA {
	adv, _ := f.regular.GlyphAdvance('M')
	cw := adv.Ceil()
	met := f.regular.Metrics()
	ch := (met.Ascent + met.Descent).Ceil() + 2
	rows, cols := len(grid), len(grid[0])
	img := image.NewRGBA(image.Rect(0, 0, cols*cw+2*pad, rows*ch+2*pad))
	draw.Draw(img, img.Bounds(), image.NewUniform(defaultBG), image.Point{}, draw.Src)
	for y, line := range grid {
		for x, c := range line {
			x0, y0 := pad+x*cw, pad+y*ch
			w := cw
			if c.wide {
				w = 2 * cw
			}
			if c.cont {
				continue
			}
			draw.Draw(img, image.Rect(x0, y0, x0+w, y0+ch), image.NewUniform(c.bg), image.Point{}, draw.Src)
			if c.r == ' ' || drawBox(img, c.r, x0, y0, cw, ch, c.fg) {
				continue
			}
			d := font.Drawer{Dst: img, Src: image.NewUniform(c.fg), Face: f.pick(c.r, c.bold),
				Dot: fixed.P(x0, y0+1+met.Ascent.Ceil())}
			d.DrawString(string(c.r))
		}
	}
	return img
}

func main() {
	in := flag.String("in", "", "capture file (tmux capture-pane -e -p output)")
	out := flag.String("out", "", "PNG to write")
	cols := flag.Int("cols", 120, "terminal columns")
	rows := flag.Int("rows", 36, "terminal rows")
	size := flag.Float64("size", 15, "font size in pixels")
	fontDir := flag.String("fonts", "/usr/share/fonts/truetype/dejavu", "folder holding DejaVuSansMono*.ttf")
	flag.Parse()
	if *in == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "render: -in and -out are required")
		os.Exit(2)
	}
	if err := run(*in, *out, *cols, *rows, *size, *fontDir); err != nil {
		fmt.Fprintln(os.Stderr, "render:", err)
		os.Exit(1)
	}
}

func run(in, out string, cols, rows int, size float64, fontDir string) error {
	file, err := os.Open(in)
	if err != nil {
		return err
	}
	defer file.Close()
	var lines []string
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return err
	}
	var f faces
	if f.regular, err = loadFace(fontDir+"/DejaVuSansMono.ttf", size); err != nil {
		return fmt.Errorf("%w (install fonts-dejavu-core)", err)
	}
	f.bold, _ = loadFace(fontDir+"/DejaVuSansMono-Bold.ttf", size)
	f.fallback, _ = loadFace(fontDir+"/DejaVuSans.ttf", size)
	img := render(parse(lines, cols, rows), f, 12)
	o, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := png.Encode(o, img); err != nil {
		o.Close()
		return err
	}
	return o.Close()
}
