// Package lineio reads the line-based engine protocols' input (UCI, CECP)
// without blocking the command loop: lines arrive on a channel, so a
// server can answer its own search's results while it waits for input.
package lineio

import (
	"bufio"
	"context"
	"io"
)

// Lines reads r line by line on its own goroutine and sends each line
// (without its end of line) on the returned channel, which is closed at
// the end of the input. The error channel then carries the reader's error:
// nil at a clean end, bufio.ErrTooLong for a line longer than maxLine
// bytes. The goroutine stops early when ctx is done.
func Lines(ctx context.Context, r io.Reader, maxLine int) (<-chan string, <-chan error) {
	lines := make(chan string)
	errc := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, min(64<<10, maxLine)), maxLine)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		errc <- sc.Err()
		close(lines)
	}()
	return lines, errc
}
