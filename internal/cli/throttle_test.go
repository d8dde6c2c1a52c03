package cli

import (
	"testing"

	"github.com/dynascope/dynascope/internal/dynamo"
)

// TestExplorerRidesOutThrottling: the explorer (whose session is made
// before it connects) gives a throttled read ten attempts; a headless
// command keeps the SDK's three, so a script fails in seconds.
func TestExplorerRidesOutThrottling(t *testing.T) {
	explorer := &globals{session: &dynamo.Session{}}
	if got := explorer.target(0, nil); got.ThrottleAttempts != ExplorerThrottleAttempts || got.Attempts() != 3 {
		t.Errorf("explorer: %d attempts for a throttled read, %d for others", got.ThrottleAttempts, got.Attempts())
	}
	headless := &globals{}
	if got := headless.target(0, nil); got.ThrottleAttempts > got.Attempts() {
		t.Errorf("headless: %d attempts for a throttled read", got.ThrottleAttempts)
	}
}
