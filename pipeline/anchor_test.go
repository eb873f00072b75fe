package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/selfplay"
	"tamerlane/uci"
)

// anchorEngineEnv makes the test binary act as a UCI engine (see
// TestMain): "uci" is this project's UCI server, "crash" the same server
// that exits at its first go command.
const anchorEngineEnv = "TAMERLANE_TEST_ANCHOR"

func TestMain(m *testing.M) {
	if mode := os.Getenv(anchorEngineEnv); mode != "" {
		var in io.Reader = os.Stdin
		if mode == "crash" {
			in = crashAtGo(os.Stdin)
		}
		uci.NewServer("anchor-"+mode, "test").Run(context.Background(), in, os.Stdout)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashAtGo passes r's lines on and exits the process at the first
// "go" command.
func crashAtGo(r io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "go") {
				os.Exit(3)
			}
			fmt.Fprintln(pw, sc.Text())
		}
		pw.Close()
	}()
	return pr
}

// anchorConfig is the tiny pipeline with an anchor: this test binary as
// the engine in the given mode.
func anchorConfig(t *testing.T, mode string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(anchorEngineEnv, mode)
	return strings.Replace(fmt.Sprintf(tinyConfig, 1, "pass"), "  pairs: 4\n",
		fmt.Sprintf("  pairs: 4\n  anchor:\n    engine: {cmd: %q, name: anchor-%s, nodes: 40, timeout_ms: 5000}\n    pairs: 2\n", exe, mode), 1)
}

// TestAnchor runs a generation with an outside anchor (our own UCI
// server through pipes): the current table plays it for anchor.pairs
// pairs into gen-001/anchor/chess, the step is resumable (interrupted
// after accept, then run again), and the report shows its Elo with the
// 95% interval and no forfeit.
func TestAnchor(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	text := anchorConfig(t, "uci")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := testOptions(true)
	opts.AfterStep = func(g int, step string) {
		if step == StepAccept {
			cancel()
		}
	}
	if _, err := Run(ctx, loadConfig(t, text), dir, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "gen-001", AnchorDir)); err == nil {
		t.Fatal("the anchor was played before the accept step")
	}
	var log bytes.Buffer
	opts = testOptions(true)
	opts.Log = &log
	rep := runPipeline(t, loadConfig(t, text), dir, opts)
	if !rep.Finished {
		t.Fatalf("status %q", rep.Status)
	}
	if !strings.Contains(log.String(), "gen 1/1 anchor chess: gen-001 (gen-000/tables/chess.yaml) vs anchor-uci, 2 pairs") {
		t.Errorf("log:\n%s", log.String())
	}
	sum, err := selfplay.ReadSummary(filepath.Join(dir, "gen-001", AnchorDir, "chess", selfplay.SummaryName))
	if err != nil {
		t.Fatal(err)
	}
	s := sum.Streams[0]
	if s.Games != 4 || forfeits(s.Terminations) != 0 {
		t.Errorf("anchor match: %d games, terminations %v; want 4 games and no forfeit", s.Games, s.Terminations)
	}
	pgn, err := os.ReadFile(filepath.Join(dir, "gen-001", AnchorDir, "chess", s.Dir, selfplay.PGNName))
	if err != nil || !bytes.Contains(pgn, []byte(`"anchor-uci"`)) {
		t.Errorf("the anchor's PGN does not name the engine: %v\n%.300s", err, pgn)
	}
	m := rep.Generations[0].Variants[0].Anchor
	if m == nil || m.Games != 4 || m.Dir != "gen-001/anchor/chess" {
		t.Fatalf("report: anchor %+v", m)
	}
	md, err := os.ReadFile(filepath.Join(dir, ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- anchor: after each generation the current tables of chess play anchor-uci (40 nodes/move), 2 pairs",
		"Against the outside anchor", "| 1 | chess | 2 | ", m.Elo.String(), "**Anchor**: current vs the anchor engine, 2 pairs"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// TestAnchorCrash checks that an anchor engine that crashes at every
// move loses its games by "engine crash", recorded in the match and the
// report, and that the pipeline finishes.
func TestAnchorCrash(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	rep := runPipeline(t, loadConfig(t, anchorConfig(t, "crash")), dir, testOptions(true))
	if !rep.Finished {
		t.Fatalf("status %q", rep.Status)
	}
	m := rep.Generations[0].Variants[0].Anchor
	if m == nil || m.Terminations[selfplay.TermEngineCrash] != 4 || m.A.Wins != 4 {
		t.Fatalf("anchor %+v: want 4 games won by our side by the engine's crash", m)
	}
	md, err := os.ReadFile(filepath.Join(dir, ReportMD))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(md, []byte("4 games lost by an engine's forfeit (engine crash 4)")) || !bytes.Contains(md, []byte(" | 4 |\n")) {
		t.Errorf("report.md does not show the forfeits:\n%s", md)
	}
}

// TestAnchorConfigErrors checks the anchor's and vs_gen0's mistakes name
// the file, the line and the field.
func TestAnchorConfigErrors(t *testing.T) {
	base := fmt.Sprintf(tinyConfig, 1, "pass")
	for _, c := range []struct{ name, add, want string }{
		{"no engine", "  anchor: {pairs: 2}\n", ":19: verify.anchor.engine: required"},
		{"missing command", "  anchor: {engine: {cmd: /nonexistent/fsf}}\n", `:19: verify.anchor.engine: engine: cmd "/nonexistent/fsf"`},
		{"bad clock", "  anchor: {engine: {cmd: sh, tc: soon}}\n", `:19: verify.anchor.engine: engine sh: tc "soon"`},
		{"foreign variant", "  anchor:\n    engine: {cmd: sh}\n    variants: [chess, shako]\n", `:21: verify.anchor.variants[1]: variant "shako" is not among selfplay.variants (chess)`},
		{"twice", "  anchor:\n    engine: {cmd: sh}\n    variants: [chess, chess]\n", `:21: verify.anchor.variants[1]: variant "chess" is listed twice`},
		{"no pairs", "  anchor: {engine: {cmd: sh}, pairs: 0}\n", ":19: verify.anchor.pairs: must be at least 1"},
		{"unknown engine field", "  anchor: {engine: {cmd: sh, node: 5}}\n", `:19: verify.anchor.engine.node: unknown field`},
		{"negative vs_gen0", "  vs_gen0: {pairs: -1}\n", ":19: verify.vs_gen0.pairs: must not be negative"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeConfig(t, base+c.add)
			_, err := Load(path)
			if err == nil || !strings.Contains(err.Error(), path+c.want) {
				t.Errorf("error %v lacks %q", err, path+c.want)
			}
		})
	}
	// Defaults: 50 pairs, the pipeline's variants.
	cfg := loadConfig(t, base+"  anchor: {engine: {cmd: sh}}\n")
	if a := cfg.Verify.Anchor; a.Pairs != DefaultAnchorPairs || len(a.Variants) != 1 || a.Variants[0] != "chess" {
		t.Errorf("anchor defaults %+v", a)
	}
}
