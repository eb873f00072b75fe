package selfplay

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/engine"
)

// TestImbalanceOutsideEngine plays an imbalance stream (chess, rook odds)
// whose both sides are an outside UCI engine (this project's server via
// the test binary): the engine must be sent the start position with the
// rook removed as "position fen ...", every move it returns is refereed
// by our rules, the PGN names the engine, and no game is lost by a
// forfeit.
func TestImbalanceOutsideEngine(t *testing.T) {
	log := filepath.Join(t.TempDir(), "engine.log")
	t.Setenv(fakeEngineLogEnv, log)
	spec := fakeSpec(t, "uci")
	cfg := shortEngineConfig(spec, 5, 60)
	cfg.Imbalances = []ImbalanceConfig{{Name: "R odds", Variant: "chess", FirstRemoves: []string{"R"}, Pairs: 1, Engine: spec}}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	res, err := Run(context.Background(), cfg, dir, RunOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Summary.Streams[0]
	if s.Kind != "imbalance" || s.Games != 2 {
		t.Fatalf("%s stream with %d games, want an imbalance with 2", s.Kind, s.Games)
	}
	for term, n := range s.Terminations {
		switch term {
		case TermTimeForfeit, TermIllegalMove, TermEngineCrash:
			t.Errorf("%d games ended by %q", n, term)
		}
	}
	v := engine.MustVariant("chess", nil)
	var sent []byte
	if sent, err = os.ReadFile(log); err != nil {
		t.Fatal(err)
	}
	for g := 0; g < 2; g++ {
		fen, rerr := imbalanceFEN(v, nil, []string{"R"}, nil, g == 1)
		if rerr != nil {
			t.Fatal(rerr.err)
		}
		if !strings.Contains(string(sent), "position fen "+fen) {
			t.Errorf("the engine was never sent the imbalance position %s", fen)
		}
	}
	if strings.Contains(string(sent), "position startpos") {
		t.Error("the engine was sent the start position, not the imbalance")
	}
	pgn, err := os.ReadFile(filepath.Join(dir, s.Dir, PGNName))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(pgn), `"fake-uci -R"`) || !strings.Contains(string(pgn), `[SetUp "1"]`) {
		t.Errorf("PGN does not name the engine and the set-up position:\n%.500s", pgn)
	}
}

// TestImbalanceEngineForfeit checks that an outside engine that crashes
// in an imbalance stream loses its games by "engine crash" and that the
// run goes on (the other side, our engine, wins both games).
func TestImbalanceEngineForfeit(t *testing.T) {
	crash := fakeSpec(t, "crash")
	crash.TimeoutMs = 2000
	cfg := DefaultConfig()
	cfg.Nodes = 50
	cfg.Openings.Plies = 0
	cfg.Imbalances = []ImbalanceConfig{{Name: "N odds", Variant: "chess", FirstRemoves: []string{"N"}, Pairs: 1, SecondEngine: crash}}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), cfg, t.TempDir(), RunOptions{Workers: 1, Factory: ExternalFactory(GreedyFactory())})
	if err != nil {
		t.Fatalf("a crashing engine stopped the run: %v", err)
	}
	s := res.Summary.Streams[0]
	if s.Terminations[TermEngineCrash] != 2 || s.FirstPlayer.Wins != 2 {
		t.Errorf("terminations %v, first player %+v: want both games lost by the engine's crash", s.Terminations, s.FirstPlayer)
	}
}

// TestImbalanceEngineErrors checks that a bad engine in an imbalance
// stream is a config error naming the field.
func TestImbalanceEngineErrors(t *testing.T) {
	cfg := loadTestConfigErr(t, `
nodes: 100
imbalances:
  - {name: a, variant: chess, first_removes: [N], pairs: 1, engine: {cmd: /nonexistent/fsf}}
  - {name: b, variant: chess, first_removes: [N], pairs: 1, first_engine: {cmd: sh, tc: soon}}
`)
	for _, want := range []string{"imbalances[0].engine", "/nonexistent/fsf", "imbalances[1].first_engine", `tc "soon"`, "run.yaml:4", "run.yaml:5"} {
		if !strings.Contains(cfg, want) {
			t.Errorf("error %q does not name %q", cfg, want)
		}
	}
}

// loadTestConfigErr writes and loads a config that must fail and returns
// the error's text.
func loadTestConfigErr(t *testing.T, text string) string {
	t.Helper()
	_, err := LoadConfig(writeFile(t, t.TempDir(), "run.yaml", text))
	if err == nil {
		t.Fatal("LoadConfig accepted a bad config")
	}
	return err.Error()
}

// TestJournalsReadWithoutEngine reads a run an outside engine played on
// a machine where that engine is not installed (its command renamed in
// the run's config): reading the journals needs no engine, while playing
// (Validate) still demands it.
func TestJournalsReadWithoutEngine(t *testing.T) {
	spec := fakeSpec(t, "uci")
	cfg := shortEngineConfig(spec, 6, 40)
	cfg.Matches = []MatchConfig{{Name: "engine", Variant: "chess", Pairs: 1, EngineA: spec, EngineB: spec}}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, dir, RunOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.yaml")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(t.TempDir(), "not-installed")
	moved := strings.ReplaceAll(string(b), spec.Cmd, gone)
	if moved == string(b) {
		t.Fatalf("the run's config does not name the engine %s:\n%s", spec.Cmd, b)
	}
	if err := os.WriteFile(path, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(path); err == nil || !strings.Contains(err.Error(), "not-installed") {
		t.Fatalf("LoadConfig of a config naming a missing engine: %v, want an error naming it", err)
	}
	if _, err := ParseConfig([]byte(moved), path); err != nil {
		t.Fatal(err)
	}
	games := 0
	for g, err := range Games(dir) {
		if err != nil {
			t.Fatalf("Games without the engine: %v", err)
		}
		games++
		if !g.SameProgram {
			t.Errorf("game of pair %d: not read as the same program against itself", g.Pair)
		}
	}
	if games != 2 {
		t.Fatalf("Games without the engine: %d games, want 2", games)
	}
	same, err := SameProgramMatches(dir)
	if err != nil || !same["engine"] {
		t.Fatalf("SameProgramMatches without the engine: %v, %v", same, err)
	}
}

// shortEngineConfig is a config for short games of the outside engine
// spec (60 nodes a move, a 2-ply unscored book) with no stream yet.
func shortEngineConfig(spec *EngineSpec, seed uint64, maxPlies int) *Config {
	spec.Nodes = 60
	cfg := DefaultConfig()
	cfg.Seed = seed
	cfg.MaxPlies = maxPlies
	cfg.Openings.Plies = 2
	cfg.Openings.MaxScore = 0
	return cfg
}
