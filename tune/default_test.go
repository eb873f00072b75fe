package tune

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/selfplay"
	"tamerlane/tune/tunetest"
)

// writeSeparatedRun writes a self-play-like run directory whose chess
// data set is tunetest.WriteSeparated's n positions drawn with seed.
func writeSeparatedRun(t *testing.T, dir string, n int, seed uint64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "chess"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := tunetest.WriteSeparated(filepath.Join(dir, "chess", selfplay.DatasetName), n, seed); err != nil {
		t.Fatal(err)
	}
}

// TestDefaultPriorChosenByValidation checks that a configuration setting
// no prior chooses one by the held-out games, as `regularise: {}` does:
// on data where the fit without a prior is unusable (prior_sd: 0 written
// out), the default fits, with the same table as `regularise: {}`.
func TestDefaultPriorChosenByValidation(t *testing.T) {
	for _, tc := range []struct {
		yaml    string
		grid    bool // the fit chooses its prior from a grid
		byDflt  bool // ... by default
		priorSD float64
	}{
		{"free: [material.]\n", true, true, 0},
		{"regularise: {}\n", true, false, 0},
		{"prior_sd: 0\n", false, false, 0},
		{"prior_sd: 40\n", false, false, 40},
		{"validation: 0\n", false, false, 0}, // nothing held out to choose by
		{"moves: {}\n", false, false, 0},     // the move-choice fit has its own penalty
	} {
		c, err := ParseConfig([]byte(tc.yaml), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		fo := c.Options(nil).Fit
		if (len(fo.Grid) > 0) != tc.grid || fo.DefaultGrid != tc.byDflt || fo.PriorSD != tc.priorSD {
			t.Errorf("%q: grid %v (default %v), prior sd %v; want a grid %v (default %v), prior sd %v", tc.yaml, fo.Grid, fo.DefaultGrid, fo.PriorSD, tc.grid, tc.byDflt, tc.priorSD)
		}
		if tc.grid && (!slices.Equal(fo.Grid, DefaultGrid()) || fo.Rule != RuleOneSE) {
			t.Errorf("%q: grid %v rule %q, want regularise: {}'s", tc.yaml, fo.Grid, fo.Rule)
		}
	}

	data := t.TempDir()
	writeSeparatedRun(t, data, 60, 1)
	fit := func(yaml string) (*Report, string, error) {
		c, err := ParseConfig([]byte(yaml), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		opt := c.Options(nil)
		opt.Name, opt.Now = "run", time.Unix(0, 0)
		rep, err := Run(context.Background(), []string{data}, out, opt)
		return rep, out, err
	}
	if _, _, err := fit("free: [material.]\nprior_sd: 0\n"); err == nil || !strings.Contains(err.Error(), "the fit is unusable") ||
		!strings.Contains(err.Error(), "leave prior_sd out") {
		t.Fatalf("without a prior: err %v, want an unusable fit", err)
	}
	rep, out, err := fit("free: [material.]\n")
	if err != nil {
		t.Fatalf("default: %v", err)
	}
	f := rep.Fits[0]
	if len(f.Regularisation) != len(DefaultGrid()) || !(f.PriorSD > 0) || !strings.Contains(f.PriorText(), "chosen by validation") {
		t.Errorf("default fit: prior %v, %s, path of %d fits", f.PriorSD, f.PriorText(), len(f.Regularisation))
	}
	for _, w := range f.Weights {
		if !(float64(w.Value) <= eval.MaxWeight && float64(w.Value) >= -eval.MaxWeight) {
			t.Errorf("%s = %v", w.Name, w.Value)
		}
	}
	_, regOut, err := fit("free: [material.]\nregularise: {}\n")
	if err != nil {
		t.Fatal(err)
	}
	a, err := os.ReadFile(filepath.Join(out, "tables", "chess.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(regOut, "tables", "chess.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("the default's table differs from regularise: {}'s:\n%s\n%s", a, b)
	}
}

// TestDefaultPriorWithoutHeldOutGames checks that the default prior,
// when the data hold no position out to choose by, fits without a prior
// (as an explicit regularise: section would fail).
func TestDefaultPriorWithoutHeldOutGames(t *testing.T) {
	data := t.TempDir()
	writeSyntheticRun(t, data, engine.MustVariant("chess", nil), 300, 3)
	c := &Config{Free: []string{"material."}}
	opt := c.Options(nil)
	opt.Load.ValidFraction = 0 // what a split of very few games can give
	ds, err := Load([]string{data}, opt.Load)
	if err != nil {
		t.Fatal(err)
	}
	start, err := eval.Default(engine.MustVariant("chess", nil))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Fit(ds["chess"], start, opt.Fit)
	if err != nil {
		t.Fatalf("default prior without held-out games: %v", err)
	}
	if f.PriorSD != 0 || f.Regularisation != nil {
		t.Errorf("prior %v, path %v; want no prior", f.PriorSD, f.Regularisation)
	}
	opt.Fit.DefaultGrid = false // an explicit regularise: section
	if _, err := Fit(ds["chess"], start, opt.Fit); err == nil || !strings.Contains(err.Error(), "held-out") {
		t.Errorf("explicit grid without held-out games: err %v", err)
	}
}
