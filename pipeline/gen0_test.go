package pipeline

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tamerlane/internal/stats"
	"tamerlane/selfplay"
)

// TestVsGen0 runs two generations that accept every table: generation 1
// reuses its verification match (played against the generation-0 table)
// as the match against generation 0 and plays none of its own;
// generation 2 plays gen-002 vs gen-000 for verify.vs_gen0.pairs pairs;
// the report shows both measurements beside the cumulative Elo, and the
// plot is drawn.
func TestVsGen0(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	text := strings.Replace(fmt.Sprintf(tinyConfig, 2, "always"), "  pairs: 4\n", "  pairs: 4\n  vs_gen0: {pairs: 3}\n", 1)
	cfg := loadConfig(t, text)
	var log bytes.Buffer
	opts := testOptions(true)
	opts.Log = &log
	rep := runPipeline(t, cfg, dir, opts)
	if !rep.Finished {
		t.Fatalf("status %q", rep.Status)
	}
	if _, err := os.Stat(filepath.Join(dir, "gen-001", Gen0Dir)); err == nil {
		t.Error("generation 1 played a match against generation 0 although its verification was one")
	}
	if !strings.Contains(log.String(), "gen 1/2 vs-gen0 chess: the verification match was against the generation-0 table: reused") {
		t.Errorf("log does not say that generation 1 reused its match:\n%s", log.String())
	}
	sum, err := selfplay.ReadSummary(filepath.Join(dir, "gen-002", Gen0Dir, "chess", selfplay.SummaryName))
	if err != nil {
		t.Fatal(err)
	}
	if s := sum.Streams[0]; s.Pairs != 3 || s.SPRT != nil {
		t.Errorf("gen-2 match vs gen 0: %d pairs, SPRT %v; want 3 pairs and no SPRT", s.Pairs, s.SPRT)
	}
	g1, g2 := rep.Generations[0].Variants[0], rep.Generations[1].Variants[0]
	if g1.VsGen0 == nil || g1.VsGen0.Dir != "gen-001/match/chess" {
		t.Errorf("generation 1's match vs gen 0: %+v, want the verification match", g1.VsGen0)
	}
	if g2.VsGen0 == nil || g2.VsGen0.Dir != "gen-002/vs-gen0/chess" || g2.VsGen0.Pairs != 3 {
		t.Errorf("generation 2's match vs gen 0: %+v", g2.VsGen0)
	}
	pts := rep.EloVsGen0["chess"]
	if len(pts) != 3 || pts[0].Measured != 0 || pts[0].Elo.Value != 0 || pts[1].Measured != 1 || pts[2].Measured != 2 {
		t.Fatalf("points %+v", pts)
	}
	for i, m := range []*MatchReport{g1.VsGen0, g2.VsGen0} {
		p := pts[i+1]
		if !same(p.Elo.Value, m.Elo.Elo) || !same(p.Elo.Hi-p.Elo.Value, m.Elo.Margin) || p.Match != m.Dir {
			t.Errorf("point %+v does not hold the match's Elo %v ± %v (%s)", p, m.Elo.Elo, m.Elo.Margin, m.Dir)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"measured Elo vs gen 0 (95%)", "**Against generation 0**: new vs gen-000, 3 pairs", "- Elo against generation 0: in each generation that changes a table, 3 pairs"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if st, err := os.Stat(filepath.Join(dir, "elo.png")); err != nil || st.Size() == 0 {
		t.Errorf("elo.png: %v", err)
	}
	if _, leg, ok := eloPlot(rep); !ok || !slices.Contains(leg.names, "chess measured vs gen 0") {
		t.Error("the Elo plot has no measured line")
	}
}

// same compares two report floats, NaN equal to NaN.
func same[A, B ~float64](a A, b B) bool {
	x, y := float64(a), float64(b)
	return x == y || math.IsNaN(x) && math.IsNaN(y) || math.Abs(x-y) < 1e-9
}

// TestGen0Points checks the points' rules on a made-up report: a
// rejected generation carries the last measurement, a generation-0
// table is exactly 0, an accepted table without a match is unknown, and
// a generation whose vs-gen0 step is not done yet has no point.
func TestGen0Points(t *testing.T) {
	acc := func(ok bool) *VariantDecision { return &VariantDecision{Variant: "chess", Accepted: ok} }
	match := func(elo, margin float64) *MatchReport {
		return &MatchReport{Elo: selfplay.EloEstimate{Elo: stats.Float4(elo), Margin: stats.Float4(margin)}, Dir: fmt.Sprint(elo)}
	}
	all := []string{StepAccept, StepVsGen0}
	gen := func(g int, steps []string, vr VariantReport) GenerationReport {
		vr.Variant = "chess"
		return GenerationReport{Generation: g, Steps: steps, Variants: []VariantReport{vr}}
	}
	rep := &Report{Config: ConfigSummary{Variants: []VariantPlan{{Variant: "chess"}}}, Generations: []GenerationReport{
		gen(1, all, VariantReport{Accept: acc(false)}),
		gen(2, all, VariantReport{Accept: acc(true), VsGen0: match(30, 20)}),
		gen(3, all, VariantReport{Accept: acc(false)}),
		gen(4, all, VariantReport{Accept: acc(true)}),
		gen(5, []string{StepAccept}, VariantReport{Accept: acc(true), VsGen0: match(99, 1)}),
	}}
	pts := gen0Points(rep)["chess"]
	nan := math.NaN()
	want := []struct {
		gen, measured int
		elo, lo, hi   float64
	}{{0, 0, 0, 0, 0}, {1, 0, 0, 0, 0}, {2, 2, 30, 10, 50}, {3, 2, 30, 10, 50}, {4, 4, nan, nan, nan}}
	if len(pts) != len(want) {
		t.Fatalf("%d points %+v, want %d", len(pts), pts, len(want))
	}
	for i, w := range want {
		p := pts[i]
		if p.Generation != w.gen || p.Measured != w.measured || !same(p.Elo.Value, w.elo) || !same(p.Elo.Lo, w.lo) || !same(p.Elo.Hi, w.hi) {
			t.Errorf("point %d: %+v, want %+v", i, p, w)
		}
	}
	if c := gen0Cell(pts[3]); c != "+30.0 [10.0, 50.0] (gen 2)" {
		t.Errorf("cell %q", c)
	}
	if c := gen0Cell(pts[4]); c != "unknown" {
		t.Errorf("cell %q", c)
	}
}
