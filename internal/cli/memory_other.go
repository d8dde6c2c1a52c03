//go:build !linux

package cli

// machineMemory is unknown here: the ceiling for --data assumes
// fallbackMemory.
func machineMemory() (int64, string) { return 0, "" }
