package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestQualityCLI judges three chess positions with this engine as the
// oracle: the JSON report has both players, A's difference with itself is
// not reported and -o holds every position's row; bad input is an error
// naming what is wrong, never a panic.
func TestQualityCLI(t *testing.T) {
	dir := t.TempDir()
	fens := filepath.Join(dir, "fens.txt")
	text := "# three positions\n" +
		"r1bqr1k1/1p1n1pbp/2p1pn2/p2p4/3N1B2/Q1PP1N1P/PP2PPP1/R3KB1R w KQ - 6 13\n" +
		"rnbqk2r/1pppbp1p/5n2/p3N1p1/1PP1P3/8/PB1P1PPP/RN1QKB1R b KQkq - 2 7\n" +
		"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\n"
	if err := os.WriteFile(fens, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "q.json")
	code, stdout, errs := runCLI(t, "quality", "--variant", "chess", "--positions", fens, "--nodes", "300", "--oracle-nodes", "1500", "--json", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Positions int
		Players   []struct {
			Name string
			Same int
		}
		Rows []json.RawMessage
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	if rep.Positions != 3 || len(rep.Players) != 2 || rep.Players[1].Same != 3 || len(rep.Rows) != 0 {
		t.Errorf("report %+v: want 3 positions, 2 identical players, no rows on stdout", rep)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), `"a1a8"`) {
		t.Errorf("-o file (%v) lacks the rows (the mate a1a8):\n%.400s", err, b)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"quality", "--variant", "chess"}, "give --positions FILE"},
		{[]string{"quality", "--positions", fens}, "needs --variant"},
		{[]string{"quality", "--variant", "chess", "--positions", filepath.Join(dir, "none.txt")}, "--positions: open " + filepath.Join(dir, "none.txt")},
		{[]string{"quality", "--run", filepath.Join(dir, "norun")}, "--run " + filepath.Join(dir, "norun") + ": "},
		{[]string{"quality", "--variant", "nochess", "--positions", fens}, "nochess"},
		{[]string{"quality", "--variant", "chess", "--positions", fens, "--oracle", "/nonexistent/oracle"}, "/nonexistent/oracle"},
		{[]string{"quality", "--run", dir, "--every", "0"}, "every 0"},
	} {
		code, _, errs := runCLI(t, c.args...)
		if code == 0 || !strings.Contains(errs, c.want) || strings.Contains(errs, "goroutine") {
			t.Errorf("%v: exit %d, stderr %q; want an error naming %q", c.args, code, errs, c.want)
		}
	}
}

// TestQualityRuns judges the positions of two self-play runs together,
// and refuses runs of two variants (three short self-play runs, under a
// second).
func TestQualityRuns(t *testing.T) {
	dir := t.TempDir()
	mk := func(name, variant string) string {
		d := filepath.Join(dir, name)
		if code, _, errs := runCLI(t, "selfplay", "-o", d, "--variant", variant, "--pairs", "1", "--nodes", "40", "--workers", "1"); code != 0 {
			t.Fatalf("selfplay %s: exit %d: %s", variant, code, errs)
		}
		return d
	}
	a, b, s := mk("a", "chess"), mk("b", "chess"), mk("s", "shatranj")
	count := func(args ...string) int {
		code, stdout, errs := runCLI(t, append([]string{"quality", "--nodes", "40", "--oracle-nodes", "200", "--every", "7", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var rep struct{ Positions int }
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		return rep.Positions
	}
	na, nb, nab := count("--run", a), count("--run", b), count("--run", a, "--run", b)
	if na == 0 || nb == 0 || nab != na+nb {
		t.Errorf("positions: %d and %d alone, %d together; want the sum", na, nb, nab)
	}
	if code, _, errs := runCLI(t, "quality", "--run", a, "--run", s); code == 0 || !strings.Contains(errs, "one variant at a time") {
		t.Errorf("chess and shatranj runs together: exit %d, %q", code, errs)
	}
}
