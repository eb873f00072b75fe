package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/engine"
)

// perftNodes runs "tamerlane perft --json" and returns the last depth's
// node count.
func perftNodes(t *testing.T, args ...string) uint64 {
	t.Helper()
	code, out, errs := runCLI(t, append([]string{"perft", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("perft %v: exit %d: %s", args, code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var l perftLine
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &l); err != nil {
		t.Fatal(err)
	}
	return l.Nodes
}

// exportRenamed writes "tamerlane variants --export name" to a file under
// another variant name and returns its path.
func exportRenamed(t *testing.T, name string) string {
	t.Helper()
	code, out, errs := runCLI(t, "variants", "--export", name)
	if code != 0 {
		t.Fatalf("export %s: exit %d: %s", name, code, errs)
	}
	renamed := strings.Replace(out, "\nname: "+name+"\n", "\nname: my-"+name+"\n", 1)
	if renamed == out {
		t.Fatalf("export %s has no name line", name)
	}
	path := filepath.Join(t.TempDir(), name+".yaml")
	if err := os.WriteFile(path, []byte(renamed), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestExportRoundTripCLI: every built-in variant exported by the CLI and
// read back with --variant-file gives the built-in's perft counts.
func TestExportRoundTripCLI(t *testing.T) {
	for _, name := range engine.VariantNames() {
		path := exportRenamed(t, name)
		want := perftNodes(t, "--variant", name, "--depth", "2")
		if got := perftNodes(t, "--variant-file", path, "--depth", "2"); got != want {
			t.Errorf("%s: perft 2 from the exported file %d, built-in %d", name, got, want)
		}
	}
}

// TestVariantFileCommands: position takes --variant-file with --moves;
// search and eval evaluate a variant known only from a file with its
// derived table (engine/eval), and a built-in's own export.
func TestVariantFileCommands(t *testing.T) {
	path := exportRenamed(t, "shako")
	code, out, errs := runCLI(t, "position", "--variant-file", path, "--moves", "e3e5", "--json")
	if code != 0 || !strings.Contains(out, `"variant":"my-shako"`) || !strings.Contains(out, `"side_to_move":"black"`) {
		t.Errorf("position: exit %d: %s %s", code, out, errs)
	}
	capablanca := filepath.Join("..", "..", "configs", "variants", "capablanca.yaml")
	for _, file := range []string{path, capablanca} {
		if code, out, errs := runCLI(t, "search", "--variant-file", file, "--depth", "2", "--json"); code != 0 || !strings.Contains(out, `"bestmove"`) {
			t.Errorf("search %s: exit %d: %s %s", file, code, out, errs)
		}
		if code, out, errs := runCLI(t, "eval", "--variant-file", file); code != 0 || !strings.Contains(out, "tempo") {
			t.Errorf("eval %s: exit %d: %s %s", file, code, out, errs)
		}
	}
	// an Archbishop up: the derived table sees it
	code, out, errs = runCLI(t, "eval", "--variant-file", capablanca, "--json",
		"--fen", "rn1bqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1")
	if code != 0 || !strings.Contains(out, `"white"`) {
		t.Fatalf("eval: exit %d: %s %s", code, out, errs)
	}
	var e struct {
		White int `json:"white"`
	}
	if err := json.Unmarshal([]byte(out), &e); err != nil || e.White < 500 {
		t.Errorf("an Archbishop up: %d cp (%v), want more than 500: %s", e.White, err, out)
	}
	_, own, _ := runCLI(t, "variants", "--export", "chess")
	chess := filepath.Join(t.TempDir(), "chess.yaml")
	if err := os.WriteFile(chess, []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCLI(t, "search", "--variant-file", chess, "--depth", "2", "--json"); code != 0 || !strings.Contains(out, `"bestmove"`) {
		t.Errorf("search on chess's own export: exit %d: %s %s", code, out, errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"perft", "--variant", "chess", "--variant-file", chess, "--depth", "1"}, "give one of them"},
		{[]string{"perft", "--variant-file", chess, "--rules", "swap=off", "--depth", "1"}, "sets its rules itself"},
		{[]string{"perft", "--variant-file", filepath.Join(t.TempDir(), "none.yaml"), "--depth", "1"}, "--variant-file"},
		{[]string{"variants", "--export", "nope"}, "unknown variant"},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != 1 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d: %s (want %q)", tc.args, code, errs, tc.want)
		}
	}
}

// capablancaPath is the example Capablanca variant file.
var capablancaPath = filepath.Join("..", "..", "configs", "variants", "capablanca.yaml")

// TestVariantFileSelfplayMatch: selfplay and match play a variant from a
// file given by --variant-file, and the run directory records it; tune
// fits its games, from the run directory's copy or, for a bare positions
// file, from --variant-file.
func TestVariantFileSelfplayMatch(t *testing.T) {
	sp := filepath.Join(t.TempDir(), "sp")
	code, out, errs := runCLI(t, "selfplay", "-o", sp, "--variant-file", capablancaPath, "--pairs", "1", "--nodes", "50", "--workers", "1", "--quiet")
	if code != 0 || !strings.Contains(out, "capablanca") {
		t.Fatalf("selfplay: exit %d: %s %s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(sp, "variants", "capablanca.yaml")); err != nil {
		t.Errorf("selfplay did not record the variant file: %v", err)
	}
	// tune reads the run's recorded variant; a bare positions file
	// needs --variant-file
	tu := filepath.Join(t.TempDir(), "tu")
	if code, out, errs := runCLI(t, "tune", "--data", sp, "-o", tu); code != 0 || !strings.Contains(out, "capablanca") {
		t.Fatalf("tune: exit %d: %s %s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(tu, "tables", "capablanca.yaml")); err != nil {
		t.Errorf("tune wrote no table: %v", err)
	}
	if code, out, errs := runCLI(t, "values", "--run", tu); code != 0 || !strings.Contains(out, "Archbishop") {
		t.Errorf("values of the tuning run: exit %d: %s %s", code, out, errs)
	}
	b, err := os.ReadFile(filepath.Join(sp, "capablanca", "positions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "p.jsonl")
	if err := os.WriteFile(bare, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(t, "tune", "--data", bare, "-o", filepath.Join(t.TempDir(), "t2")); code != 1 || !strings.Contains(errs, `unknown variant "capablanca"`) {
		t.Errorf("tune of a bare file: exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, "tune", "--data", bare, "-o", filepath.Join(t.TempDir(), "t3"), "--variant-file", capablancaPath); code != 0 {
		t.Errorf("tune --variant-file: exit %d: %s", code, errs)
	}
	m := filepath.Join(t.TempDir(), "m")
	code, out, errs = runCLI(t, "match", "-o", m, "--variant-file", capablancaPath, "--pairs", "1", "--nodes", "50", "--workers", "1", "--quiet")
	if code != 0 || !strings.Contains(out, "capablanca") {
		t.Fatalf("match: exit %d: %s %s", code, out, errs)
	}
	for _, args := range [][]string{
		{"selfplay", "-o", sp, "--variant", "chess", "--variant-file", capablancaPath},
		{"match", "-o", m, "--variant", "chess", "--variant-file", capablancaPath},
	} {
		if code, _, errs := runCLI(t, args...); code != 1 || !strings.Contains(errs, "give one of them") {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
}

// TestVariantFileMeasure: "tamerlane measure" measures a variant from a
// file given by variant_file: relative to the config, on a tiny config;
// the directory records the file; "tamerlane values" prints the file's
// pieces; --variant-file supplies the file of a config that names the
// variant without one, and a changed file is refused on resume.
func TestVariantFileMeasure(t *testing.T) {
	cdir := t.TempDir()
	b, err := os.ReadFile(capablancaPath)
	if err != nil {
		t.Fatal(err)
	}
	capa := filepath.Join(cdir, "capa.yaml")
	if err := os.WriteFile(capa, b, 0o644); err != nil {
		t.Fatal(err)
	}
	const settings = "seed: 2\nnodes: 40\nmax_plies: 60\nregression: {min_ply: 4, min_games: 2}\nvariants:\n"
	cfg := filepath.Join(cdir, "m.yaml")
	if err := os.WriteFile(cfg, []byte(settings+
		"  - {variant_file: capa.yaml, pairs: 2, imbalance: {pieces: [A, C], replace: {A: C}, batch_pairs: 1, max_pairs: 1}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "m")
	code, out, errs := runCLI(t, "measure", "-c", cfg, "-o", dir, "--workers", "1")
	if code != 0 {
		t.Fatalf("measure: exit %d: %s %s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "variants", "capablanca.yaml")); err != nil {
		t.Errorf("the measurement did not record the variant file: %v", err)
	}
	code, out, errs = runCLI(t, "values", "--run", dir)
	if code != 0 || !strings.Contains(out, "## capablanca") || !strings.Contains(out, "| A archbishop") || !strings.Contains(out, "| C chancellor") {
		t.Errorf("values: exit %d: %s %s", code, out, errs)
	}
	// beside Muller's published figures (data/published/capablanca.yaml)
	if !strings.Contains(out, "8.75 (muller-capablanca, measured)") || !strings.Contains(out, "9.00 (muller-capablanca, measured)") {
		t.Errorf("values does not show Muller's Archbishop and Chancellor:\n%s", out)
	}
	// its games as a PGN file: the variant from --variant-file
	pgn := filepath.Join(dir, "capablanca", "selfplay", "capablanca", "games.pgn")
	if code, _, errs := runCLI(t, "values", "--run", pgn); code != 1 || !strings.Contains(errs, "capablanca") {
		t.Errorf("values of a PGN of an unknown variant: exit %d: %s", code, errs)
	}
	code, out, errs = runCLI(t, "values", "--run", pgn, "--variant-file", capablancaPath)
	if code != 0 || !strings.Contains(out, "## capablanca") || !strings.Contains(out, "| A archbishop") {
		t.Errorf("values of a PGN with --variant-file: exit %d: %s %s", code, out, errs)
	}
	// a changed file is refused, naming both files
	if err := os.WriteFile(capa, append(b, []byte("# changed\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(t, "measure", "-c", cfg, "-o", dir, "--workers", "1"); code != 1 || !strings.Contains(errs, capa) || !strings.Contains(errs, "differs from the copy") {
		t.Errorf("measure with a changed file: exit %d: %s", code, errs)
	}
	// --variant-file for a config naming the variant
	named := filepath.Join(cdir, "named.yaml")
	if err := os.WriteFile(named, []byte(settings+"  - {variant: capablanca, pairs: 1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(t, "measure", "-c", named, "-o", filepath.Join(t.TempDir(), "n"), "--workers", "1"); code != 1 || !strings.Contains(errs, "variants[0].variant") {
		t.Errorf("measure of an unknown variant: exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, "measure", "-c", named, "-o", filepath.Join(t.TempDir(), "n"), "--workers", "1", "--variant-file", capablancaPath); code != 0 {
		t.Errorf("measure --variant-file: exit %d: %s", code, errs)
	}
}

// TestVariantFileRun: "tamerlane run --variant-file" plays a pipeline on
// a variant its config names without a variant_file, and the run
// directory records the file.
func TestVariantFileRun(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "p.yaml")
	text := "name: capa\ngenerations: 1\naccept: always\nselfplay:\n  seed: 3\n  nodes: 60\n  max_plies: 60\n" +
		"  openings: {plies: 2, score_nodes: 20}\n  dataset: {positions_per_game: 10, skip_plies: 4}\n" +
		"  variants:\n    - {variant: capablanca, pairs: 2}\ntune: {free: [material.], prior_sd: 50}\nverify: {pairs: 1}\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errs := runCLI(t, "run", "-c", cfg, "-o", dir, "--quiet"); code != 1 || !strings.Contains(errs, "capablanca") {
		t.Errorf("run of an unknown variant: exit %d: %s", code, errs)
	}
	if code, out, errs := runCLI(t, "run", "-c", cfg, "-o", dir, "--quiet", "--workers", "1", "--variant-file", capablancaPath); code != 0 {
		t.Fatalf("run --variant-file: exit %d: %s %s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "variants", "capablanca.yaml")); err != nil {
		t.Errorf("the run did not record the variant file: %v", err)
	}
}
