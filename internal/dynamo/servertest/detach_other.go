//go:build !linux

package servertest

import "os/exec"

// dieWithParent has no portable form outside Linux: StopShared and the
// tests' cleanups stop the server.
func dieWithParent(*exec.Cmd) {}
