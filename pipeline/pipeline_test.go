package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"tamerlane/configs"
	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/selfplay"
	"tamerlane/tune"
)

// TestEndToEnd runs a one-generation pipeline with the real search and
// checks the report, the exported table and the match.
func TestEndToEnd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := loadConfig(t, fmt.Sprintf(tinyConfig, 1, "always"))
	var log bytes.Buffer
	opts := testOptions(false)
	opts.Log = &log
	rep := runPipeline(t, cfg, dir, opts)
	if !rep.Finished || rep.Status != "finished" {
		t.Errorf("status %q, finished %v", rep.Status, rep.Finished)
	}
	for _, want := range []string{"gen 1/1 selfplay chess:", "gen 1/1 tune chess:", "gen 1/1 export chess:", "gen 1/1 verify chess:", "gen 1/1 accept chess: accepted", "report: "} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}

	// report.md and report.json exist, parse and mention the variant.
	md, err := os.ReadFile(filepath.Join(dir, ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Pipeline run tiny", "### chess", "**Self-play**", "**Tuning**", "**Piece values**", "Kaufman", "**Verification**", "SPRT", "**Decision**: **accepted**", "table-values-chess.png", "elo.png"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	got, err := ReadReport(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Generations) != 1 || len(got.Generations[0].Variants) != 1 {
		t.Fatalf("report.json: %d generations", len(got.Generations))
	}
	if !reflect.DeepEqual(got.Generations[0].Steps, Steps()) {
		t.Errorf("steps %v, want %v", got.Generations[0].Steps, Steps())
	}
	vr := got.Generations[0].Variants[0]
	if vr.Variant != "chess" || vr.Selfplay == nil || vr.Selfplay.Games != 6 || vr.Tune == nil || vr.Tune.Positions == 0 {
		t.Errorf("variant report: %+v", vr)
	}
	if len(vr.Values) == 0 || vr.Values[0].Texel == nil || vr.Values[0].Published == nil {
		t.Errorf("values rows: %+v", vr.Values)
	}
	// Three pairs measure no piece: no plot of measured values, only the
	// engine table's.
	if vr.Measured == nil || hasMeasured(vr.Measured) || exists(filepath.Join(dir, "values-chess.png")) {
		t.Errorf("measured values %+v, plot drawn %v", vr.Measured, exists(filepath.Join(dir, "values-chess.png")))
	}
	for _, p := range []string{"table-values-chess.png", "table-values-chess.svg", "elo.png", "elo.svg", vr.ValuesPlot} {
		if st, err := os.Stat(filepath.Join(dir, p)); err != nil || st.Size() == 0 {
			t.Errorf("plot %s: %v", p, err)
		}
	}

	// The match: SPRT fields present, also in the match's own summary.
	m := vr.Match
	if m == nil || m.SPRT == nil {
		t.Fatalf("no match or SPRT in the report: %+v", m)
	}
	if m.Pairs < 1 || m.Pairs > 4 || m.SPRT.Elo0 != -10 || m.SPRT.Elo1 != 10 || m.SPRT.Alpha != 0.05 || m.SPRT.Model != "normalized" ||
		(m.SPRT.Decision != "H0" && m.SPRT.Decision != "H1" && m.SPRT.Decision != "continue") || m.SPRT.Upper <= 0 {
		t.Errorf("match: %+v, SPRT %+v", m, m.SPRT)
	}
	sum, err := selfplay.ReadSummary(filepath.Join(dir, "gen-001", "match", "chess", selfplay.SummaryName))
	if err != nil || len(sum.Streams) != 1 || sum.Streams[0].SPRT == nil || sum.Streams[0].Kind != "match" {
		t.Fatalf("match summary: %v %+v", err, sum)
	}
	if vr.Accept == nil || !vr.Accept.Accepted || vr.Accept.Table != "gen-001/tables/chess.yaml" {
		t.Errorf("accept: %+v", vr.Accept)
	}

	// The exported table loads and holds tune's fitted weights; with
	// accept: always it is now the current table.
	v := engine.MustVariant("chess", nil)
	w, err := eval.LoadFile(v, filepath.Join(dir, "gen-001", "tables", "chess.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := tune.ReadReport(filepath.Join(dir, "gen-001", "tune"))
	if err != nil {
		t.Fatal(err)
	}
	fit := tr.Fit("chess")
	if fit == nil {
		t.Fatal("tune.json has no chess fit")
	}
	changed := 0
	for _, fw := range fit.Weights {
		x, ok := w.Get(fw.Name)
		if !ok || x != float64(fw.Value) {
			t.Errorf("table %s = %v, fit %v", fw.Name, x, float64(fw.Value))
		}
		if fw.Value != fw.Start {
			changed++
			if !strings.HasPrefix(fw.Name, "material.") {
				t.Errorf("weight %s changed though only material. is free", fw.Name)
			}
		}
	}
	if changed == 0 {
		t.Error("the fit changed no weight")
	}
	if w.Provenance.Source != "texel tuning" || w.Provenance.Run != "tiny/gen-001" || w.Provenance.Date != "2026-01-02" {
		t.Errorf("provenance %+v", w.Provenance)
	}
	cur, _ := os.ReadFile(filepath.Join(dir, TablesDir, "chess.yaml"))
	exp, _ := os.ReadFile(filepath.Join(dir, "gen-001", TablesDir, "chess.yaml"))
	if !bytes.Equal(cur, exp) {
		t.Error("accepted table is not the current table")
	}
	if got.Current["chess"].Generation != 1 {
		t.Errorf("current: %+v", got.Current)
	}

	// Running a finished run again changes nothing.
	before := normalizedReport(t, dir)
	runPipeline(t, cfg, dir, testOptions(false))
	if after := normalizedReport(t, dir); !reflect.DeepEqual(before, after) {
		t.Error("rerunning a finished run changed report.json")
	}
}

// TestResume interrupts a two-generation run after every step (under
// -short: see below) and in the middle of self-play and of two matches,
// resumes it, and checks that the final tables and report equal those of
// an uninterrupted run.
func TestResume(t *testing.T) {
	text := fmt.Sprintf(tinyConfig, 2, "always")
	ref := filepath.Join(t.TempDir(), "ref")
	runPipeline(t, loadConfig(t, text), ref, testOptions(true))
	want := outputs(t, ref)

	steps := Steps()
	nsteps := 2 * len(steps)
	type interrupt struct {
		name  string
		step  int    // cancel after this many steps (with games: the steps done before the cancel)
		table string // cancel when the players of a table with this path
		games int    // ... have been built this many times (0: none)
	}
	var cases []interrupt
	for k := 1; k < nsteps; k++ {
		// Under -short: every step of generation 1 (a resume at each kind
		// of step and at the next generation) and resumes at generation
		// 2's last two steps, whose match against generation 0 is played,
		// not reused.
		if testing.Short() && k > len(steps) && k < nsteps-2 {
			continue
		}
		cases = append(cases, interrupt{name: fmt.Sprintf("after-step-%d-%s", k, steps[(k-1)%len(steps)]), step: k})
	}
	cases = append(cases,
		interrupt{name: "in-selfplay-1", step: 0, table: "gen-001/base/", games: 8},
		interrupt{name: "in-verify-2", step: len(steps) + slices.Index(steps, StepVerify), table: "gen-002/tables/", games: 4},
		// Generation 2's match of its table against generation 0 (the
		// only players of the gen-000 table).
		interrupt{name: "in-vs-gen0-2", step: len(steps) + slices.Index(steps, StepVsGen0), table: "gen-000/tables/", games: 4})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "run")
			cfg := loadConfig(t, text)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := testOptions(true)
			steps := 0
			var done []string
			opts.AfterStep = func(g int, step string) {
				steps++
				done = append(done, fmt.Sprintf("%d/%s", g, step))
				if c.games == 0 && steps == c.step {
					cancel()
				}
			}
			if c.games > 0 {
				var mu sync.Mutex
				n := 0
				greedy := selfplay.GreedyFactory()
				opts.Factory = func(s selfplay.PlayerSpec) (selfplay.Player, error) {
					mu.Lock()
					if strings.Contains(filepath.ToSlash(s.Table), c.table) {
						n++
						if n == c.games {
							cancel()
						}
					}
					mu.Unlock()
					return greedy(s)
				}
			}
			_, err := Run(ctx, cfg, dir, opts)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("interrupted run: %v (steps done %v)", err, done)
			}
			if steps != c.step {
				t.Fatalf("%d steps done before the interrupt (%v), want %d", steps, done, c.step)
			}
			// The report shows the partial state.
			if rep, err := ReadReport(dir); err != nil || rep.Finished {
				t.Fatalf("partial report: %v, finished %v", err, rep != nil && rep.Finished)
			}
			opts = testOptions(true)
			var resumed []string
			opts.AfterStep = func(g int, step string) { resumed = append(resumed, fmt.Sprintf("%d/%s", g, step)) }
			runPipeline(t, loadConfig(t, text), dir, opts)
			if len(done)+len(resumed) != nsteps {
				t.Errorf("steps %v then %v: want %d in all", done, resumed, nsteps)
			}
			got := outputs(t, dir)
			for k, w := range want {
				if !reflect.DeepEqual(got[k], w) {
					t.Errorf("%s differs from the uninterrupted run's", k)
				}
			}
		})
	}
}

