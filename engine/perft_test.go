package engine

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// epdCase is one line of a reference perft file.
type epdCase struct {
	file   string
	line   int
	fen    string
	rules  string
	depths map[int]uint64
}

func loadEPD(t *testing.T, path string) []epdCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []epdCase
	sc := bufio.NewScanner(bytes.NewReader(data))
	for ln := 1; sc.Scan(); ln++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		parts := strings.Split(text, ";")
		c := epdCase{file: filepath.Base(path), line: ln, fen: strings.TrimSpace(parts[0]), depths: map[int]uint64{}}
		for _, f := range parts[1:] {
			f = strings.TrimSpace(f)
			switch {
			case strings.HasPrefix(f, "rules "):
				c.rules = strings.TrimPrefix(f, "rules ")
			case strings.HasPrefix(f, "D"):
				d, n, ok := strings.Cut(f[1:], " ")
				depth, err1 := strconv.Atoi(d)
				nodes, err2 := strconv.ParseUint(strings.TrimSpace(n), 10, 64)
				if !ok || err1 != nil || err2 != nil {
					t.Fatalf("%s:%d: bad field %q", path, ln, f)
				}
				c.depths[depth] = nodes
			default:
				t.Fatalf("%s:%d: unknown field %q", path, ln, f)
			}
		}
		out = append(out, c)
	}
	return out
}

// TestReferencePerft reproduces every line of the reference perft files
// (counts from Fairy-Stockfish, docs/rules.md 6). Depths above 3 run only
// without -short.
func TestReferencePerft(t *testing.T) {
	files, _ := filepath.Glob("testdata/perft/*.epd")
	if len(files) == 0 {
		t.Fatal("no reference perft files")
	}
	for _, path := range files {
		variant := strings.TrimSuffix(filepath.Base(path), ".epd")
		for _, c := range loadEPD(t, path) {
			opts, err := ParseOptions(c.rules)
			if err != nil {
				t.Fatal(err)
			}
			v, err := NewVariant(variant, opts)
			if err != nil {
				t.Fatalf("%s:%d: %v", c.file, c.line, err)
			}
			p, err := ParseFEN(v, c.fen)
			if err != nil {
				t.Fatalf("%s:%d: %v", c.file, c.line, err)
			}
			for d := 1; d <= 5; d++ {
				want, ok := c.depths[d]
				if !ok {
					continue
				}
				// Under -race the deep counts are left to the plain run
				// (perft is single-goroutine code; the detector only
				// multiplies its time).
				if testing.Short() && want > 200000 || raceOn && want > 2000000 {
					continue
				}
				if got := p.Perft(d); got != want {
					t.Errorf("%s:%d depth %d: got %d, want %d (%s)", c.file, c.line, d, got, want, c.fen)
				}
			}
		}
	}
}

// TestReferenceCopiesMatchShared checks the test copies against the
// project's shared reference files when those are present beside the repo.
func TestReferenceCopiesMatchShared(t *testing.T) {
	shared, _ := filepath.Glob("../../shared/perft/*.epd")
	if len(shared) == 0 {
		t.Skip("../shared/perft not present")
	}
	for _, s := range shared {
		a, _ := os.ReadFile(s)
		b, err := os.ReadFile(filepath.Join("testdata/perft", filepath.Base(s)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("testdata/perft/%s differs from %s: copy it again", filepath.Base(s), s)
		}
	}
}
