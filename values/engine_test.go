package values

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"tamerlane/selfplay"
)

// TestImbalanceEngine checks that imbalance.engine reaches the players of
// every imbalance game (the factory sees the spec; a greedy player stands
// in for the outside engine) and that a bad engine is an error naming
// the field.
func TestImbalanceEngine(t *testing.T) {
	cfg, err := ParseConfig([]byte(`
seed: 3
nodes: 50
max_plies: 60
variants:
  - variant: chess
    imbalance: {pieces: [N], half_width: 0.01, batch_pairs: 1, max_pairs: 1, engine: {cmd: sh, name: outside, nodes: 10}}
`), "e.yaml")
	if err != nil {
		t.Fatal(err)
	}
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
	_, err = ParseConfig([]byte("variants:\n  - {variant: chess, imbalance: {pieces: [N], engine: {cmd: /nonexistent/fsf}}}\n"), "x.yaml")
	if err == nil || !strings.Contains(err.Error(), "x.yaml:2: variants[0].imbalance.engine: engine: cmd \"/nonexistent/fsf\"") {
		t.Errorf("error %v", err)
	}
}
