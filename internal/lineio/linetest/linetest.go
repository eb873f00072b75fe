// Package linetest drives a line-based protocol server (UCI, CECP) through
// pipes in tests: send commands, read its output up to an expected line,
// and wait for it to end.
package linetest

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// Session is one running server with its input and output pipes.
type Session struct {
	t     testing.TB
	w     io.WriteCloser
	lines chan string
	done  chan error
}

// Start runs run (a server's Run method) on its own goroutine, connected
// to the session by pipes. The input is closed when the test ends.
func Start(t testing.TB, run func(ctx context.Context, in io.Reader, out io.Writer) error) *Session {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := Attach(t, inW, outR)
	go func() {
		err := run(context.Background(), inR, outW)
		outW.Close()
		s.done <- err
	}()
	return s
}

// Attach makes a session of a server that runs elsewhere (a child
// process): commands go to in, lines are read from out. The input is
// closed when the test ends; Wait is for Start's sessions only.
func Attach(t testing.TB, in io.WriteCloser, out io.Reader) *Session {
	t.Helper()
	s := &Session{t: t, w: in, lines: make(chan string, 4096), done: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	t.Cleanup(func() { in.Close() })
	return s
}

// Send writes each command as one line of the server's input.
func (s *Session) Send(cmds ...string) {
	s.t.Helper()
	for _, cmd := range cmds {
		if _, err := io.WriteString(s.w, cmd+"\n"); err != nil {
			s.t.Fatalf("send %q: %v", cmd, err)
		}
	}
}

// Until reads output lines until one starts with prefix and returns every
// line read, that one last. It fails the test when the output ends first
// or when no such line comes within timeout (a hang).
func (s *Session) Until(prefix string, timeout time.Duration) []string {
	s.t.Helper()
	var got []string
	deadline := time.After(timeout)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("output ended before %q; got %q", prefix, got)
			}
			got = append(got, l)
			if strings.HasPrefix(l, prefix) {
				return got
			}
		case <-deadline:
			s.t.Fatalf("no %q within %v; got %q", prefix, timeout, got)
		}
	}
}

// Wait returns the server's Run result once it has ended.
func (s *Session) Wait() error { return <-s.done }
