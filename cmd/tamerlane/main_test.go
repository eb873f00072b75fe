package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs the CLI in-process and returns the exit code and outputs.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestPerftJSON checks "tamerlane perft --json": one object per depth with
// the counts of the start position (RULES.md 6).
func TestPerftJSON(t *testing.T) {
	code, out, errs := runCLI(t, "perft", "--variant", "tamerlane2", "--depth", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := []uint64{45, 2025, 93277}
	sc := bufio.NewScanner(strings.NewReader(out))
	for i := 0; sc.Scan(); i++ {
		var line perftLine
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		if line.Depth != i+1 || line.Nodes != want[i] || line.Variant != "tamerlane2" || line.FEN == "" {
			t.Errorf("line %d: %+v, want depth %d nodes %d", i, line, i+1, want[i])
		}
	}
}

// TestPerftDivide checks that divide's counts add up to the total.
func TestPerftDivide(t *testing.T) {
	code, out, _ := runCLI(t, "perft", "--variant", "chess", "--depth", "2", "--divide")
	if code != 0 {
		t.Fatal(out)
	}
	if !strings.Contains(out, "e2e4: 20") || !strings.Contains(out, "nodes            400") {
		t.Errorf("divide output:\n%s", out)
	}
}

// TestBadInput checks that bad input gives one clear error naming the
// field, option or move, with exit code 1 or 2 and no panic.
func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"perft", "--variant", "chezz", "--depth", "1"}, `unknown variant "chezz"`},
		{[]string{"perft", "--variant", "chess", "--depth", "1", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"}, "placement field"},
		{[]string{"perft", "--variant", "tamerlane", "--depth", "1", "--rules", "swap=sometimes"}, "swap=sometimes"},
		{[]string{"perft", "--variant", "tamerlane", "--depth", "1", "--rules", "swp=off"}, `unknown option "swp"`},
		{[]string{"search", "--variant", "chess", "--weights", "/nonexistent.yaml", "--depth", "1"}, "nonexistent.yaml"},
		{[]string{"nosuchcommand"}, `unknown command "nosuchcommand"`},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want it to contain %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestSearchJSON checks the search command's JSON object.
func TestSearchJSON(t *testing.T) {
	code, out, errs := runCLI(t, "search", "--variant", "chess", "--fen", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "--depth", "3", "--json")
	if code != 0 {
		t.Fatal(errs)
	}
	var res searchJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.BestMove != "a1a8" || res.Mate == nil || *res.Mate != 1 || len(res.PV) == 0 {
		t.Errorf("got %+v, want mate in 1 by a1a8", res)
	}
}

// TestVariantsJSON lists every variant with its pieces.
func TestVariantsJSON(t *testing.T) {
	code, out, _ := runCLI(t, "variants", "--json")
	if code != 0 {
		t.Fatal(out)
	}
	var infos []variantInfo
	if err := json.Unmarshal([]byte(out), &infos); err != nil {
		t.Fatal(err)
	}
	if len(infos) != 8 || infos[3].Name != "tamerlane" || len(infos[3].Citadels) != 2 {
		t.Errorf("variants: %+v", infos)
	}
}

// TestSelfplayTuneValuesExport runs the quick self-play, tune, values and
// export commands on a tiny budget and loads the exported table back.
func TestSelfplayTuneValuesExport(t *testing.T) {
	dir := t.TempDir()
	sp, tn := filepath.Join(dir, "sp"), filepath.Join(dir, "tn")
	if code, _, errs := runCLI(t, "selfplay", "-o", sp, "--variant", "chess", "--pairs", "4", "--nodes", "150", "--workers", "2", "--quiet"); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runCLI(t, "tune", "--data", sp, "-o", tn); code != 0 {
		t.Fatal(errs)
	}
	if code, out, errs := runCLI(t, "values", "--run", tn); code != 0 || !strings.Contains(out, "Kaufman") {
		t.Fatalf("values: exit %d: %s %s", code, out, errs)
	}
	table := filepath.Join(dir, "chess.yaml")
	if code, _, errs := runCLI(t, "export", "--run", tn, "--variant", "chess", "-o", table); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := runCLI(t, "search", "--variant", "chess", "--weights", table, "--nodes", "500"); code != 0 {
		t.Fatalf("search with the exported table: %s", errs)
	}
	b, err := os.ReadFile(table)
	if err != nil || !strings.Contains(string(b), "texel tuning") {
		t.Errorf("exported table lacks its provenance: %v", err)
	}
}
