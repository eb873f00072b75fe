package main

import (
	"strings"
	"testing"

	"tamerlane/engine"
)

// TestBenchPositions: the embedded middlegames of the depth report parse
// and cover every variant; a bad line is refused with its line number.
func TestBenchPositions(t *testing.T) {
	ps, err := parseBenchPositions(benchMiddlegames)
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, p := range ps {
		per[p.variant]++
	}
	for _, name := range engine.VariantNames() {
		if per[name] < 3 {
			t.Errorf("%s: %d middlegame positions, want at least 3", name, per[name])
		}
	}
	for _, bad := range []string{
		"# comment\nchess",
		"# comment\n\nnosuchvariant rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"chess rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nchess rnbqkbnr/ppp w",
	} {
		_, err := parseBenchPositions(bad)
		if err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("%q: error %v, want one naming the line", bad, err)
		}
	}
	if _, err := parseBenchPositions("#x\n\nchess 8/8/8/8 w - - 0 1"); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("bad FEN on line 3: error %v", err)
	}
}
