package values

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/selfplay"
)

// Three chess middlegame positions, each side with its knights, bishops,
// rooks, queen and d- and e-pawns, and each with White's d-pawn taken
// off (the pawn odds of a run with pawns: centre), derived by hand.
var (
	midFENs = []string{
		"r1bqk2r/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQK2R w KQkq - 0 8",
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4",
		"rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3",
	}
	midWithoutD = []string{
		"r1bqk2r/pp2bppp/2n1pn2/3p4/8/2NBPN2/PP3PPP/R1BQK2R w KQkq - 0 1",
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPP2PPP/R1BQKB1R w KQkq - 0 1",
		"rnbqkb1r/ppp1pppp/5n2/3p4/8/5N2/PPP1PPPP/RNBQKB1R w KQkq - 0 1",
	}
)

func writeTestFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const openingsMeasure = `seed: 5
nodes: 50
max_plies: 16
variants:
  - variant: chess
    pairs: 0
    imbalance: {pieces: [N], half_width: 0.01, batch_pairs: 2, max_pairs: 4, max_pawns: 2, pawns: centre,
                openings_file: mid.fen, start: {N: 2.5}}
`

// TestImbalanceOpeningsConfig checks a measurement whose matches start
// from a file of positions: the path is relative to the config, every
// match the planner could choose is checked against every line at load
// (an error names the field, file, line, match and remove), a run's
// config is read without the file, and the hash follows the file's
// contents, not its path.
func TestImbalanceOpeningsConfig(t *testing.T) {
	dir := t.TempDir()
	fen := writeTestFile(t, dir, "mid.fen", strings.Join(midFENs, "\n")+"\n")
	cfgPath := writeTestFile(t, dir, "m.yaml", openingsMeasure)
	cfg, err := LoadConfig(cfgPath, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Variants[0].Imbalance.OpeningsFile; got != fen {
		t.Errorf("openings_file %q, want %q", got, fen)
	}
	h1, err := cfg.Hash()
	if err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	writeTestFile(t, other, "mid.fen", strings.Join(midFENs, "\n")+"\n")
	moved, err := LoadConfig(writeTestFile(t, other, "m.yaml", openingsMeasure), "")
	if err != nil {
		t.Fatal(err)
	}
	if h2, err := moved.Hash(); err != nil || h2 != h1 {
		t.Errorf("the same positions elsewhere: hash %.12s, want %.12s (%v)", h2, h1, err)
	}
	writeTestFile(t, other, "mid.fen", midFENs[1]+"\n"+midFENs[0]+"\n")
	if h3, err := moved.Hash(); err != nil || h3 == h1 {
		t.Errorf("other positions: hash %.12s, the same as before (%v)", h3, err)
	}

	// An invalid plan is reported as such, not as positions that do not suit it.
	bad := strings.Replace(openingsMeasure, "pieces: [N]", "pieces: [K]", 1)
	_, err = LoadConfig(writeTestFile(t, dir, "bad.yaml", bad), "")
	if err == nil || !strings.Contains(err.Error(), "imbalance.pieces[0]") || strings.Contains(err.Error(), "openings_file") {
		t.Errorf("an invalid piece with an openings file: %v", err)
	}

	// Black has no e-pawn on the second line: "N vs P+P" (the d- and
	// e-pawn) cannot be played from it, though the pawn odds and "N vs
	// P" can, and the planner might never choose it.
	writeTestFile(t, dir, "mid.fen", midFENs[0]+"\n"+
		"r1bqkb1r/pppp1ppp/2n2n2/8/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 5\n")
	_, err = LoadConfig(cfgPath, "")
	want := `variants[0].imbalance.openings_file: ` + fen + `:2: imbalance "N vs P+P": second_removes[1]: no piece "P@e"`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a line without a pawn a candidate match removes: %v, want %q", err, want)
	}
	// A run's config is read without its files.
	os.Remove(fen)
	if _, err := LoadRunConfig(cfgPath); err != nil {
		t.Errorf("LoadRunConfig without the openings file: %v", err)
	}
	if _, err := LoadConfig(cfgPath, ""); err == nil || !strings.Contains(err.Error(), "variants[0].imbalance.openings_file") {
		t.Errorf("LoadConfig without the openings file: %v", err)
	}
}

// TestMeasureFromOpenings checks that the planner's rounds start from the
// file's positions: each round's run names the file, binds the pawns to
// their files, and goes on through the file where the match's last round
// ended, and the start estimates are recorded.
func TestMeasureFromOpenings(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "mid.fen", strings.Join(midFENs, "\n")+"\n")
	cfg, err := LoadConfig(writeTestFile(t, dir, "m.yaml", openingsMeasure), "")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "m")
	if err := Run(context.Background(), cfg, out, RunOptions{Workers: 1, Factory: selfplay.GreedyFactory()}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "chess", "imbalance", startFile))
	if err != nil || !strings.Contains(string(b), `"N": 2.5`) {
		t.Errorf("start.json %s (%v), want the config's start", b, err)
	}
	// The document says where the matches' material came off.
	doc, err := measurePool(t, out)
	if err != nil {
		t.Fatal(err)
	}
	fen := cfg.Variants[0].Imbalance.OpeningsFile
	if v := doc.Variant("chess"); v == nil || v.ImbalanceOpenings != fen || v.ImbalanceGames != 2*2*2*2 { // two matches, two rounds of two pairs
		t.Errorf("chess values %+v, want the matches' openings %s and 16 games", v, fen)
	}
	if md := doc.Markdown(); !strings.Contains(md, "took their material off the positions of "+fen) {
		t.Errorf("values.md does not name the positions:\n%s", md)
	}
	for round := 0; round < 2; round++ {
		rdir := filepath.Join(out, "chess", "imbalance", "round-00"+string(rune('0'+round)))
		sc, err := selfplay.LoadRunConfig(rdir)
		if err != nil {
			t.Fatal(err)
		}
		var odds *selfplay.ImbalanceConfig
		for k := range sc.Imbalances {
			im := &sc.Imbalances[k]
			if im.OpeningsFile != cfg.Variants[0].Imbalance.OpeningsFile || im.OpeningsOffset != 2*round {
				t.Errorf("round %d %s: openings %q offset %d, want %q offset %d", round, im.Name,
					im.OpeningsFile, im.OpeningsOffset, cfg.Variants[0].Imbalance.OpeningsFile, 2*round)
			}
			if im.Name == "P odds" {
				odds = im
			}
		}
		if odds == nil || strings.Join(odds.FirstRemoves, ",") != "P@d" {
			t.Fatalf("round %d: pawn odds %+v", round, odds)
		}
		sum, err := selfplay.ReadSummary(filepath.Join(rdir, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		var games []*selfplay.PGNGame
		for _, st := range sum.Streams {
			if st.Name == "P odds" {
				if games, err = selfplay.ReadPGN(filepath.Join(rdir, st.Dir, selfplay.PGNName)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if len(games) != 4 {
			t.Fatalf("round %d: %d pawn-odds games, want 4", round, len(games))
		}
		for pair := 0; pair < 2; pair++ {
			if got, want := games[2*pair].Tag("FEN"), midWithoutD[(2*round+pair)%3]; got != want {
				t.Errorf("round %d pair %d: White without its d-pawn from %q, want %q", round, pair, got, want)
			}
		}
	}
}
