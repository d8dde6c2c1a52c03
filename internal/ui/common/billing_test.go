package common

import "testing"

// TestRCUGroupsThousands: a budget of 1,000 RCU read "1000.0 RCU" on the
// search and PartiQL screens, beside "5,325 items" and the README's
// "1,000".
func TestRCUGroupsThousands(t *testing.T) {
	for _, c := range []struct {
		units float64
		est   bool
		want  string
	}{
		{0, false, "0.0 RCU"},
		{0.5, false, "0.5 RCU"},
		{999.94, false, "999.9 RCU"},
		{999.96, false, "1,000.0 RCU"},
		{1000, false, "1,000.0 RCU"},
		{1234567.5, true, "1,234,567.5 RCU est."},
		{-1500, false, "-1,500.0 RCU"},
	} {
		if got := RCU(c.units, c.est); got != c.want {
			t.Errorf("RCU(%v, %v) = %q, want %q", c.units, c.est, got, c.want)
		}
	}
}
