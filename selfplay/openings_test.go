package selfplay

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tamerlane/engine"
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
	checkStartFENs(t, filepath.Join(out, "chess", PGNName), 6, func(i int) string { return fens[(i/2)%2] })
	checkOutputs(t, out)
}

// checkStartFENs checks that the n games of a PGN file start from
// want(i) (SetUp and FEN tags), with no book moves, and replay.
func checkStartFENs(t *testing.T, path string, n int, want func(i int) string) {
	t.Helper()
	games, err := ReadPGN(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != n {
		t.Fatalf("%d games, want %d", len(games), n)
	}
	for i, g := range games {
		if w := want(i); g.Tag("SetUp") != "1" || g.Tag("FEN") != w {
			t.Errorf("game %d: SetUp %q FEN %q, want %q", i, g.Tag("SetUp"), g.Tag("FEN"), w)
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
}

// TestImbalanceOpeningsFile checks that an imbalance with an openings
// file starts pair i from line i mod n with the pieces removed from that
// position (the first player's in game 1 as White, in game 2 as Black)
// and no walk, and that a line without a piece to remove is refused at
// load with the file and line.
func TestImbalanceOpeningsFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "mid.fen", "# middlegames\n"+
		"r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 9\n"+
		"\n"+
		"r3k2r/ppqb1ppp/2n1pn2/3p4/3P4/2NBPN2/PPQB1PPP/R3K2R b KQkq - 3 10\n")
	// The removed pieces: the first player's a-rook; the second player's
	// first bishop (scanned from its back rank, file a first) and d-pawn.
	want := [][2]string{
		{"r2q1rk1/pp2bppp/2n1pn2/8/3P4/2NBPN2/PP3PPP/2BQ1RK1 w - - 0 1",
			"2bq1rk1/pp2bppp/2n1pn2/3p4/8/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 1"},
		{"r3k2r/ppq2ppp/2n1pn2/8/3P4/2NBPN2/PPQB1PPP/4K2R b Kkq - 0 1",
			"4k2r/ppqb1ppp/2n1pn2/3p4/8/2NBPN2/PPQ2PPP/R3K2R b KQk - 0 1"},
	}
	cfg, err := LoadConfig(writeFile(t, dir, "c.yaml", "max_plies: 30\nimbalances:\n"+
		"  - {name: R vs B+P, variant: chess, first_removes: [R], second_removes: [B, P@d], pairs: 3, openings_file: mid.fen}\n"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	res := run(t, cfg, out, 2)
	checkStartFENs(t, filepath.Join(out, res.Summary.Streams[0].Dir, PGNName), 6, func(i int) string { return want[(i/2)%2][i%2] })
	checkOutputs(t, out)

	// The hash covers the file's positions: another order is another run.
	h1, err := cfg.Hash()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "mid.fen"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	writeFile(t, dir, "mid.fen", strings.Join([]string{lines[0], lines[3], lines[1]}, "\n")+"\n")
	if h2, err := cfg.Hash(); err != nil || h2 == h1 {
		t.Errorf("hash %s after reordering the openings, before %s (%v)", h2, h1, err)
	}

	// The second line has no bishops: White cannot lose one.
	writeFile(t, dir, "bad.fen", "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 9\n"+
		"r2qk2r/pp3ppp/2n1pn2/3p4/3P4/2N1PN2/PP3PPP/R2QK2R w KQkq - 0 11\n")
	_, err = LoadConfig(writeFile(t, dir, "bad.yaml", "imbalances:\n"+
		"  - {name: B odds, variant: chess, first_removes: [B], pairs: 1, openings_file: bad.fen}\n"))
	if err == nil || !strings.Contains(err.Error(), "imbalances[0].openings_file") || !strings.Contains(err.Error(), "bad.fen:2: first_removes[0]") {
		t.Errorf("a line without the piece: %v", err)
	}
}

// TestImbalanceOpeningsOffset checks that openings_offset shifts the
// positions an imbalance's pairs start from, that it is refused when
// negative or without a file, and that CheckImbalanceOpenings names the
// file, line, imbalance and field of a position a match cannot use.
func TestImbalanceOpeningsOffset(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "mid.fen", "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 9\n"+
		"r3k2r/ppqb1ppp/2n1pn2/3p4/3P4/2NBPN2/PPQB1PPP/R3K2R b KQkq - 3 10\n")
	// The first player's a-rook removed, from line 2 first (offset 3 of 2 lines).
	want := [][2]string{
		{"r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/2BQ1RK1 w - - 0 1",
			"2bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 1"},
		{"r3k2r/ppqb1ppp/2n1pn2/3p4/3P4/2NBPN2/PPQB1PPP/4K2R b Kkq - 0 1",
			"4k2r/ppqb1ppp/2n1pn2/3p4/3P4/2NBPN2/PPQB1PPP/R3K2R b KQk - 0 1"},
	}
	cfg, err := LoadConfig(writeFile(t, dir, "c.yaml", "max_plies: 20\nimbalances:\n"+
		"  - {name: R odds, variant: chess, first_removes: [R], pairs: 3, openings_file: mid.fen, openings_offset: 3}\n"))
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	res := run(t, cfg, out, 1)
	checkStartFENs(t, filepath.Join(out, res.Summary.Streams[0].Dir, PGNName), 6, func(i int) string { return want[(i/2+1)%2][i%2] })

	for _, c := range []struct{ field, want string }{
		{"openings_file: mid.fen, openings_offset: -1", "imbalances[0].openings_offset: must not be negative"},
		{"openings_offset: 2", "imbalances[0].openings_offset: shifts the positions of an openings_file, but none is given"},
	} {
		_, err := LoadConfig(writeFile(t, dir, "bad.yaml", "imbalances:\n"+
			"  - {name: R odds, variant: chess, first_removes: [R], pairs: 1, "+c.field+"}\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.field, err, c.want)
		}
	}

	v, err := engine.NewVariant("chess", nil)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mid.fen")
	ims := []ImbalanceRemoves{{"R odds", []string{"R"}, nil}, {"B vs P", []string{"B"}, []string{"P@d"}}}
	if err := CheckImbalanceOpenings(v, path, ims); err != nil {
		t.Errorf("both positions have a rook, a bishop and a d-pawn each: %v", err)
	}
	// The second line has no bishop on either side.
	ims = append(ims, ImbalanceRemoves{"B odds", []string{"B"}, nil})
	writeFile(t, dir, "mid.fen", "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 9\n"+
		"r2qk2r/pp3ppp/2n1pn2/3p4/3P4/2N1PN2/PP3PPP/R2QK2R w KQkq - 0 11\n")
	err = CheckImbalanceOpenings(v, path, ims)
	if err == nil || !strings.HasPrefix(err.Error(), path+`:2: imbalance "B vs P": first_removes[0]: no piece "B"`) {
		t.Errorf("a line without the bishops: %v", err)
	}
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
