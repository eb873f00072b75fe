package values

import (
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/selfplay"
)

func TestMeasureConfigs(t *testing.T) {
	files, err := filepath.Glob("../configs/measure/*.yaml")
	if err != nil || len(files) < 4 {
		t.Fatalf("configs %v (%v)", files, err)
	}
	experiments, err := filepath.Glob("../configs/experiments/measure/*.yaml")
	if err != nil || len(experiments) < 2 {
		t.Fatalf("experiment configs %v (%v)", experiments, err)
	}
	atlas, err := filepath.Glob("../configs/measure/atlas/*.yaml")
	if err != nil || len(atlas) < 4 {
		t.Fatalf("atlas configs %v (%v)", atlas, err)
	}
	files = append(append(files, experiments...), atlas...)
	for _, f := range files {
		cfg, err := LoadConfig(f, "")
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if _, err := cfg.Hash(); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// Measurements played by an outside engine: the engine may be absent
	// here, but nothing else may be wrong.
	outside, err := filepath.Glob("../configs/measure/outside-engine/*.yaml")
	if err != nil || len(outside) == 0 {
		t.Fatalf("outside-engine configs %v (%v)", outside, err)
	}
	for _, f := range outside {
		cfg, err := LoadRunConfig(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		// Their openings files suit every match the planner may choose.
		for i, v := range cfg.Variants {
			if v.Imbalance == nil || v.Imbalance.OpeningsFile == "" {
				continue
			}
			ev, err := v.engineVariant()
			if err != nil {
				t.Fatal(err)
			}
			if err := cfg.checkOpenings(i, ev); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"variants:\n  - {variant: chess, pairs: 2, pars: 3}\n", "x.yaml:2"},
		{"variants:\n  - {variant: chess, imbalance: {pieces: [K]}}\n", `"K" is not a non-royal, non-pawn piece`},
		{"variants:\n  - {variant: chess, imbalance: {pieces: [N, N]}}\n", "listed twice"},
		{"variants:\n  - {variant: nochess, pairs: 2}\n", "variants[0].variant"},
		{"variants:\n  - {variant: chess}\n", "nothing to measure"},
		{"nodes: 10\n", "at least one variant"},
		{"variants:\n  - {variant: tamerlane2, imbalance: {pieces: [R, A], replace: {Q: R}}}\n", `variants[0].imbalance.replace.Q: "Q" is not among imbalance.pieces`},
		{"variants:\n  - {variant: tamerlane2, imbalance: {pieces: [R, A], replace: {A: N}}}\n", `variants[0].imbalance.replace.A: "N" must be another piece`},
		{"variants:\n  - {variant: chess, imbalance: {pieces: [N], start: {Q: 9}}}\n", `variants[0].imbalance.start.Q: want a positive estimate of a piece of imbalance.pieces`},
		{"variants:\n  - {variant: chess, imbalance: {pieces: [N], start: {N: -1}}}\n", `variants[0].imbalance.start.N: want a positive`},
		{"variants:\n  - {variant: chess, imbalance: {pieces: [N], openings_file: no-such.fen}}\n", `variants[0].imbalance.openings_file: open `},
		{"variants:\n  - {variant: chess, imbalance: {pieces: [N], check_pairs: -5}}\n", `variants[0].imbalance: imbalance chess: half_width, batch_pairs, max_pairs, max_pawns and check_pairs must not be negative`},
	} {
		_, err := ParseConfig([]byte(c.text), "x.yaml")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// TestSelfplayConfigDefaults: the regression games of a measurement are the
// self-play run "seed, nodes, max_plies, one variant stream" (so that a
// run started with tamerlane selfplay can be adopted).
func TestSelfplayConfigDefaults(t *testing.T) {
	cfg, err := ParseConfig([]byte("variants:\n  - {variant: chess, pairs: 5}\n"), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc := cfg.selfplayConfig(0)
	if err := sc.Validate(); err != nil {
		t.Fatal(err)
	}
	if sc.Nodes != 2000 || sc.MaxPlies != 400 || sc.NodesJitter != 0.1 || sc.Openings.Plies != 8 || len(sc.Variants) != 1 {
		t.Errorf("self-play config %+v", sc)
	}
}

// TestConfigAdjudication: a measurement's adjudication reaches the games
// of both methods; fields left out keep self-play's defaults; the default
// adjudication, written out or not, hashes as a config without the field
// (so measurements begun before it existed resume), any other does not.
func TestConfigAdjudication(t *testing.T) {
	const base = "variants:\n  - {variant: chess, pairs: 5, imbalance: {pieces: [N]}}\n"
	parse := func(text string) (*Config, string) {
		t.Helper()
		cfg, err := ParseConfig([]byte(text), "x.yaml")
		if err != nil {
			t.Fatal(err)
		}
		h, err := cfg.Hash()
		if err != nil {
			t.Fatal(err)
		}
		return cfg, h
	}
	def := selfplay.DefaultConfig().Adjudication
	plain, hPlain := parse(base)
	if got := plain.selfplayConfig(0).Adjudication; got != def {
		t.Errorf("default adjudication %+v, want self-play's %+v", got, def)
	}
	_, hExplicit := parse("adjudication: {resign: {move_count: 3, score: 1000, two_sided: true}}\n" + base)
	if hExplicit != hPlain {
		t.Errorf("the default written out hashes %s, left out %s", hExplicit, hPlain)
	}
	out, hOut := parse("adjudication: {resign: {move_count: 0}}\n" + base)
	if hOut == hPlain {
		t.Errorf("playing out hashes as the default")
	}
	want := def
	want.Resign.MoveCount = 0
	if got := out.selfplayConfig(0).Adjudication; got != want {
		t.Errorf("resign off: regression games adjudicated %+v, want %+v", got, want)
	}
	if got := *out.adjudication(0); got != want {
		t.Errorf("resign off: imbalance games adjudicated %+v, want %+v", got, want)
	}
	_, err := ParseConfig([]byte("adjudication:\n  resign: {move_count: 2, score: 0}\n"+base), "x.yaml")
	if err == nil || !strings.Contains(err.Error(), "x.yaml:2: adjudication.resign.score") {
		t.Errorf("resign score 0: error %v", err)
	}
}

// TestVariantAdjudication: a variant's adjudication is its own fields over
// the measurement's, for that variant's games only; mistakes in it name
// the variant's field and line.
func TestVariantAdjudication(t *testing.T) {
	cfg, err := ParseConfig([]byte(`adjudication: {resign: {move_count: 5}}
variants:
  - {variant: chess, pairs: 5}
  - variant: tamerlane
    pairs: 5
    adjudication: {resign: {score: 2000}, draw: {move_count: 0}}
`), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	def := selfplay.DefaultConfig().Adjudication
	chess, tamerlane := def, def
	chess.Resign.MoveCount = 5
	tamerlane.Resign.MoveCount, tamerlane.Resign.Score, tamerlane.Draw.MoveCount = 5, 2000, 0
	if got := cfg.selfplayConfig(0).Adjudication; got != chess {
		t.Errorf("chess adjudicated %+v, want the measurement's %+v", got, chess)
	}
	if got := cfg.selfplayConfig(1).Adjudication; got != tamerlane {
		t.Errorf("tamerlane adjudicated %+v, want %+v", got, tamerlane)
	}
	if got := *cfg.adjudication(1); got != tamerlane {
		t.Errorf("tamerlane's imbalance games adjudicated %+v, want %+v", got, tamerlane)
	}
	empty, err := ParseConfig([]byte("adjudication:\nvariants:\n  - {variant: chess, pairs: 5}\n"), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := empty.selfplayConfig(0).Adjudication; got != def {
		t.Errorf("an empty adjudication: %+v, want the default %+v", got, def)
	}
	_, err = ParseConfig([]byte("variants:\n  - {variant: chess, pairs: 5}\n  - variant: shako\n    pairs: 5\n    adjudication: {draw: {score: -1}}\n"), "x.yaml")
	if err == nil || !strings.Contains(err.Error(), "x.yaml:5: variants[1].adjudication.draw.score") {
		t.Errorf("negative draw score: error %v", err)
	}
}

// TestVariantFileConfigErrors: a measurement's bad variant_file is an
// error naming the config's line and field and the file's line and field.
func TestVariantFileConfigErrors(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, dir, "bad.yaml", "name: bad\nboard: {files: 12, ranks: 8}\n")
	for _, tc := range []struct{ entry, want string }{
		{"{variant_file: bad.yaml, pairs: 1}", "m.yaml:2: variants[0].variant_file: " + filepath.Join(dir, "bad.yaml") + ":2: board"},
		{"{variant_file: none.yaml, pairs: 1}", "m.yaml:2: variants[0].variant_file"},
		{"{variant: chess, variant_file: bad.yaml, pairs: 1}", "variants[0].variant_file"},
	} {
		_, err := LoadConfig(writeTestFile(t, dir, "m.yaml", "variants:\n  - "+tc.entry+"\n"), "")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.entry, err, tc.want)
		}
	}
}
