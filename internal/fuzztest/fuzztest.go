// Package fuzztest holds the shared shape of the fuzz targets of the
// parsers of user-written files (configs, tables, catalogues): the
// repository's own files as the seed corpus, and the property every such
// parser must have.
package fuzztest

import (
	"os"
	"path/filepath"
	"testing"
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
