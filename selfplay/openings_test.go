package selfplay

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpeningsFile checks that pair i starts from line i mod n of an
// openings file, in both games, with SetUp and FEN tags.
func TestOpeningsFile(t *testing.T) {
	dir := t.TempDir()
	fens := []string{
		"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
		"rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
	}
	writeFile(t, dir, "open.fen", "# two openings\n\n"+fens[0]+"\n"+fens[1]+"\n")
	cfg, err := LoadConfig(writeFile(t, dir, "c.yaml", "max_plies: 40\nvariants:\n  - {variant: chess, pairs: 3, openings_file: open.fen}\n"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	run(t, cfg, out, 2)
	games, err := ReadPGN(filepath.Join(out, "chess", PGNName))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 6 {
		t.Fatalf("%d games", len(games))
	}
	for i, g := range games {
		want := fens[(i/2)%2]
		if g.Tag("SetUp") != "1" || g.Tag("FEN") != want {
			t.Errorf("game %d: SetUp %q FEN %q, want %q", i, g.Tag("SetUp"), g.Tag("FEN"), want)
		}
		for _, c := range g.Comments {
			if c == "book" {
				t.Errorf("game %d: book move after a FEN opening", i)
			}
		}
		if _, _, err := g.Replay(); err != nil {
			t.Errorf("game %d: %v", i, err)
		}
	}
	checkOutputs(t, out)
}

// TestProgressLog checks the plain progress lines written when the output
// is not a terminal.
func TestProgressLog(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b, 40, time.Hour)
	for i := 0; i < 40; i++ {
		p.pairDone()
	}
	p.finish()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	// A header, then a line every 5% (2 pairs).
	if len(lines) != 21 || !strings.HasPrefix(lines[20], "selfplay: 40/40 pairs (100%)") || !strings.Contains(lines[20], "games/hour") {
		t.Fatalf("%d lines:\n%s", len(lines), b.String())
	}
}
