package values

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"tamerlane/selfplay"
)

// engineConfig parses a small measurement config (50 nodes, 60 plies)
// with the given variants list.
func engineConfig(t *testing.T, variants string) *Config {
	t.Helper()
	cfg, err := ParseConfig([]byte("seed: 3\nnodes: 50\nmax_plies: 60\nvariants:\n"+variants), "e.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestImbalanceEngine checks that imbalance.engine reaches the players of
// every imbalance game (the factory sees the spec; a greedy player stands
// in for the outside engine) and that a bad engine is an error naming
// the field.
func TestImbalanceEngine(t *testing.T) {
	cfg := engineConfig(t, "  - variant: chess\n    imbalance: {pieces: [N], half_width: 0.01, batch_pairs: 1, max_pairs: 1, engine: {cmd: sh, name: outside, nodes: 10}}\n")
	var outside, ours atomic.Int64
	greedy := selfplay.GreedyFactory()
	factory := func(s selfplay.PlayerSpec) (selfplay.Player, error) {
		if s.Engine != nil && s.Engine.Name == "outside" {
			outside.Add(1)
		} else if s.Engine == nil && s.Limits.Nodes == 50 {
			ours.Add(1)
		}
		return greedy(s)
	}
	if err := Run(context.Background(), cfg, filepath.Join(t.TempDir(), "m"), RunOptions{Workers: 1, Factory: factory}); err != nil {
		t.Fatal(err)
	}
	if outside.Load() == 0 {
		t.Error("no imbalance player was the outside engine")
	}
	if ours.Load() != 0 {
		t.Errorf("%d players of ours at the config's node limit; the engine should play every imbalance game", ours.Load())
	}
	_, err := ParseConfig([]byte("variants:\n  - {variant: chess, imbalance: {pieces: [N], engine: {cmd: /nonexistent/fsf}}}\n"), "x.yaml")
	if err == nil || !strings.Contains(err.Error(), "x.yaml:2: variants[0].imbalance.engine: engine: cmd \"/nonexistent/fsf\"") {
		t.Errorf("error %v", err)
	}
}

// TestRegressionEngine checks that a variant's engine plays both sides of
// every regression game (the factory sees the spec; a greedy player stands
// in for it), that the regression reads those games as self-play, and
// that a bad engine or an engine without pairs is an error naming the
// field.
func TestRegressionEngine(t *testing.T) {
	cfg := engineConfig(t, "  - {variant: chess, pairs: 3, engine: {cmd: sh, name: outside, nodes: 10}}\n")
	var outside atomic.Int64
	greedy := selfplay.GreedyFactory()
	factory := func(s selfplay.PlayerSpec) (selfplay.Player, error) {
		if s.Engine != nil && s.Engine.Name == "outside" {
			outside.Add(1)
		}
		return greedy(s)
	}
	dir := filepath.Join(t.TempDir(), "m")
	if err := Run(context.Background(), cfg, dir, RunOptions{Workers: 1, Factory: factory}); err != nil {
		t.Fatal(err)
	}
	// Two players a game, six games (the runner may build more).
	if outside.Load() < 12 {
		t.Errorf("%d outside-engine players, want at least 12 (both sides of 6 games)", outside.Load())
	}
	vs, err := CollectRegression([]string{filepath.Join(dir, "chess", "selfplay")}, SampleOptions{MinPly: 4})
	if err != nil {
		t.Fatal(err)
	}
	if vs["chess"] == nil || vs["chess"].Games != 6 {
		t.Errorf("regression games %v, want the 6 games of the engine", vs["chess"])
	}
	// Read where the engine is not installed: its command renamed in the
	// measurement's config and in its self-play run's.
	for _, f := range []string{filepath.Join(dir, "config.yaml"), filepath.Join(dir, "chess", "selfplay", "config.yaml")} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		moved := regexp.MustCompile(`cmd: sh\b`).ReplaceAll(b, []byte("cmd: /nonexistent/engine"))
		if bytes.Equal(moved, b) {
			t.Fatalf("%s does not name the engine:\n%s", f, b)
		}
		if err := os.WriteFile(f, moved, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := LoadConfig(filepath.Join(dir, "config.yaml"), ""); err == nil {
		t.Error("LoadConfig accepts a measurement whose engine is missing")
	}
	if _, err := LoadRunConfig(filepath.Join(dir, "config.yaml")); err != nil {
		t.Errorf("LoadRunConfig: %v", err)
	}
	if vs, err = CollectRegression([]string{filepath.Join(dir, "chess", "selfplay")}, SampleOptions{MinPly: 4}); err != nil {
		t.Fatalf("reading the games without the engine: %v", err)
	}
	if vs["chess"] == nil || vs["chess"].Games != 6 {
		t.Errorf("without the engine: regression games %v, want 6", vs["chess"])
	}
	for _, c := range []struct{ yaml, want string }{
		{"variants:\n  - {variant: chess, pairs: 2, engine: {cmd: /nonexistent/fsf}}\n", "x.yaml:2: variants[0].engine: engine: cmd \"/nonexistent/fsf\""},
		{"variants:\n  - {variant: chess, imbalance: {pieces: [N]}, engine: {cmd: sh}}\n", "x.yaml:2: variants[0].engine: plays the regression's games, but pairs is 0"},
	} {
		if _, err := ParseConfig([]byte(c.yaml), "x.yaml"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.yaml, err, c.want)
		}
	}
}
