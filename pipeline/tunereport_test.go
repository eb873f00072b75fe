package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/tune"
)

// TestRegularisedGenerations runs two generations whose whole-eval fit
// chooses its prior by validation, on all generations' data: the report
// names the grid and each fit's choice, and generation 2 starts (and
// centres its prior) on generation 1's accepted table and tunes on both
// generations' games.
func TestRegularisedGenerations(t *testing.T) {
	text := strings.Replace(fmt.Sprintf(tinyConfig, 2, "always"), "  free: [material.]\n  prior_sd: 50\n",
		"  validation: 0.34\n  regularise: {grid: [0, 20]}\n", 1)
	text = strings.Replace(text, "pairs: 3}", "pairs: 4}", 1)
	text = strings.Replace(text, "accept: always", "accept: always\nhistory: -1", 1)
	dir := filepath.Join(t.TempDir(), "run")
	runPipeline(t, loadConfig(t, text), dir, testOptions(true))

	md, err := os.ReadFile(filepath.Join(dir, ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"prior sd chosen by validation (rule one-se) from none, 20 cp around the current table",
		"chosen by validation from 20, none", "Regularisation path", "**chosen**"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	rep, err := ReadReport(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range rep.Generations {
		tr := g.Variants[0].Tune
		if tr == nil || len(tr.Regularisation) != 2 {
			t.Fatalf("generation %d: tune report %+v", g.Generation, tr)
		}
		if c := tr.Regularisation; !(c[0].Chosen && tr.PriorSD == 20 || c[1].Chosen && tr.PriorSD == 0) {
			t.Errorf("generation %d: prior %v, path %+v", g.Generation, tr.PriorSD, c)
		}
	}

	v := engine.MustVariant("chess", nil)
	gen1, err := eval.LoadFile(v, filepath.Join(dir, "gen-001", TablesDir, "chess.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	t1, err := tune.ReadReport(filepath.Join(dir, "gen-001", "tune"))
	if err != nil {
		t.Fatal(err)
	}
	t2, err := tune.ReadReport(filepath.Join(dir, "gen-002", "tune"))
	if err != nil {
		t.Fatal(err)
	}
	f1, f2 := t1.Fit("chess"), t2.Fit("chess")
	moved := 0
	for i, w := range f2.Weights {
		if float64(w.Start) != gen1.Values[i] {
			t.Fatalf("generation 2 starts %s at %v, generation 1's table has %v", w.Name, w.Start, gen1.Values[i])
		}
		if f1.Weights[i].Start != w.Start {
			moved++
		}
	}
	if moved == 0 {
		t.Error("generation 1 changed no weight: the warm start is not tested")
	}
	if f2.Games <= f1.Games || len(t2.Data) != 2 {
		t.Errorf("generation 2 tuned on %d games from %v, generation 1 on %d", f2.Games, t2.Data, f1.Games)
	}
}

// TestFitStatusWording: an accepted fit whose line search stopped it
// (gonum's "Failure") is reported as converged, not as a failure; other
// statuses are printed as gonum names them.
func TestFitStatusWording(t *testing.T) {
	rep := &Report{Generations: []GenerationReport{{Generation: 1, Variants: []VariantReport{{Variant: "chess",
		Tune: &TuneReport{Positions: 10, Games: 2, Iterations: 3, Status: "Failure", SEMethod: "x"}}}}}}
	md := Markdown(rep)
	if strings.Contains(md, "(Failure)") || !strings.Contains(md, "3 iterations (converged: the line search could not lower the loss further)") {
		t.Errorf("tuning line of a line-search stop:\n%s", md)
	}
	rep.Generations[0].Variants[0].Tune.Status = "GradientThreshold"
	if md := Markdown(rep); !strings.Contains(md, "3 iterations (GradientThreshold)") {
		t.Errorf("tuning line of a gradient stop:\n%s", md)
	}
}
