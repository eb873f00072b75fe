package values

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/internal/fsx"
	"tamerlane/internal/stats"
	"tamerlane/selfplay"
	"tamerlane/values/published"
)

const tinyMeasure = `
name: tiny
seed: 3
nodes: 100
max_plies: 120
adjudication: {resign: {move_count: 2, score: 700}}
regression: {min_ply: 4, min_games: 5}
variants:
  - variant: chess
    pairs: 40
    imbalance: {pieces: [N, R], half_width: 0.01, batch_pairs: 4, max_pairs: 8}
`

func runTiny(t *testing.T, dir string) *Document {
	t.Helper()
	cfg, err := ParseConfig([]byte(tinyMeasure), "tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), cfg, dir, RunOptions{Workers: 2, Factory: selfplay.GreedyFactory()}); err != nil {
		t.Fatal(err)
	}
	cat, err := published.Load("../data/published")
	if err != nil {
		t.Fatal(err)
	}
	return measureDir(t, dir, cat, Options{Samples: cfg.Regression.SampleOptions(), Regression: RegressionOptions{MinGames: 5}})
}

// measureDir returns the values document of the measurement in dir.
func measureDir(t *testing.T, dir string, cat published.Catalog, opt Options) *Document {
	t.Helper()
	dirs, err := RunDirs(dir)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Measure(dirs, cat, opt)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// matchesOnly returns tinyMeasure without its regression games and with
// the imbalance section imbalance.
func matchesOnly(t *testing.T, imbalance string) *Config {
	t.Helper()
	text := strings.Replace(tinyMeasure, "    pairs: 40\n    imbalance: {pieces: [N, R], half_width: 0.01, batch_pairs: 4, max_pairs: 8}",
		"    pairs: 0\n    imbalance: "+imbalance, 1)
	cfg, err := ParseConfig([]byte(text), "matches.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestMeasureRunAndResume(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	doc := runTiny(t, dir)
	v := doc.Variant("chess")
	if v == nil || v.Games != 80 {
		t.Fatalf("chess values %+v", v)
	}
	// Two rounds of 4 pairs per match reach the cap of 8 pairs.
	rounds, _ := filepath.Glob(filepath.Join(dir, "chess", "imbalance", "round-*"))
	if len(rounds) != 2 {
		t.Errorf("%d imbalance rounds, want 2", len(rounds))
	}
	if len(v.Matches) < 3 || v.ImbalanceGames < 3*16 {
		t.Errorf("matches %+v, %d games", v.Matches, v.ImbalanceGames)
	}
	// Both methods' games are adjudicated as the config says, and the
	// document counts the games resign adjudication ended, per method.
	var resigned [2]int // regression, imbalance
	for k, d := range append([]string{filepath.Join(dir, "chess", "selfplay")}, rounds...) {
		sc, err := selfplay.LoadConfig(filepath.Join(d, "config.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if r := sc.Adjudication.Resign; r.MoveCount != 2 || r.Score != 700 || !r.TwoSided {
			t.Errorf("%s: resign adjudication %+v, want 2 moves at 700 cp, two-sided", d, r)
		}
		sum, err := selfplay.ReadSummary(filepath.Join(d, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sum.Streams {
			resigned[min(k, 1)] += s.Terminations[selfplay.TermAdjudicatedLoss]
		}
	}
	if resigned[0] == 0 || resigned[1] == 0 || v.Resigned != resigned[0] || v.ImbalanceResigned != resigned[1] {
		t.Errorf("resigned games: document %d and %d, summaries %v (want both non-zero)", v.Resigned, v.ImbalanceResigned, resigned)
	}
	if !strings.Contains(doc.Markdown(), "Resign adjudication (our engine's scores) ended") {
		t.Errorf("report does not say how many games resign adjudication ended")
	}
	p := v.Piece("N")
	if p == nil || len(p.Published) == 0 || p.Published[0].Source != "kaufman1999" {
		t.Errorf("knight row %+v", p)
	}
	// Every band value of a piece with an imbalance value carries its
	// agreement with it, in pawns and relative to the knight's value in
	// the same band.
	knight := v.Piece("N")
	compared := 0
	for _, q := range v.Pieces {
		var imbN *stats.Interval
		for _, x := range q.Scaled {
			if x.Scale == "N=1" {
				imbN = x.Imbalance
			}
		}
		for b, x := range q.ByPhase {
			if want := x.Value != nil && q.Imbalance != nil; want != (x.ImbalanceZ != nil) || want && *x.ImbalanceZ != *agreementZ(x.Value, q.Imbalance) {
				t.Errorf("%s in %s: imbalance_z %v (band %v, imbalance %v)", q.Piece, x.Band, x.ImbalanceZ, x.Value, q.Imbalance)
			}
			n := knight.ByPhase[b].Value
			if want := q.Piece != "N" && x.Value != nil && n != nil; want != (x.Knights != nil) || want && math.Abs(float64(x.Knights.Value-x.Value.Value/n.Value)) > 1e-9 {
				t.Errorf("%s in %s: knights %v (band %v, knight %v)", q.Piece, x.Band, x.Knights, x.Value, n)
			}
			if want := x.Knights != nil && imbN != nil; want != (x.KnightsImbalanceZ != nil) {
				t.Errorf("%s in %s: knights_imbalance_z %v (knights %v, imbalance %v)", q.Piece, x.Band, x.KnightsImbalanceZ, x.Knights, imbN)
			} else if want {
				compared++
			}
		}
	}
	if compared == 0 {
		t.Error("no band value was compared with an imbalance value relative to the knight")
	}
	// A new measurement's planner stops on the reported fit, and says so
	// in measure.json; a measurement begun before that was recorded
	// keeps the plain fit its rounds were planned with.
	if on, err := stopsOnReported(dir); err != nil || !on {
		t.Errorf("a new measurement stops on the reported fit: %v (%v)", on, err)
	}
	marker := filepath.Join(dir, fsx.Marker(fsx.KindMeasure))
	mj, err := os.ReadFile(marker)
	if err != nil || !strings.Contains(string(mj), `"imbalance_stop": "reported"`) {
		t.Fatalf("measure.json %s (%v): want imbalance_stop reported", mj, err)
	}
	old := strings.Replace(string(mj), `,
  "imbalance_stop": "reported"`, "", 1)
	if err := os.WriteFile(marker, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if on, err := stopsOnReported(dir); err != nil || on {
		t.Errorf("a measurement without imbalance_stop stops on the reported fit: %v (%v)", on, err)
	}
	if err := os.WriteFile(marker, mj, 0o644); err != nil {
		t.Fatal(err)
	}
	// A resumed run plays nothing new and gives the same document.
	again := runTiny(t, dir)
	a, _ := json.Marshal(doc)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Errorf("resumed measurement differs:\n%s\n%s", a, b)
	}
	// Another config is refused; so is another kind of run.
	cfg, err := ParseConfig([]byte(strings.Replace(tinyMeasure, "seed: 3", "seed: 4", 1)), "other.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), cfg, dir, RunOptions{Factory: selfplay.GreedyFactory()}); err == nil || !strings.Contains(err.Error(), "another config") ||
		!strings.Contains(err.Error(), "its seed is 3, this config's 4 (tamerlane measure --seed 3 resumes it)") {
		t.Errorf("another config in the directory: %v", err)
	}
	sp := filepath.Join(dir, "chess", "selfplay")
	if err := Run(context.Background(), cfg, sp, RunOptions{Factory: selfplay.GreedyFactory()}); err == nil || !strings.Contains(err.Error(), "holds a selfplay run") {
		t.Errorf("a self-play directory: %v", err)
	}
}

// TestIndependence: the regression values do not change when the
// published catalogue is edited (values, sources) or when the fit starts
// from another table; only the published column follows the catalogue.
func TestIndependence(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "m")
	runTiny(t, dir)
	dirs, err := RunDirs(dir)
	if err != nil {
		t.Fatal(err)
	}
	real, err := published.Load("../data/published")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../data/published/chess.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.ReplaceAll(string(b), "value: 3.25", "value: 7.5")
	edited = strings.ReplaceAll(edited, "value: 9.75", "value: 2")
	tab, err := published.Parse("chess.yaml", []byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	other := published.Catalog{"chess": tab}
	opt := Options{Samples: SampleOptions{MinPly: 4}, Regression: RegressionOptions{MinGames: 5}, Scored: ScoredOptions{MinGames: 3}}
	a, err := Measure(dirs, real, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Regression.Start = []float64{1, 3.25, 3.25, 5, 9.75} // the engine table's values
	c, err := Measure(dirs, other, opt)
	if err != nil {
		t.Fatal(err)
	}
	va, vc := a.Variant("chess"), c.Variant("chess")
	if la, lc := va.Logistic, vc.Logistic; la == nil || lc == nil || relDiff(la.Alpha, lc.Alpha) > 1e-9 || relDiff(la.Gamma0, lc.Gamma0) > 1e-9 ||
		relDiff(la.Gamma1, lc.Gamma1) > 1e-9 || !(la.Gamma0+la.Gamma1 > 0) {
		t.Errorf("logistic scale %+v vs %+v: want equal and a positive pawn at phase 1", va.Logistic, vc.Logistic)
	}
	if p := va.Piece("N"); p == nil || len(p.ByPhase) == 0 {
		t.Fatalf("no by-phase values of the knight: notes %v", va.Notes)
	}
	changed, scored := false, 0
	for i, p := range va.Pieces {
		q := vc.Pieces[i]
		if (p.Scored == nil) != (q.Scored == nil) || p.Scored != nil && (relDiff(float64(p.Scored.Value), float64(q.Scored.Value)) > 1e-9 || relDiff(float64(p.Scored.SE), float64(q.Scored.SE)) > 1e-9) {
			t.Errorf("%s: scored %v changed to %v with another catalogue and start", p.Piece, p.Scored, q.Scored)
		}
		if p.Scored != nil && p.Piece != "P" {
			scored++
		}
		if (p.Regression == nil) != (q.Regression == nil) {
			t.Fatalf("%s: regression %v vs %v", p.Piece, p.Regression, q.Regression)
		}
		if p.Regression != nil && (relDiff(float64(p.Regression.Value), float64(q.Regression.Value)) > 1e-9 || relDiff(float64(p.Regression.SE), float64(q.Regression.SE)) > 1e-9) {
			t.Errorf("%s: regression %+v changed to %+v with another catalogue and start", p.Piece, *p.Regression, *q.Regression)
		}
		for b := range p.ByPhase {
			x, y := p.ByPhase[b].Value, q.ByPhase[b].Value
			if (x == nil) != (y == nil) || x != nil && relDiff(float64(x.Value), float64(y.Value)) > 1e-9 {
				t.Errorf("%s: by-phase value in %s %v changed to %v", p.Piece, p.ByPhase[b].Band, x, y)
			}
		}
		if len(p.Published) > 0 && len(q.Published) > 0 && p.Published[0].Value != q.Published[0].Value {
			changed = true
		}
	}
	if !changed {
		t.Error("the edited catalogue did not reach the published column: the test edits nothing")
	}
	// The scored differences' scores do not depend on the catalogue
	// either (they exist even where the pawn-up score is too close to
	// half to be a unit, and the values are then not measured).
	if (va.Scored == nil) != (vc.Scored == nil) {
		t.Fatalf("scored differences %v vs %v", va.Scored, vc.Scored)
	}
	if va.Scored != nil {
		if va.Scored.Note != vc.Scored.Note || len(va.Scored.Differences) != len(vc.Scored.Differences) {
			t.Errorf("scored differences changed with another catalogue and start: %q, %d against %q, %d",
				va.Scored.Note, len(va.Scored.Differences), vc.Scored.Note, len(vc.Scored.Differences))
		}
		for i, d := range va.Scored.Differences {
			if i < len(vc.Scored.Differences) && (d.Difference != vc.Scored.Differences[i].Difference || d.Score != vc.Scored.Differences[i].Score) {
				t.Errorf("%s: score %v changed to %v with another catalogue and start", d.Difference, d.Score, vc.Scored.Differences[i].Score)
			}
			scored++
		}
	}
	if scored == 0 {
		t.Errorf("no piece has a scored value and no difference a score: the test compares none (notes %q)", va.Notes)
	}
}

// TestMeasureChecks: with check_pairs a measurement's planner ends with
// check matches, recorded as such in plan.json and played for check_pairs
// (in whole batches), and the document tests the values against them.
func TestMeasureChecks(t *testing.T) {
	cfg := matchesOnly(t, "{pieces: [N, R], half_width: 0.01, batch_pairs: 4, max_pairs: 8, check_pairs: 6, start: {N: 3, R: 5}}")
	dir := filepath.Join(t.TempDir(), "m")
	if err := Run(context.Background(), cfg, dir, RunOptions{Workers: 2, Factory: selfplay.GreedyFactory()}); err != nil {
		t.Fatal(err)
	}
	var plan ImbalanceResult
	b, err := os.ReadFile(filepath.Join(dir, "chess", "imbalance", planFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &plan); err != nil {
		t.Fatal(err)
	}
	var checks []string
	for _, m := range plan.Matches {
		if m.Check {
			checks = append(checks, m.Name)
			if m.Pairs != 8 {
				t.Errorf("check %s: %d pairs, want 8 (6 in batches of 4)", m.Name, m.Pairs)
			}
		}
	}
	// R starts against N+P+P (its estimate 5): its check is against pawns
	// alone; the knight, worth less than the rook, has no other route.
	if strings.Join(checks, ",") != "R vs P+P+P+P" {
		t.Errorf("checks %v, want R vs P+P+P+P", checks)
	}
	doc := measureDir(t, dir, nil, Options{})
	v := doc.Variant("chess")
	if v == nil || !v.ImbalanceConsistency.Overdetermined() {
		t.Fatal("the document does not test the values against the check")
	}
	// Every pair's two games are in the summaries: the pairs' correlation
	// is known, and printed.
	if pc := v.ImbalancePairCorrelation; pc == nil || 2*pc.Pairs != v.ImbalanceGames || !strings.Contains(doc.Markdown(), "The two games of a pair") {
		t.Errorf("pair correlation %+v of %d games, want every pair, in the Markdown", pc, v.ImbalanceGames)
	}
}
