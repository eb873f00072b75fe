package main

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tamerlane/values"
)

// TestValuesAgainst checks "tamerlane values --run A --against B": two
// measurements of different seeds give, per estimate, B − A and its z
// from the two documents "values --run X --json" prints; a run compared
// with itself, or with a pool that holds it, is refused (the estimates
// are not independent), and so are runs fitted with different settings
// unless the flags choose them.
func TestValuesAgainst(t *testing.T) {
	base := t.TempDir()
	measure := func(name string, seed, shared int) string {
		text := strings.NewReplacer("SEED", strconv.Itoa(seed), "SHARED", strconv.Itoa(shared)).Replace(
			"seed: SEED\nnodes: 60\nmax_plies: 80\nregression: {min_ply: 4, min_games: 3, shared_pieces: SHARED}\nvariants:\n  - {variant: chess, pairs: 30}\n")
		cfg, err := values.ParseConfig([]byte(text), name+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		// The engine at 60 nodes: greedy players' games need not measure
		// material (the pawn's coefficient can come out negative).
		dir := filepath.Join(base, name)
		if err := values.Run(context.Background(), cfg, dir, values.RunOptions{Workers: 2}); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	a, b, c := measure("a", 1, 0), measure("b", 2, 0), measure("c", 3, 1)
	document := func(dir string) *values.Document {
		code, out, errs := runCLI(t, "values", "--run", dir, "--json")
		if code != 0 {
			t.Fatalf("values --run %s: exit %d, %s", dir, code, errs)
		}
		var d values.Document
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		return &d
	}
	da, db := document(a), document(b)
	code, out, errs := runCLI(t, "values", "--run", a, "--against", b, "--json")
	if code != 0 {
		t.Fatalf("values --against: exit %d, %s", code, errs)
	}
	var cmp values.Comparison
	if err := json.Unmarshal([]byte(out), &cmp); err != nil {
		t.Fatal(err)
	}
	if cmp.A != a || cmp.B != b || len(cmp.Variants) != 1 {
		t.Fatalf("comparison %s", out)
	}
	n := 0
	for _, d := range cmp.Variants[0].Differences {
		if d.Estimate != "regression" {
			continue
		}
		ra, rb := da.Variants[0].Piece(d.Piece).Regression, db.Variants[0].Piece(d.Piece).Regression
		diff, se := float64(rb.Value-ra.Value), math.Hypot(float64(ra.SE), float64(rb.SE))
		if math.Abs(float64(d.Difference.Value)-diff) > 1e-9 || math.Abs(d.Z-diff/se) > 1e-6 {
			t.Errorf("%s: difference %v z %v, want %v and %v from the two documents", d.Piece, d.Difference.Value, d.Z, diff, diff/se)
		}
		n++
	}
	if n == 0 {
		t.Fatalf("no regression estimate compared: %s", out)
	}
	if code, out, _ := runCLI(t, "values", "--run", a, "--against", b); code != 0 || !strings.Contains(out, "| piece | estimate | A | B | B − A | z |") {
		t.Errorf("Markdown: exit %d\n%s", code, out)
	}

	pool := filepath.Join(base, "pool")
	if err := os.Mkdir(pool, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{a, b} {
		if err := os.Symlink(d, filepath.Join(pool, filepath.Base(d))); err != nil {
			t.Fatal(err)
		}
	}
	for _, against := range []string{a, pool} {
		if code, _, errs := runCLI(t, "values", "--run", a, "--against", against); code == 0 || !strings.Contains(errs, "not independent") {
			t.Errorf("a against %s: exit %d, %s", against, code, errs)
		}
	}
	if code, _, errs := runCLI(t, "values", "--run", a, "--against", c); code == 0 || !strings.Contains(errs, "same settings") {
		t.Errorf("different settings: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "values", "--run", a, "--against", c, "--shared-pieces", "1"); code != 0 {
		t.Errorf("settings chosen by the flags: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "values", "--run", a, "--against", filepath.Join(base, "none")); code == 0 || !strings.Contains(errs, "none") {
		t.Errorf("missing B: exit %d, %s", code, errs)
	}

	// A PGN file of games from elsewhere (here b's own games file) is
	// read with the flags' settings: b's regression to the last digit;
	// against b it is refused (the same games), against a compared.
	games, err := filepath.Glob(filepath.Join(b, "*", "selfplay", "*", "games.pgn"))
	if err != nil || len(games) != 1 {
		t.Fatalf("b's games file: %v %v", games, err)
	}
	flags := []string{"--json", "--min-ply", "4", "--min-games", "3"}
	code, out, errs = runCLI(t, append([]string{"values", "--run", games[0]}, flags...)...)
	var dp values.Document
	if code != 0 || json.Unmarshal([]byte(out), &dp) != nil || dp.PGN == nil || dp.PGN.Used != db.Variants[0].Games {
		t.Fatalf("values --run FILE: exit %d, %s, %s", code, errs, out[:min(len(out), 300)])
	}
	for _, p := range db.Variants[0].Pieces {
		if q := dp.Variants[0].Piece(p.Piece); p.Regression != nil && (q.Regression == nil || q.Regression.Value != p.Regression.Value) {
			t.Errorf("%s: run %v, its games file %v", p.Piece, p.Regression, q.Regression)
		}
	}
	if code, _, errs := runCLI(t, append([]string{"values", "--run", b, "--against", games[0]}, flags...)...); code == 0 || !strings.Contains(errs, "not independent") {
		t.Errorf("b against its games file: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, append([]string{"values", "--run", a, "--against", games[0]}, flags...)...); code != 0 {
		t.Errorf("a against b's games file: exit %d, %s", code, errs)
	}
}
