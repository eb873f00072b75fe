package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tamerlane/selfplay"
	"tamerlane/values"
)

// TestValuesJSON checks the document of "tamerlane values --run DIR
// --json" on a measurement directory (played with greedy players): per
// variant "variant", "scale" and "pieces", each piece with "regression",
// "imbalance", "agreement_z" and "published" entries {source, value, kind}.
func TestValuesJSON(t *testing.T) {
	cfgText := "seed: 2\nnodes: 100\nmax_plies: 120\nregression: {min_ply: 4, min_games: 5}\nvariants:\n" +
		"  - {variant: chess, pairs: 30, imbalance: {pieces: [N], batch_pairs: 4, max_pairs: 4}}\n"
	cfg, err := values.ParseConfig([]byte(cfgText), "m.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "m")
	if err := values.Run(context.Background(), cfg, dir, values.RunOptions{Workers: 2, Factory: selfplay.GreedyFactory()}); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "values", "--run", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Scale    string `json:"scale"`
		Variants []struct {
			Variant string                       `json:"variant"`
			Scale   string                       `json:"scale"`
			Pieces  []map[string]json.RawMessage `json:"pieces"`
		} `json:"variants"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Scale != "P=1" || len(doc.Variants) != 1 || doc.Variants[0].Variant != "chess" || doc.Variants[0].Scale != "P=1" {
		t.Fatalf("document %+v", doc)
	}
	found := false
	for _, p := range doc.Variants[0].Pieces {
		for _, k := range []string{"piece", "regression", "imbalance", "agreement_z", "published"} {
			if _, ok := p[k]; !ok {
				t.Errorf("piece %s lacks %q", p["piece"], k)
			}
		}
		for _, k := range []string{"regression", "imbalance"} {
			if string(p[k]) == "null" {
				continue
			}
			var iv map[string]json.RawMessage
			if err := json.Unmarshal(p[k], &iv); err != nil {
				t.Fatalf("piece %s: %s: %v", p["piece"], k, err)
			}
			for _, f := range []string{"value", "lo", "hi"} { // the interval schema of the values document
				if _, ok := iv[f]; !ok {
					t.Errorf("piece %s: %s %s lacks %q", p["piece"], k, p[k], f)
				}
			}
		}
		if string(p["piece"]) == `"N"` {
			found = true
			var bands []map[string]json.RawMessage
			if string(p["regression"]) != "null" { // these tiny greedy games may not measure material
				if err := json.Unmarshal(p["by_phase"], &bands); err != nil || len(bands) != 4 {
					t.Errorf("knight: by_phase %s (%v), want 4 bands", p["by_phase"], err)
				}
			}
			for _, b := range bands {
				for _, f := range []string{"phase_lo", "phase_hi", "value"} {
					if _, ok := b[f]; !ok {
						t.Errorf("knight: by_phase band %v lacks %q", b, f)
					}
				}
			}
			if string(p["imbalance"]) == "null" || !strings.Contains(string(p["published"]), `"kaufman1999"`) {
				t.Errorf("knight: imbalance %s, published %s", p["imbalance"], p["published"])
			}
		}
	}
	if !found {
		t.Error("no knight row")
	}
	for _, f := range []string{"values.json", "values.md", "values-chess.png", "values-chess.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// Overridden sample settings: printed with the settings used, the
	// run's files untouched.
	before, err := os.ReadFile(filepath.Join(dir, "values.json"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, "values", "--run", dir, "--json", "--min-ply", "6", "--quiet-plies", "4")
	if code != 0 {
		t.Fatalf("values --min-ply 6 --quiet-plies 4: exit %d: %s", code, errs)
	}
	var sens struct {
		Settings map[string]any `json:"settings"`
	}
	if err := json.Unmarshal([]byte(out), &sens); err != nil || sens.Settings["min_ply"] != 6.0 || sens.Settings["quiet_plies"] != 4.0 || sens.Settings["min_games"] != 5.0 {
		t.Errorf("settings %v (%v), want min_ply 6, quiet_plies 4 and the run's min_games 5", sens.Settings, err)
	}
	if after, err := os.ReadFile(filepath.Join(dir, "values.json")); err != nil || string(after) != string(before) {
		t.Errorf("a sensitivity run rewrote values.json (%v)", err)
	}
	if code, _, errs := runCLI(t, "values", "--run", dir, "--quiet-plies", "-1"); code == 0 || !strings.Contains(errs, "negative") {
		t.Errorf("--quiet-plies -1: exit %d, %s", code, errs)
	}
	code, out, errs = runCLI(t, "values", "--run", dir, "--json", "--shared-pieces", "1")
	if code != 0 {
		t.Fatalf("values --shared-pieces 1: exit %d: %s", code, errs)
	}
	sens.Settings = nil
	if err := json.Unmarshal([]byte(out), &sens); err != nil || sens.Settings["shared_pieces"] != 1.0 || sens.Settings["min_ply"] != 4.0 {
		t.Errorf("settings %v (%v), want shared_pieces 1 and the run's min_ply", sens.Settings, err)
	}
	if code, _, errs := runCLI(t, "values", "--run", dir, "--shared-pieces", "-2"); code == 0 || !strings.Contains(errs, "--shared-pieces") {
		t.Errorf("--shared-pieces -2: exit %d, %s", code, errs)
	}
	// --scored-max-pawns sets the scored differences' bound (the run is
	// too small to score any: TestScoredByHand tests the bound itself).
	code, out, errs = runCLI(t, "values", "--run", dir, "--json", "--scored-max-pawns", "0.75")
	if code != 0 {
		t.Fatalf("values --scored-max-pawns 0.75: exit %d: %s", code, errs)
	}
	var narrow values.Document
	if err := json.Unmarshal([]byte(out), &narrow); err != nil || narrow.Settings.ScoredMaxPawns != 0.75 || len(narrow.Variants) != 1 {
		t.Fatalf("settings %+v (%v), want scored_max_pawns 0.75", narrow.Settings, err)
	}
	if !strings.Contains(string(before), `"scored_max_pawns": 2`) {
		t.Error("the run's own values.json does not state the default scored_max_pawns 2")
	}
	if code, _, errs := runCLI(t, "values", "--run", dir, "--scored-max-pawns", "-1"); code == 0 || !strings.Contains(errs, "negative") {
		t.Errorf("--scored-max-pawns -1: exit %d, %s", code, errs)
	}
	// --pairs adds the bishop-pair class; absent, the run's setting
	// (none) holds.
	code, out, errs = runCLI(t, "values", "--run", dir, "--json", "--pairs")
	if code != 0 {
		t.Fatalf("values --pairs: exit %d: %s", code, errs)
	}
	var paired struct {
		Settings map[string]any `json:"settings"`
		Variants []struct {
			Pieces []struct {
				Piece string `json:"piece"`
			} `json:"pieces"`
		} `json:"variants"`
	}
	if err := json.Unmarshal([]byte(out), &paired); err != nil || paired.Settings["pairs"] != true || len(paired.Variants) != 1 ||
		!slices.ContainsFunc(paired.Variants[0].Pieces, func(p struct {
			Piece string `json:"piece"`
		}) bool {
			return p.Piece == "pair.B"
		}) {
		t.Errorf("values --pairs: settings %v, variants %+v (%v); want pairs true and a pair.B row", paired.Settings, paired.Variants, err)
	}
	if strings.Contains(string(before), "pair.B") || !strings.Contains(string(before), `"pairs": false`) {
		t.Error("the run's own values.json has a pair class, or does not say pairs false")
	}
	// A run stopped before its end (its outputs not written) is interim:
	// printed, marked so, and not written into the run.
	sums, err := filepath.Glob(filepath.Join(dir, "*", "selfplay", selfplay.SummaryName))
	if err != nil || len(sums) != 1 {
		t.Fatalf("the run's self-play summary: %v (%v)", sums, err)
	}
	if err := os.Remove(sums[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "values.json")); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, "values", "--run", dir)
	if code != 0 || !strings.Contains(out, "**Interim**") || !strings.Contains(out, "not written into "+dir+": the values are interim") {
		t.Errorf("values on a stopped run: exit %d, %s; want the values marked interim and not written\n%s", code, errs, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "values.json")); !os.IsNotExist(err) {
		t.Errorf("values.json of a stopped run was written (%v)", err)
	}
	// A directory that is missing, a file, or holds no run is named.
	empty := t.TempDir()
	for _, c := range []struct{ run, want string }{
		{filepath.Join(empty, "nope"), "nope: no such directory"},
		{filepath.Join(dir, "values.md"), "values.md is a file, not a run directory"},
		{empty, "holds no run that has piece values"},
	} {
		if code, _, errs := runCLI(t, "values", "--run", c.run); code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("values --run %s: exit %d, %q, want %q", c.run, code, errs, c.want)
		}
	}
	// A missing config is an error naming the file.
	code, _, errs = runCLI(t, "measure", "-c", "x.yaml", "-o", dir)
	if code == 0 || !strings.Contains(errs, "x.yaml") {
		t.Errorf("missing config: exit %d, %s", code, errs)
	}
}

// TestValuesPool checks "tamerlane values --run ROOT" on a directory of
// links to two measurements: their shared settings are used, settings
// that differ are an error unless the flags choose them.
func TestValuesPool(t *testing.T) {
	base := t.TempDir()
	measure := func(name string, seed, shared int) {
		text := strings.NewReplacer("SEED", strconv.Itoa(seed), "SHARED", strconv.Itoa(shared)).Replace(
			"seed: SEED\nnodes: 60\nmax_plies: 80\nregression: {min_ply: 4, min_games: 3, shared_pieces: SHARED, pairs: true}\nvariants:\n  - {variant: chess, pairs: 4}\n")
		cfg, err := values.ParseConfig([]byte(text), name+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		if err := values.Run(context.Background(), cfg, filepath.Join(base, name), values.RunOptions{Workers: 2, Factory: selfplay.GreedyFactory()}); err != nil {
			t.Fatal(err)
		}
	}
	measure("a", 1, 1)
	measure("b", 2, 1)
	measure("c", 3, 0)
	pool := filepath.Join(base, "pool")
	if err := os.Mkdir(pool, 0o755); err != nil {
		t.Fatal(err)
	}
	link := func(name string) {
		if err := os.Symlink(filepath.Join(base, name), filepath.Join(pool, name)); err != nil {
			t.Fatal(err)
		}
	}
	settings := func(args ...string) (int, map[string]any, string) {
		code, out, errs := runCLI(t, append([]string{"values", "--run", pool, "--json"}, args...)...)
		var doc struct {
			Settings map[string]any `json:"settings"`
			Variants []struct {
				Games int `json:"games"`
			} `json:"variants"`
		}
		if code == 0 {
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Variants) != 1 {
				t.Fatalf("document %s", out)
			}
			doc.Settings["games"] = float64(doc.Variants[0].Games)
		}
		return code, doc.Settings, errs
	}
	link("a")
	link("b")
	code, s, errs := settings()
	if code != 0 || s["shared_pieces"] != 1.0 || s["pairs"] != true || s["min_ply"] != 4.0 || s["games"] != 16.0 {
		t.Fatalf("pool of a and b: exit %d, settings %v, %s", code, s, errs)
	}
	link("c")
	if code, _, errs := settings(); code == 0 || !strings.Contains(errs, "different regression settings") {
		t.Fatalf("pool with other settings: exit %d, %s", code, errs)
	}
	code, s, errs = settings("--shared-pieces", "1", "--pairs")
	if code != 0 || s["shared_pieces"] != 1.0 || s["pairs"] != true || s["min_ply"] != 16.0 || s["games"] != 24.0 {
		t.Fatalf("pool with the settings chosen by flags: exit %d, settings %v, %s", code, s, errs)
	}
}

// TestMeasureSeed checks that "tamerlane measure --seed N" plays the
// config with its seed replaced, and that resuming without it names the
// seed to give.
func TestMeasureSeed(t *testing.T) {
	base := t.TempDir()
	cfgPath := filepath.Join(base, "m.yaml")
	if err := os.WriteFile(cfgPath, []byte("seed: 1\nnodes: 20\nmax_plies: 30\nvariants:\n  - {variant: chess, pairs: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "run")
	if code, _, errs := runCLI(t, "measure", "-c", cfgPath, "-o", dir, "--seed", "7", "--workers", "1"); code != 0 {
		t.Fatalf("measure --seed 7: exit %d, %s", code, errs)
	}
	cfg, err := values.LoadRunConfig(filepath.Join(dir, "config.yaml"))
	if err != nil || cfg.Seed != 7 {
		t.Fatalf("the run's config: %+v, %v; want seed 7", cfg, err)
	}
	sc, err := selfplay.LoadConfig(filepath.Join(dir, "chess", "selfplay", "config.yaml"))
	if err != nil || sc.Seed != 7 {
		t.Fatalf("the regression games' config: seed %v, %v; want 7", sc, err)
	}
	if code, _, errs := runCLI(t, "measure", "-c", cfgPath, "-o", dir); code == 0 || !strings.Contains(errs, "--seed 7 resumes it") {
		t.Errorf("resumed without --seed: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "measure", "-c", cfgPath, "-o", dir, "--seed", "7", "--workers", "1"); code != 0 {
		t.Errorf("resumed with --seed 7: exit %d, %s", code, errs)
	}
}

// TestMeasureConcludeFlag: --conclude takes "now" or a round number ≥ 1,
// and concludes the imbalance stage, not the self-play one; a bad value
// is refused before the run directory is made.
func TestMeasureConcludeFlag(t *testing.T) {
	base := t.TempDir()
	cfgPath := filepath.Join(base, "m.yaml")
	if err := os.WriteFile(cfgPath, []byte("seed: 1\nnodes: 20\nmax_plies: 30\nvariants:\n  - {variant: chess, pairs: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "run")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--conclude", "0"}, `--conclude "0": want now or a round number ≥ 1`},
		{[]string{"--conclude", "later"}, `--conclude "later": want now or a round number ≥ 1`},
		{[]string{"--conclude", "now", "--stage", "selfplay"}, "--conclude ends the imbalance plans"},
	} {
		code, _, errs := runCLI(t, append([]string{"measure", "-c", cfgPath, "-o", dir}, c.args...)...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("measure %v: exit %d, %s; want %q", c.args, code, errs, c.want)
		}
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("a refused --conclude made the run directory")
	}
}
