package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dynascope/dynascope/internal/files"
)

// fallbackMemory is what the ceiling for --data assumes of a machine
// whose memory cannot be read.
const fallbackMemory = 8 << 30

// dataMaxDefault is --data-max unless given: half the memory this
// process may use (the machine's, or its container's if less), so that
// a load too big is refused before the kernel kills it; and what the
// figure comes from, for the refusal.
func dataMaxDefault() (int64, string) {
	mem, what := machineMemory()
	if mem <= 0 {
		mem, what = fallbackMemory, "an assumed"
	}
	return mem / 2, fmt.Sprintf(" (half of %s %s)", what, files.Size(mem))
}

// sizeUnits are the suffixes --data-max takes, in bytes.
var sizeUnits = []struct {
	suffix string
	bytes  float64
}{
	{"TIB", 1 << 40}, {"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10},
	{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3},
	{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1},
}

// parseSize reads a size as people write one: 512MB, 2GiB, 1.5G, 4096.
func parseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	unit := 1.0
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, unit = strings.TrimSpace(rest), u.bytes
			break
		}
	}
	n, err := strconv.ParseFloat(t, 64)
	if err != nil || n <= 0 || n*unit < 1<<20 || n*unit > 1<<50 {
		return 0, fmt.Errorf("%q is not a size from 1 MiB up", s)
	}
	return int64(n * unit), nil
}
