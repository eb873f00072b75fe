package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/selfplay"
	"tamerlane/tune/tunetest"
)

// twoVariants is tinyConfig with a second variant, for a generation in
// which one variant's fit fails and the other's does not.
func twoVariants(tuneSection string) string {
	text := strings.Replace(fmt.Sprintf(tinyConfig, 1, "always"), "    - {variant: chess, pairs: 3}\n",
		"    - {variant: chess, pairs: 3}\n    - {variant: tamerlane2, pairs: 2}\n", 1)
	return strings.Replace(text, "  free: [material.]\n  prior_sd: 50\n", tuneSection, 1)
}

// writeSeparated replaces a positions.jsonl with n chess positions of
// tunetest.WriteSeparated, on which a fit without a prior fails.
func writeSeparated(t *testing.T, path string, n int) {
	t.Helper()
	if err := tunetest.WriteSeparated(path, n, 1); err != nil {
		t.Fatal(err)
	}
}

// runSeparated runs a one-generation pipeline of cfgText in a new
// directory, with chess's self-play positions replaced by writeSeparated
// between the self-play and tune steps, and returns the directory and
// the report.
func runSeparated(t *testing.T, cfgText string) (string, *Report) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := testOptions(true)
	opts.AfterStep = func(g int, step string) {
		if step == StepSelfplay {
			cancel()
		}
	}
	if _, err := Run(ctx, loadConfig(t, cfgText), dir, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("run stopped after self-play: err %v", err)
	}
	writeSeparated(t, filepath.Join(GenDir(dir, 1), "selfplay", "chess", selfplay.DatasetName), 60)
	var log bytes.Buffer
	opts = testOptions(true)
	opts.Log = &log
	rep := runPipeline(t, loadConfig(t, cfgText), dir, opts)
	t.Logf("log:\n%s", log.String())
	return dir, rep
}

// TestUnusableFitKeepsTable checks that a variant whose fit is unusable
// (prior_sd: 0 on data a fit without a prior cannot hold in range) keeps
// its table while the other variant goes on: no table exported, no match
// played, a rejection that says why, and the report says so.
func TestUnusableFitKeepsTable(t *testing.T) {
	dir, rep := runSeparated(t, twoVariants("  free: [material.]\n  prior_sd: 0\n"))
	if !rep.Finished {
		t.Fatalf("status %q", rep.Status)
	}
	gd := GenDir(dir, 1)
	if exists(filepath.Join(gd, TablesDir, "chess.yaml")) || exists(filepath.Join(gd, "match", "chess")) {
		t.Errorf("chess: a table or a match of an unusable fit")
	}
	if !exists(filepath.Join(gd, TablesDir, "tamerlane2.yaml")) || !exists(filepath.Join(gd, "match", "tamerlane2")) {
		t.Errorf("tamerlane2: no table or no match")
	}
	acc, err := ReadAcceptance(gd)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range acc.Variants {
		switch d.Variant {
		case "chess":
			if d.Accepted || !strings.Contains(d.Reason, "no usable fit") || !strings.Contains(d.Reason, "the current table is kept") ||
				d.Table != "gen-000/tables/chess.yaml" {
				t.Errorf("chess decision %+v", d)
			}
		case "tamerlane2":
			if !d.Accepted {
				t.Errorf("tamerlane2 decision %+v (accept: always)", d)
			}
		}
	}
	cur, err := os.ReadFile(filepath.Join(dir, TablesDir, "chess.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	gen0, err := os.ReadFile(filepath.Join(GenDir(dir, 0), TablesDir, "chess.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(cur, gen0) {
		t.Errorf("the current chess table changed")
	}
	vr := rep.Generations[0].Variants[0]
	if vr.Variant != "chess" || vr.Tune != nil || !strings.Contains(vr.TuneError, "the fit is unusable") {
		t.Errorf("report: chess tune %+v, error %q", vr.Tune, vr.TuneError)
	}
	md, err := os.ReadFile(filepath.Join(dir, ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**Tuning**: no usable fit (", "This generation exports no table of chess and keeps the current one.", "| no usable fit |"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// TestDefaultPriorPipeline checks that a tune section that sets no prior
// fits the same data by the prior the held-out games choose, and that the
// report says the prior was the default.
func TestDefaultPriorPipeline(t *testing.T) {
	dir, rep := runSeparated(t, twoVariants("  free: [material.]\n"))
	if !rep.Finished || !exists(filepath.Join(GenDir(dir, 1), TablesDir, "chess.yaml")) {
		t.Fatalf("status %q; chess table exported: %v", rep.Status, exists(filepath.Join(GenDir(dir, 1), TablesDir, "chess.yaml")))
	}
	tr := rep.Generations[0].Variants[0].Tune
	if tr == nil || len(tr.Regularisation) == 0 || !(tr.PriorSD > 0) {
		t.Fatalf("chess fit %+v, want a prior chosen by validation", tr)
	}
	if s := rep.Config.Tune; s.Regularise == nil || !s.PriorByDefault {
		t.Errorf("report settings %+v, want the default regularisation", s)
	}
	md, err := os.ReadFile(filepath.Join(dir, ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(md, []byte("(the default: the tune section sets no prior)")) {
		t.Errorf("report.md does not say the prior was the default")
	}
}
