package ui

import (
	"context"
	"fmt"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// sentLimits records each Query's Limit (0: none).
type sentLimits struct {
	*recorder
	mu   sync.Mutex
	sent []int32
}

func (l *sentLimits) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	l.mu.Lock()
	if in.Limit != nil {
		l.sent = append(l.sent, *in.Limit)
	} else {
		l.sent = append(l.sent, 0)
	}
	l.mu.Unlock()
	return l.recorder.Query(ctx, in, o...)
}

// TestFirstScreenIsOneQuery: opening a partition's items at each size
// reads one page sized to the screen (its rows and a few), and nothing
// ahead until the user moves (it read a second page of two screens before
// anyone pressed a key: 60 rows for the 17 on screen at 80×24); the first
// move reads on ahead. The harness draws between messages as the program
// does: without a drawing the grid had no height, and the old read ahead
// never showed.
func TestFirstScreenIsOneQuery(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			l := &sentLimits{recorder: record(demoData(t))}
			h := newHarness(t, size[0], size[1], Config{Client: l, Table: "Locations", PK: "USA"})
			l.mu.Lock()
			before := len(l.sent)
			l.mu.Unlock()
			// The program draws between messages, and a drawing sizes
			// the list's grid: draw as it does.
			h.d.Handled = func(tea.Msg) { _ = h.m.View() }
			h.keys("2")
			h.contains(t, "items loaded")
			l.mu.Lock()
			sent := append([]int32(nil), l.sent[before:]...)
			l.mu.Unlock()
			rows := size[1] - 7
			if len(sent) != 1 || int(sent[0]) < rows || int(sent[0]) > rows+8 {
				t.Fatalf("opening sent Limits %v for about %d rows on screen\n%s", sent, rows, h.screen())
			}
			h.keys("down")
			l.mu.Lock()
			after := len(l.sent)
			l.mu.Unlock()
			if after != before+2 {
				t.Errorf("the first move sent %d more Queries; want 1, the page ahead", after-before-1)
			}
		})
	}
}

// TestEndScreenIsOneQuery: G reads the last screen backwards from the
// end, one Query sized to the screen, and nothing more until the user
// moves.
func TestEndScreenIsOneQuery(t *testing.T) {
	l := &sentLimits{recorder: record(demoData(t))}
	h := newHarness(t, 80, 24, Config{Client: l, Table: "Locations", PK: "USA"})
	h.d.Handled = func(tea.Msg) { _ = h.m.View() }
	h.keys("2")
	l.mu.Lock()
	before := len(l.sent)
	l.mu.Unlock()
	h.keys("G")
	l.mu.Lock()
	sent := append([]int32(nil), l.sent[before:]...)
	l.mu.Unlock()
	if len(sent) != 1 || sent[0] < 17 || sent[0] > 25 {
		t.Fatalf("G sent Limits %v for 17 rows on screen\n%s", sent, h.screen())
	}
	h.contains(t, "the middle not read yet")
}
