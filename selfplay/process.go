package selfplay

import (
	"io"
	"os/exec"
	"sync"
	"time"
)

// process is one running engine: its input, its output lines, and
// whether it has exited.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	exited chan struct{}
	once   sync.Once
}

// running reports whether the process has not exited.
func (pr *process) running() bool {
	select {
	case <-pr.exited:
		return false
	default:
		return true
	}
}

// end sends quit and closes the engine's input, kills its process group
// if it has not exited within a short grace period, and reaps it. end is
// safe to call more than once.
func (pr *process) end() {
	pr.once.Do(func() {
		io.WriteString(pr.stdin, "quit\n")
		pr.stdin.Close()
		select {
		case <-pr.exited:
		case <-time.After(300 * time.Millisecond):
			killProcess(pr.cmd)
			// Drain the output so the reader reaches EOF and reaps.
			go func() {
				for range pr.lines {
				}
			}()
			<-pr.exited
		}
	})
}
