package values

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tamerlane/selfplay"
)

// TestMeasurePGN: the games file of a self-play run, read as a PGN file
// of games from elsewhere with games this program cannot use appended
// (unfinished, of a variant it does not play, with a move that is not
// legal), gives the run's own regression to the last digit, and counts
// what it left out, naming the first unplayable game's line. The file
// against its run is refused (the same games); the file twice is too.
func TestMeasurePGN(t *testing.T) {
	dir := t.TempDir()
	// The engine at 60 nodes, not the greedy players: their games need
	// not measure material.
	cfg, err := selfplay.LoadConfig(writeTestFile(t, dir, "run.yaml", "seed: 1\nnodes: 60\nmax_plies: 80\nvariants:\n  - {variant: chess, pairs: 30}\n"))
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	if _, err := selfplay.Run(context.Background(), cfg, run, selfplay.RunOptions{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	opt := Options{Samples: SampleOptions{MinPly: 4}, Regression: RegressionOptions{MinGames: 3}}
	fromRun, err := Measure([]string{run}, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	games, err := os.ReadFile(filepath.Join(run, "chess", "games.pgn"))
	if err != nil {
		t.Fatal(err)
	}
	extra := "[Event \"unfinished\"]\n[Result \"*\"]\n\n1. e4 e5 *\n\n" +
		"[Event \"other\"]\n[Variant \"xiangqi\"]\n[Result \"1-0\"]\n\n1. h2e2 1-0\n\n" +
		"[Event \"illegal\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Ke3 0-1\n"
	path := writeTestFile(t, dir, "elsewhere.pgn", string(games)+"\n"+extra)
	line := strings.Count(string(games)+"\n", "\n") + 1 + strings.Count(extra[:strings.Index(extra, "[Event \"illegal\"]")], "\n")
	fromPGN, err := MeasurePGN([]string{path}, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	a, b := fromRun.Variant("chess"), fromPGN.Variant("chess")
	if a == nil || b == nil || a.Games != b.Games || a.Samples != b.Samples || a.Games != 60 {
		t.Fatalf("run %+v, PGN %+v: want the run's 60 games and samples", a, b)
	}
	identified := 0
	for _, p := range a.Pieces {
		q := b.Piece(p.Piece)
		if (p.Regression == nil) != (q.Regression == nil) {
			t.Fatalf("%s: identified in the run %v, from the PGN %v", p.Piece, p.Regression != nil, q.Regression != nil)
		}
		if p.Regression == nil {
			continue
		}
		identified++
		if p.Regression.Value != q.Regression.Value || p.Regression.SE != q.Regression.SE {
			t.Errorf("%s: run %v, PGN %v", p.Piece, p.Regression, q.Regression)
		}
	}
	if identified < 2 {
		t.Fatalf("%d pieces identified: the comparison tests nothing (notes %q)", identified, a.Notes)
	}
	r := fromPGN.PGN
	if r == nil || r.Games != 63 || r.Used != 60 || r.Unfinished != 1 || r.OtherVariant["xiangqi"] != 1 || r.Unplayable != 1 ||
		!strings.HasPrefix(r.FirstUnplayable, path+":"+strconv.Itoa(line)+": ply 3") {
		t.Errorf("read %+v, want 63 games, 60 used, 1 each left out, the illegal one at line %d ply 3", r, line)
	}
	if md := fromPGN.Markdown(); !strings.Contains(md, "Games from "+path+", not self-play of this program: 63 read, 60 used; left out 1 unfinished, 1 of other variants, 1 whose moves do not replay") {
		t.Errorf("Markdown lacks what was read:\n%s", md[:min(len(md), 800)])
	}
	if _, err := Compare(run, path, fromRun, fromPGN, []string{run}, nil); err == nil || !strings.Contains(err.Error(), "not independent") {
		t.Errorf("the run against its own games: %v", err)
	}
	if _, err := MeasurePGN([]string{path, writeTestFile(t, dir, "copy.pgn", string(games)+"\n"+extra)}, nil, opt); err == nil || !strings.Contains(err.Error(), "the same games") {
		t.Errorf("a file and its copy: %v", err)
	}
	if _, err := MeasurePGN([]string{writeTestFile(t, dir, "none.pgn", extra)}, nil, opt); err == nil || !strings.Contains(err.Error(), "no game this program can use") {
		t.Errorf("a file without a usable game: %v", err)
	}
	if b.Logistic == nil || b.Logistic.WhiteEdge == nil || a.Logistic.WhiteEdge.Value != b.Logistic.WhiteEdge.Value {
		t.Errorf("White's edge: run %+v, PGN %+v", a.Logistic, b.Logistic)
	}
}
