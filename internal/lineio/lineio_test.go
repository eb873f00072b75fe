package lineio

import (
	"bufio"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestLines: every line arrives in order without its end of line, then
// the channel closes and the error is nil.
func TestLines(t *testing.T) {
	lines, errc := Lines(context.Background(), strings.NewReader("uci\r\nisready\n\ngo depth 3"), 1<<10)
	var got []string
	for l := range lines {
		got = append(got, l)
	}
	if want := []string{"uci", "isready", "", "go depth 3"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", got, want)
	}
	if err := <-errc; err != nil {
		t.Errorf("error %v at a clean end", err)
	}
}

// TestTooLong: a line over the limit ends the input with bufio.ErrTooLong.
func TestTooLong(t *testing.T) {
	lines, errc := Lines(context.Background(), strings.NewReader("ok\n"+strings.Repeat("x", 100)+"\n"), 16)
	var got []string
	for l := range lines {
		got = append(got, l)
	}
	if len(got) != 1 || got[0] != "ok" {
		t.Errorf("lines %q before the long one", got)
	}
	if err := <-errc; !errors.Is(err, bufio.ErrTooLong) {
		t.Errorf("error %v, want bufio.ErrTooLong", err)
	}
}