// outputs collects a run's final outputs: the tables (bytes, with the run
// directory, which the provenance notes name, replaced by "DIR"), the
// accept decisions and report.json without its timing fields.
func outputs(t *testing.T, dir string) map[string]any {
	t.Helper()
	out := map[string]any{"report.json": normalizedReport(t, dir)}
	files, _ := filepath.Glob(filepath.Join(dir, "tables", "*.yaml"))
	more, _ := filepath.Glob(filepath.Join(dir, "gen-*", "tables", "*.yaml"))
	acc, _ := filepath.Glob(filepath.Join(dir, "gen-*", AcceptedName))
	for _, f := range append(append(files, more...), acc...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[rel(dir, f)] = strings.ReplaceAll(string(b), dir, "DIR")
	}
	if len(files) != 1 || len(more) != 3 || len(acc) != 2 {
		t.Fatalf("%s: %d current tables, %d generation tables, %d accepted.json", dir, len(files), len(more), len(acc))
	}
	return out
}

// TestConfigErrors checks that mistakes name the file, the line and the
// field.
func TestConfigErrors(t *testing.T) {
	base := fmt.Sprintf(tinyConfig, 1, "pass")
	for _, c := range []struct {
		name, from, to string
		want           []string // substrings after "<file>:"
	}{
		{"unknown top-level field", "accept: pass\n", "accept: pass\nacept: always\n", []string{`:5: acept: unknown field "acept"`}},
		{"unknown self-play field", "    - {variant: chess, pairs: 3}", "    - {variant: chess, pairz: 3}", []string{`:12: selfplay.variants[0].pairz: unknown field "pairz"`}},
		{"unknown tune field", "  prior_sd: 50", "  prior: 50", []string{`:15: tune.prior: unknown field "prior"`}},
		{"bad variant", "{variant: chess,", "{variant: chesss,", []string{`:12: selfplay.variants[0].variant: unknown variant "chesss"`}},
		{"bad variant in tables", "accept: pass\n", "accept: pass\ntables: {xiangqi: t.yaml}\n", []string{`:5: tables.xiangqi: variant "xiangqi" is not among selfplay.variants`}},
		{"wrong type", "generations: 1", "generations: many", []string{`:3: generations: wrong type: want int, got !!str "many"`}},
		{"bad rule", "accept: pass", "accept: sometimes", []string{`:4: accept: unknown rule "sometimes"`}},
		{"bad sprt", "{elo0: -10, elo1: 10}", "{elo0: 10, elo1: -10}", []string{":18: verify.sprt: "}},
		{"table in self-play", "{variant: chess, pairs: 3}", "{variant: chess, pairs: 3, table: x.yaml}", []string{":12: selfplay.variants[0].table: "}},
		{"several at once", "  nodes: 150", "  nodes: -5\n  tt_mib: 0", []string{":7: selfplay.nodes: must not be negative", ":8: selfplay.tt_mib: must be at least 1"}},
		{"self-play required", "selfplay:", "selfplayy:", []string{":5: selfplayy: unknown field"}},
		{"fractional pairs", "  pairs: 4", "  pairs: 4.5", []string{`:17: verify.pairs: wrong type: want int, got !!float "4.5"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(base, c.from, c.to, 1)
			if text == base {
				t.Fatalf("replacement %q not found", c.from)
			}
			path := writeConfig(t, text)
			_, err := Load(path)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), path+w) {
					t.Errorf("error %q lacks %q", err, path+w)
				}
			}
			var ce *selfplay.ConfigError
			if !errors.As(err, &ce) {
				t.Errorf("%v is not a *selfplay.ConfigError", err)
			}
		})
	}
}

// TestRefuseOtherConfig checks that a run directory refuses another
// configuration but accepts more generations.
func TestRefuseOtherConfig(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	text := fmt.Sprintf(tinyConfig, 1, "always")
	runPipeline(t, loadConfig(t, text), dir, testOptions(true))
	other := strings.Replace(text, "prior_sd: 50", "prior_sd: 20", 1)
	_, err := Run(context.Background(), loadConfig(t, other), dir, testOptions(true))
	if err == nil || !strings.Contains(err.Error(), "another configuration") {
		t.Fatalf("another config: %v", err)
	}
	// More generations continue the run.
	rep := runPipeline(t, loadConfig(t, fmt.Sprintf(tinyConfig, 2, "always")), dir, testOptions(true))
	if !rep.Finished || len(rep.Generations) != 2 {
		t.Fatalf("extended run: %s, %d generations", rep.Status, len(rep.Generations))
	}
	// A directory that holds something else is refused.
	junk := t.TempDir()
	os.WriteFile(filepath.Join(junk, "notes.txt"), []byte("x"), 0o644)
	if _, err := Run(context.Background(), loadConfig(t, text), junk, testOptions(true)); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("non-empty directory: %v", err)
	}
}

// TestApply copies a run's accepted tables into a weights directory.
func TestApply(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	runPipeline(t, loadConfig(t, fmt.Sprintf(tinyConfig, 1, "always")), dir, testOptions(true))
	to := t.TempDir()
	orig := filepath.Join(to, "chess.yaml")
	gen0, err := os.ReadFile(filepath.Join(dir, "gen-000", TablesDir, "chess.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(orig, gen0, 0o644)
	res, err := Apply(dir, to)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || !res[0].Copied || res[0].Generation != 1 || res[0].Note != "" || res[0].Provenance.Source != "texel tuning" || res[0].Match == nil {
		t.Fatalf("apply: %+v", res)
	}
	checkApplied(t, dir, orig, res[0])
	// Again: nothing to do.
	res, err = Apply(dir, to)
	if err != nil || res[0].Copied || res[0].Reason != "already in place" {
		t.Fatalf("second apply: %v %+v", err, res)
	}

	// A run that accepted nothing copies nothing.
	none := filepath.Join(t.TempDir(), "none")
	runPipeline(t, loadConfig(t, strings.Replace(fmt.Sprintf(tinyConfig, 1, "pass"), "pairs: 4", "pairs: 0", 1)), none, testOptions(true))
	to2 := t.TempDir()
	res, err = Apply(none, to2)
	if err != nil || len(res) != 1 || res[0].Copied || res[0].Generation != 0 {
		t.Fatalf("apply of a run without acceptance: %v %+v", err, res)
	}
	if _, err := os.Stat(filepath.Join(to2, "chess.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a table was written")
	}
	if _, err := Apply(t.TempDir(), to2); err == nil || !strings.Contains(err.Error(), "not a pipeline run") {
		t.Errorf("apply of a non-run: %v", err)
	}
}

// TestDecide checks the accept rules.
func TestDecide(t *testing.T) {
	for _, c := range []struct {
		rule, decision string
		want           bool
	}{
		{AcceptPass, "H1", true}, {AcceptPass, "H0", false}, {AcceptPass, "continue", false}, {AcceptPass, "", false},
		{AcceptNotWorse, "H1", true}, {AcceptNotWorse, "H0", false}, {AcceptNotWorse, "continue", true}, {AcceptNotWorse, "", false},
		{AcceptAlways, "H1", true}, {AcceptAlways, "H0", true}, {AcceptAlways, "continue", true}, {AcceptAlways, "", true},
	} {
		if got, reason := decide(c.rule, c.decision); got != c.want || reason == "" {
			t.Errorf("decide(%s, %q) = %v (%s), want %v", c.rule, c.decision, got, reason, c.want)
		}
	}
}

// TestEmbeddedConfigs loads the configurations of the configs directory.
func TestEmbeddedConfigs(t *testing.T) {
	want := map[string]int{"default.yaml": 2, "overnight.yaml": len(engine.VariantNames()), "calibration-chess.yaml": 1, "hour.yaml": 4, "shared.yaml": 2}
	names, err := fs.Glob(configs.FS, "*.yaml")
	if err != nil || len(names) != len(want) {
		t.Fatalf("embedded configs %v (%v), want %d", names, err, len(want))
	}
	for _, n := range names {
		cfg, err := LoadFS(configs.FS, n)
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if len(cfg.Variants()) != want[n] || cfg.Name+".yaml" != n {
			t.Errorf("%s: name %q, variants %v", n, cfg.Name, cfg.Variants())
		}
		if _, err := cfg.Hash(); err != nil {
			t.Errorf("%s: hash: %v", n, err)
		}
	}
}

// TestExperimentConfigs loads the pipeline configs of
// configs/experiments/pipeline (their comments cite results of running
// them).
func TestExperimentConfigs(t *testing.T) {
	files, err := filepath.Glob("../configs/experiments/pipeline/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no pipeline experiment configs: %v", err)
	}
	for _, f := range files {
		cfg, err := Load(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(cfg.Variants()) == 0 || cfg.Name+".yaml" != filepath.Base(f) {
			t.Errorf("%s: name %q, variants %v", f, cfg.Name, cfg.Variants())
		}
	}
}

// TestRelativeDir runs with a relative run directory from a working
// directory other than the config file's.
func TestRelativeDir(t *testing.T) {
	cfg := loadConfig(t, fmt.Sprintf(tinyConfig, 1, "always"))
	t.Chdir(t.TempDir())
	rep := runPipeline(t, cfg, filepath.Join("runs", "rel"), testOptions(true))
	if !rep.Finished {
		t.Fatalf("status %s", rep.Status)
	}
	if _, err := os.Stat(filepath.Join("runs", "rel", "gen-001", "tables", "chess.yaml")); err != nil {
		t.Fatal(err)
	}
}

// TestVerifyMatchErrorRemapped: a mistake that only the verification
// match's own check finds (a FEN of its openings file) is reported at the
// pipeline config's verify section, not at the match config's field.
func TestVerifyMatchErrorRemapped(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("garbage line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := writeConfig(t, fmt.Sprintf(tinyConfig, 1, "pass")+"  openings_file: "+bad+"\n")
	_, err := Load(path)
	if err == nil {
		t.Fatal("no error")
	}
	if want := path + ":19: verify.openings_file: " + bad + ":1: "; !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "matches[0]") {
		t.Errorf("error %q, want it to contain %q", err, want)
	}
}
