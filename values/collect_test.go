package values

import (
	"context"
	"encoding/json"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/internal/stats"
	"tamerlane/selfplay"
)

// TestRegressionReadsSelfPlayMatches: the regression reads self-play
// streams and matches of a program against itself (here the same table at
// two node limits, as an outside engine's self-play is configured), never
// a match between two different programs; finished and in progress alike.
func TestRegressionReadsSelfPlayMatches(t *testing.T) {
	dir := t.TempDir()
	hand, err := filepath.Abs("../data/hand/chess.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "run.yaml")
	cfgText := "seed: 5\nnodes: 100\nmax_plies: 60\nopenings: {plies: 4, max_score: 0}\n" +
		"dataset: {positions_per_game: 8, skip_plies: 4}\n" +
		"variants:\n  - {variant: chess, pairs: 2}\n" +
		"matches:\n" +
		"  - {name: same, variant: chess, pairs: 3}\n" +
		"  - {name: other, variant: chess, b: " + hand + ", pairs: 4}\n"
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := selfplay.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := selfplay.Run(context.Background(), cfg, dir, selfplay.RunOptions{Workers: 2, Factory: selfplay.GreedyFactory()}); err != nil {
		t.Fatal(err)
	}
	same, err := selfplay.SameProgramMatches(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !same["same"] || same["other"] || len(same) != 1 {
		t.Errorf("same-program matches %v, want only \"same\"", same)
	}
	const want = 2*2 + 2*3 // the self-play stream's games and the same-program match's
	for i, stage := range []string{"finished", "in progress"} {
		if i == 1 {
			if err := os.Remove(filepath.Join(dir, selfplay.SummaryName)); err != nil {
				t.Fatal(err)
			}
		}
		reg, err := CollectRegression([]string{dir}, SampleOptions{MinPly: 4})
		if err != nil {
			t.Fatal(err)
		}
		vs := reg["chess"]
		if vs == nil {
			t.Fatalf("%s: no chess samples", stage)
		}
		if vs.Games != want {
			t.Errorf("%s: %d regression games, want %d", stage, vs.Games, want)
		}
	}
}

// playSelfplay plays the self-play config text (written to dir/name.yaml,
// so relative paths are dir's) with the greedy player into dir/name and
// returns that directory.
func playSelfplay(t *testing.T, dir, name, text string) string {
	t.Helper()
	cfg, err := selfplay.LoadConfig(writeTestFile(t, dir, name+".yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	if _, err := selfplay.Run(context.Background(), cfg, out, selfplay.RunOptions{Workers: 1, Factory: selfplay.GreedyFactory()}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestImbalancesFromDifferentStarts: imbalance streams of one variant
// that take their material off the array and off a file of positions
// are not fitted together; streams with the same start positions are.
func TestImbalancesFromDifferentStarts(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "mid.fen", strings.Join(midFENs, "\n")+"\n")
	play := func(name, openings string) string {
		return playSelfplay(t, dir, name, "seed: 3\nnodes: 50\nmax_plies: 12\nimbalances:\n"+
			"  - {name: P odds, variant: chess, first_removes: [P@d], pairs: 2"+openings+"}\n")
	}
	array, mid, mid2 := play("array", ""), play("mid", ", openings_file: mid.fen"), play("mid2", ", openings_file: mid.fen, openings_offset: 1")
	ms, from, err := CollectImbalances([]string{mid, mid2})
	if err != nil || len(ms["chess"]) != 1 || ms["chess"][0].Pairs != 4 {
		t.Errorf("two runs from the same positions: %v (%v), want one match of 4 pairs", ms["chess"], err)
	}
	if want := filepath.Join(dir, "mid.fen"); from["chess"] != want {
		t.Errorf("the matches' positions %q, want %q", from["chess"], want)
	}
	_, _, err = CollectImbalances([]string{array, mid})
	if err == nil || !strings.Contains(err.Error(), "chess imbalance matches take their material off the array ("+array+") and off the positions of "+filepath.Join(dir, "mid.fen")+" ("+mid+")") {
		t.Errorf("runs from the array and from positions: %v", err)
	}
	// A file is its contents: a copy is the same positions, a file with
	// other lines is not.
	writeTestFile(t, dir, "copy.fen", strings.Join(midFENs, "\n")+"\n")
	writeTestFile(t, dir, "other.fen", strings.Join(midFENs[1:], "\n")+"\n")
	copied, other := play("copy", ", openings_file: copy.fen"), play("other", ", openings_file: other.fen")
	if ms, _, err := CollectImbalances([]string{mid, copied}); err != nil || ms["chess"][0].Pairs != 4 {
		t.Errorf("runs from a file and its copy: %v (%v), want one match of 4 pairs", ms["chess"], err)
	}
	if _, _, err := CollectImbalances([]string{mid, other}); err == nil || !strings.Contains(err.Error(), "other.fen ("+other+")") {
		t.Errorf("runs from files of different positions: %v", err)
	}
	// A file no longer on the machine is known by its path alone.
	if err := os.Remove(filepath.Join(dir, "copy.fen")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := CollectImbalances([]string{mid, copied}); err == nil || !strings.Contains(err.Error(), "copy.fen ("+copied+")") {
		t.Errorf("a run whose file is gone beside one whose file is here: %v", err)
	}
}

// TestTwoBishopsLeftOut: a match in which a side gives up both bishops is
// left out of the imbalance fit with a note (one bishop's imbalance value
// includes the pair, so two would count it twice); the others are fitted.
func TestTwoBishopsLeftOut(t *testing.T) {
	dir := t.TempDir()
	text := "seed: 4\nnodes: 50\nmax_plies: 12\nimbalances:\n" +
		"  - {name: P odds, variant: chess, first_removes: [P], pairs: 2}\n" +
		"  - {name: B vs P, variant: chess, first_removes: [B], second_removes: [P], pairs: 2}\n" +
		"  - {name: N+P vs B+B, variant: chess, first_removes: [N, P], second_removes: [B, B], pairs: 2}\n"
	out := playSelfplay(t, dir, "run", text)
	doc, err := Measure([]string{out}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := doc.Variant("chess")
	if v == nil {
		t.Fatal("no chess values")
	}
	var names []string
	for _, m := range v.Matches {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "P odds,B vs P" || v.ImbalanceGames != 8 {
		t.Errorf("fitted matches %v (%d games), want P odds and B vs P (8 games)", names, v.ImbalanceGames)
	}
	if !strings.Contains(strings.Join(v.Notes, "\n"), `imbalance: match "N+P vs B+B" left out: a side gives up two B`) {
		t.Errorf("notes %q", v.Notes)
	}
}

// TestFormatP: a small p-value keeps its digits.
func TestFormatP(t *testing.T) {
	for p, want := range map[float64]string{0.29201: "0.2920", 2.43e-5: "2.4e-05", 0: "0.0000"} {
		if got := formatP(p); got != want {
			t.Errorf("formatP(%v) = %q, want %q", p, got, want)
		}
	}
}

// TestImbalanceConsistencyInDocument: three matches for two values (the
// pawn and the knight) leave one degree of freedom, which the document
// tests and the Markdown reports with each match's residual; two matches
// leave none, and the Markdown says nothing tests that the values add up.
func TestImbalanceConsistencyInDocument(t *testing.T) {
	dir := t.TempDir()
	head := "seed: 5\nnodes: 50\nmax_plies: 12\nimbalances:\n" +
		"  - {name: P odds, variant: chess, first_removes: [P], pairs: 3}\n" +
		"  - {name: N vs P+P, variant: chess, first_removes: [N], second_removes: [P, P], pairs: 3}\n"
	for _, tc := range []struct {
		name, extra string
		matches, df int
		says        string
	}{
		{"overdetermined", "  - {name: N vs P, variant: chess, first_removes: [N], second_removes: [P], pairs: 3}\n", 3, 1, "The 3 imbalance matches overdetermine the values"},
		{"exact", "", 2, 0, "As many imbalance matches as values"},
	} {
		out := playSelfplay(t, dir, tc.name, head+tc.extra)
		doc, err := Measure([]string{out}, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		v := doc.Variant("chess")
		if v == nil || v.ImbalanceConsistency == nil {
			t.Fatalf("%s: no consistency test (notes %q)", tc.name, v.Notes)
		}
		c := v.ImbalanceConsistency
		if c.Matches != tc.matches || c.DF != tc.df || len(c.Residuals) != len(v.Matches) {
			t.Errorf("%s: %d matches, df %d, %d residuals; want %d, %d, %d", tc.name, c.Matches, c.DF, len(c.Residuals), tc.matches, tc.df, len(v.Matches))
		}
		for i, r := range c.Residuals {
			if r.Name != v.Matches[i].Name {
				t.Errorf("%s: residual %d is %q, match %q", tc.name, i, r.Name, v.Matches[i].Name)
			}
		}
		md := doc.Markdown()
		if !strings.Contains(md, tc.says) || strings.Contains(md, "fitted score") != (tc.df > 0) {
			t.Errorf("%s: Markdown lacks %q or has the wrong table:\n%s", tc.name, tc.says, md)
		}
		js, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(js), `"imbalance_consistency":{"matches":`) {
			t.Errorf("%s: JSON lacks imbalance_consistency", tc.name)
		}
	}
}

// TestReportedFitWidened: matches that break the additive model (a rook
// worth a pawn more in one of its two matches) are reported with
// intervals √(X²/df) as wide as the plain fit's; matches from additive
// values keep the plain fit's; a positive correlation ρ of a pair's games
// widens them by √(1 + ρ) instead when that is larger.
func TestReportedFitWidened(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	vals := map[string]float64{"P": 1, "N": 3, "R": 5}
	match := func(name string, first, second []string, rook float64) *ImbalanceMatch {
		v := maps.Clone(vals)
		v["R"] = rook
		d := 0.0
		for _, x := range first {
			d -= v[x]
		}
		for _, x := range second {
			d += v[x]
		}
		p := 1 / (1 + math.Exp(-0.7*d))
		m := &ImbalanceMatch{Name: name, FirstRemoves: first, SecondRemoves: second, Pairs: 1000}
		for range 2000 {
			if rng.Float64() < p {
				m.Wins++
			} else {
				m.Losses++
			}
		}
		return m
	}
	for _, odd := range []float64{5, 6} {
		ms := []*ImbalanceMatch{match("P odds", []string{"P"}, nil, 5), match("N vs P+P+P", []string{"N"}, []string{"P", "P", "P"}, 5),
			match("R vs N+P+P", []string{"R"}, []string{"N", "P", "P"}, 5), match("R vs P+P+P+P", []string{"R"}, []string{"P", "P", "P", "P"}, odd)}
		plain, _, err := fitImbalance([]string{"P", "N", "R"}, ms, 0)
		if err != nil {
			t.Fatal(err)
		}
		c := plain.Consistency
		h := max(1, float64(c.ChiSquare)/float64(c.DF))
		// Pairs whose games correlate widen by √(1 + ρ) when that is the
		// larger; a negative ρ narrows nothing.
		for _, rho := range []float64{0, -0.2, 0.5, 4} {
			var pc *PairCorrelation
			if rho != 0 {
				pc = &PairCorrelation{Pairs: 4000, Rho: stats.NewInterval(rho, 0.02)}
			}
			reported, _, err := reportedImbalanceFit([]string{"P", "N", "R"}, ms, pc)
			if err != nil {
				t.Fatal(err)
			}
			ratio := reported.Estimates[2].SE / plain.Estimates[2].SE
			want := math.Sqrt(max(h, 1+max(0, rho)))
			if math.Abs(ratio-want) > 1e-9 || (rho == 0 && (odd == 6) != (ratio > 1.5)) {
				t.Errorf("rook worth %v in one match, ρ %v: X² %.2f on %d df, intervals ×%.3f, want ×%.3f", odd, rho, c.ChiSquare, c.DF, ratio, want)
			}
			// The reported test takes the correlation too: X² over 1 + ρ⁺,
			// each z over its root; the plain fit's test is left as it was.
			k := 1 + max(0, rho)
			rc := reported.Consistency
			if math.Abs(float64(rc.ChiSquare)*k-float64(c.ChiSquare)) > 1e-9 || rc.PairInflation != k ||
				math.Abs(float64(rc.Residuals[3].Z)*math.Sqrt(k)-float64(c.Residuals[3].Z)) > 1e-9 || c.PairInflation != 1 {
				t.Errorf("ρ %v: reported X² %.3f, z %.3f, k %v; plain X² %.3f, z %.3f, k %v", rho, rc.ChiSquare, rc.Residuals[3].Z, rc.PairInflation, c.ChiSquare, c.Residuals[3].Z, c.PairInflation)
			}
		}
	}
}

// TestRowsInVariantOrder: without regression games the rows follow the
// variant's piece types (N before R), not the order the matches were
// played in.
func TestRowsInVariantOrder(t *testing.T) {
	dir := t.TempDir()
	out := playSelfplay(t, dir, "run", "seed: 6\nnodes: 50\nmax_plies: 120\nadjudication: {resign: {move_count: 2, score: 700}}\nimbalances:\n"+
		"  - {name: R vs N+P, variant: chess, first_removes: [R], second_removes: [N, P], pairs: 6}\n"+
		"  - {name: N vs P+P+P, variant: chess, first_removes: [N], second_removes: [P, P, P], pairs: 6}\n"+
		"  - {name: P odds, variant: chess, first_removes: [P], pairs: 6}\n")
	doc, err := Measure([]string{out}, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := doc.Variant("chess")
	var rows []string
	for _, p := range v.Pieces {
		rows = append(rows, p.Piece)
	}
	if strings.Join(rows, ",") != "N,R" {
		t.Errorf("rows %v, want N, R (notes %q)", rows, v.Notes)
	}
}
