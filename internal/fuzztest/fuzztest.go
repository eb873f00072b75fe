// Package fuzztest holds the shared shape of the fuzz targets of the
// parsers of user-written files (configs, tables, catalogues): the
// repository's own files as the seed corpus, and the property every such
// parser must have.
package fuzztest

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Files returns the paths and contents of the files matching the glob
// patterns, in pattern order; unreadable files are skipped (a seed
// corpus, not a test of its own).
func Files(patterns ...string) (paths []string, data [][]byte) {
	for _, pat := range patterns {
		matches, _ := filepath.Glob(pat)
		for _, p := range matches {
			if b, err := os.ReadFile(p); err == nil {
				paths, data = append(paths, p), append(data, b)
			}
		}
	}
	return paths, data
}

// Parser fuzzes parse with the files matching the patterns and extra as
// seeds: any bytes must give either a result or an error, never both,
// neither, or a panic.
func Parser[T any](f *testing.F, parse func([]byte) (*T, error), extra []string, patterns ...string) {
	_, seeds := Files(patterns...)
	for _, b := range seeds {
		f.Add(b)
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := parse(b)
		if (x == nil) == (err == nil) {
			t.Fatalf("result %v and error %v", x, err)
		}
	})
}

// Server fuzzes a line protocol server (UCI, CECP) with the seeds: any
// sequence of command lines must be served without a panic, and run (a
// fresh server's Run) must return at the end of the input, stopping a
// running search. Lines for which drop reports true are removed first
// (commands that would only make an execution slow).
func Server(f *testing.F, seeds []string, drop func(line string) bool, run func() func(context.Context, io.Reader, io.Writer) error) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		var lines []string
		for _, l := range strings.Split(input, "\n") {
			if !drop(l) {
				lines = append(lines, l)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		serve := run()
		done := make(chan error, 1)
		go func() { done <- serve(ctx, strings.NewReader(strings.Join(lines, "\n")), io.Discard) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("the server did not stop at the end of %q", lines)
		}
	})
}
