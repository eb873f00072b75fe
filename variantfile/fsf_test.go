package variantfile

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"tamerlane/engine"
)

// fsfLine is one recorded Fairy-Stockfish perft count.
type fsfLine struct {
	variant string
	depth   int
	nodes   uint64
	fen     string
}

func readFSF(t *testing.T) []fsfLine {
	t.Helper()
	f, err := os.Open("testdata/fsf-perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []fsfLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, " ", 4)
		if len(parts) != 4 {
			t.Fatalf("bad line %q", line)
		}
		d, err1 := strconv.Atoi(parts[1])
		n, err2 := strconv.ParseUint(parts[2], 10, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad line %q", line)
		}
		out = append(out, fsfLine{parts[0], d, n, parts[3]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFairyStockfishPerft compares perft on the variants of
// configs/variants, read from their files, with Fairy-Stockfish's counts.
func TestFairyStockfishPerft(t *testing.T) {
	lines := readFSF(t)
	variants := map[string]*engine.Variant{}
	checked := 0
	for _, l := range lines {
		v, seen := variants[l.variant]
		if !seen {
			var err error
			if v, err = Load("../configs/variants/" + l.variant + ".yaml"); err != nil {
				t.Fatal(err)
			}
			variants[l.variant] = v
		}
		if testing.Short() && l.depth > 3 {
			continue
		}
		p, err := engine.ParseFEN(v, l.fen)
		if err != nil {
			t.Errorf("%s: %s: %v", l.variant, l.fen, err)
			continue
		}
		if got := p.Perft(l.depth); got != l.nodes {
			t.Errorf("%s perft(%d) of %s: %d, Fairy-Stockfish %d", l.variant, l.depth, l.fen, got, l.nodes)
		}
		checked++
	}
	want := 59
	if testing.Short() {
		want = 44
	}
	if checked < want {
		t.Errorf("only %d counts checked", checked)
	}
}
