package servertest

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel stop the server when the test binary dies
// (a panic, a timeout's kill) before StopShared runs: no orphan keeps a
// port and its tables.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
