package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
// the counts of the start position (docs/rules.md 6).
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
	// Eight games cannot fit every weight without a prior (the fit is
	// refused as unusable); with no config the prior is chosen by the
	// held-out games.
	if code, out, errs := runCLI(t, "tune", "--data", sp, "-o", tn); code != 0 || !strings.Contains(out, "chosen by validation") {
		t.Fatalf("tune without a config: exit %d: %s %s", code, out, errs)
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

// TestSignalExitCode checks that a command stopped by SIGTERM exits 143
// with one message that says how to resume, not "context canceled".
func TestSignalExitCode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sp")
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(signalError{tc.sig})
		var out, errb bytes.Buffer
		code := run(ctx, []string{"selfplay", "-o", dir, "--variant", "chess", "--pairs", "2", "--nodes", "100", "--quiet"}, &out, &errb)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.sig, code, tc.code, errb.String())
		}
		msg := errb.String()
		if strings.Count(msg, "\n") != 1 || strings.Contains(msg, "context canceled") || !strings.Contains(msg, "interrupted; run the same command again to resume ("+dir+")") {
			t.Errorf("%v: stderr %q, want one line saying how to resume", tc.sig, msg)
		}
	}
}

// TestHashFlagBounded checks that a huge --hash is refused at once with
// the allowed range instead of hanging or dying.
func TestHashFlagBounded(t *testing.T) {
	for _, h := range []string{"8796093022208", "100000000", "0"} {
		code, _, errs := runCLI(t, "search", "--variant", "chess", "--depth", "1", "--hash", h)
		if code != 1 || !strings.Contains(errs, "--hash") || !strings.Contains(errs, "out of range") {
			t.Errorf("--hash %s: exit %d, stderr %q", h, code, errs)
		}
	}
}

// TestRefuseOtherRunKind checks that tune, selfplay and merge refuse a
// pipeline run directory and leave its files alone (else tune -o would
// overwrite the accepted tables, selfplay -o the config).
func TestRefuseOtherRunKind(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "sp")
	if code, _, errs := runCLI(t, "selfplay", "-o", sp, "--variant", "chess", "--pairs", "1", "--nodes", "100", "--quiet"); code != 0 {
		t.Fatal(errs)
	}
	pl := filepath.Join(dir, "pipeline")
	files := map[string]string{
		"pipeline.json":     `{"format": "tamerlane-pipeline/1", "kind": "pipeline"}` + "\n",
		"config.yaml":       "name: mine\n",
		"tables/chess.yaml": "accepted table\n",
	}
	for name, text := range files {
		p := filepath.Join(pl, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"tune", "--data", sp, "-o", pl},
		{"selfplay", "-o", pl, "--variant", "chess", "--pairs", "1", "--nodes", "100", "--quiet"},
		{"selfplay", "-o", pl, "--quiet"}, // resume mode: pipeline.json, not run.json
		{"merge", "-o", pl, sp},
		{"match", "-o", pl, "--variant", "chess", "--pairs", "1", "--nodes", "100", "--quiet"},
	} {
		code, _, errs := runCLI(t, args...)
		if code != 1 || !strings.Contains(errs, "holds a pipeline run") {
			t.Errorf("%v: exit %d, stderr %q, want a refusal naming the pipeline run", args, code, errs)
		}
	}
	for name, text := range files {
		if b, _ := os.ReadFile(filepath.Join(pl, name)); string(b) != text {
			t.Errorf("%s changed to %q", name, b)
		}
	}
	// And the other way round: a pipeline refuses a self-play directory.
	if code, _, errs := runCLI(t, "run", "-o", sp, "--quiet"); code != 1 || !strings.Contains(errs, "holds a selfplay run") {
		t.Errorf("run on a self-play dir: exit %d, stderr %q", code, errs)
	}
}

// TestFlagErrorsNameFlags checks that a stream built from flags reports
// its mistakes by the flag the user typed, not the configuration field
// the flag fills, and that nothing is written.
func TestFlagErrorsNameFlags(t *testing.T) {
	dir := t.TempDir()
	badFEN := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(badFEN, []byte("garbage line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.yaml")
	for i, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"match", "--variant", "chess", "--nodes", "100", "--pairs", "1", "--openings", badFEN}, []string{"--openings: " + badFEN + ":1: "}},
		{[]string{"match", "--variant", "chess", "--nodes", "100", "--pairs", "1", "--openings", badFEN, "--a", missing},
			[]string{"--openings: ", "--a: stat " + missing}},
		{[]string{"match", "--variant", "chezz", "--nodes", "100"}, []string{`--variant: unknown variant "chezz"`}},
		{[]string{"selfplay", "--variant", "chezz", "--nodes", "100"}, []string{`--variant: unknown variant "chezz"`}},
		{[]string{"selfplay", "--variant", "chess", "--nodes", "100", "--weights", missing}, []string{"--weights: stat " + missing}},
		{[]string{"tune", "--data", missing}, []string{"--data: stat " + missing}},
	} {
		out := filepath.Join(dir, fmt.Sprint("run", i))
		code, _, errs := runCLI(t, append(tc.args, "-o", out)...)
		if code == 0 || strings.Contains(errs, "[0]") {
			t.Errorf("%v: exit %d, stderr %q: want a failure naming flags, not config fields", tc.args, code, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: stderr %q, want it to contain %q", tc.args, errs, w)
			}
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: the run directory was created (%v)", tc.args, err)
		}
	}
}
