package selfplay

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// process is one running engine: its input, the lines of its output
// that a player waits for, and whether it has exited.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan engineLine
	exited chan struct{}
	once   sync.Once
}

// engineLine is a line of an engine's output other than an info line,
// with what the info lines since the previous such line said (parseInfo,
// applied in order).
type engineLine struct {
	text string
	info MoveInfo
}

// startProcess starts reading a started engine's output (read).
func startProcess(cmd *exec.Cmd, stdin io.WriteCloser, stdout io.Reader) *process {
	pr := &process{cmd: cmd, stdin: stdin, lines: make(chan engineLine, 1024), exited: make(chan struct{})}
	go pr.read(stdout)
	return pr
}

// read forwards the engine's output until it ends, then reaps the
// process. Info lines are parsed here rather than forwarded: an engine
// writes a dozen of them for every move, and each handoff to the waiting
// goroutine is a Go scheduler wakeup, which perf showed to be most of the
// runner's CPU with two Fairy-Stockfish games at once.
func (pr *process) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var info MoveInfo
	for sc.Scan() {
		l := sc.Text()
		if first, _, _ := strings.Cut(strings.TrimLeft(l, " \t"), " "); first == "info" {
			parseInfo(l, &info)
			continue
		}
		pr.lines <- engineLine{l, info}
		info = MoveInfo{}
	}
	close(pr.lines)
	pr.cmd.Wait()
	close(pr.exited)
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
