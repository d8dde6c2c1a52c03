package cli

import (
	"strconv"
	"strings"
	"syscall"

	"github.com/dynascope/dynascope/internal/files"
)

// machineMemory is the memory this process may use: the machine's, or
// its cgroup's limit where that is lower; and which of them it is.
func machineMemory() (int64, string) {
	var info syscall.Sysinfo_t
	if syscall.Sysinfo(&info) != nil {
		return 0, ""
	}
	mem, what := int64(info.Totalram)*int64(info.Unit), "this machine's"
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := files.Read(p, files.Kind{Name: "cgroup memory limit", Max: 4096})
		if err != nil {
			continue
		}
		if limit, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && limit > 0 && limit < mem {
			mem, what = limit, "this container's"
		}
	}
	return mem, what
}
