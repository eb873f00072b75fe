//go:build unix

package selfplay

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the engine in its own process group, so that a
// kill also reaches the processes it started (a wrapper script's child).
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcess kills the engine's process group.
func killProcess(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		cmd.Process.Kill()
	}
}
