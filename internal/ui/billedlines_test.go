package ui

import (
	"strings"
	"testing"

	"github.com/dynascope/dynascope/internal/domain"
)

// TestRequestLinesBillAsTheStatusBar: a read that found nothing is
// reported at 0 RCU by the embedded backend (as by dynalite), and billed
// 0.5 by DynamoDB. Every view's request line says what the status bar says,
// "0.5 RCU est.", where they used to say the server's 0.0 beside it.
func TestRequestLinesBillAsTheStatusBar(t *testing.T) {
	f, err := domain.ParseFilter(`Status = "FAIL"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		cfg  Config
		want []string
	}{
		{"items, filtered", Config{Table: "DeviceLogs", PK: "999999", Filter: f},
			[]string{"· 1 req · 0.5 RCU est.", "(0.5 RCU est.)"}},
		{"time", Config{Table: "DeviceLogs", PK: "999999", Range: "< 1536019200", Now: demoClock},
			[]string{"· 1 req · 0.5 RCU est."}},
		{"versions", Config{Table: "Equipment", PK: "nothing-here", Versions: "*"},
			[]string{"· 1 req · 0.5 RCU est."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, 200, 40, c.cfg)
			scr := h.screen()
			if !strings.Contains(scr, "req · 0.5 RCU est. ·") {
				t.Fatalf("the status bar does not bill the empty read:\n%s", scr)
			}
			for _, w := range c.want {
				if !strings.Contains(scr, w) {
					t.Errorf("%q not on screen:\n%s", w, scr)
				}
			}
			if strings.Contains(scr, "0.0 RCU") {
				t.Errorf("the server's 0.0 RCU shown beside the bill:\n%s", scr)
			}
		})
	}
}
