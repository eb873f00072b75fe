package selfplay

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/internal/textdiff"
)

// testConfig is a tiny run over three kinds of stream.
const testConfig = `
seed: 11
nodes: 200
max_plies: 120
openings: {plies: 4, max_score: 400, score_nodes: 50}
adjudication:
  draw: {move_number: 20, move_count: 4, score: 0}
  resign: {move_count: 3, score: 500}
dataset: {positions_per_game: 5, skip_plies: 4}
variants:
  - {variant: tamerlane, pairs: 3}
  - {variant: chess, pairs: 3}
imbalances:
  - {name: "R vs N", variant: chess, first_removes: [R], second_removes: [N], pairs: 2}
`

// writeFile writes a file under dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// loadTestConfig writes and loads a config.
func loadTestConfig(t *testing.T, text string) *Config {
	t.Helper()
	cfg, err := LoadConfig(writeFile(t, t.TempDir(), "run.yaml", text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// testFactory is the greedy player, except that the table "random.yaml"
// makes a player that plays uniformly random legal moves (a weak
// opponent for matches).
func testFactory() PlayerFactory {
	greedy := GreedyFactory()
	return func(spec PlayerSpec) (Player, error) {
		if filepath.Base(spec.Table) == "random.yaml" {
			return &randomPlayer{seed: spec.Seed, rng: newRNG(spec.Seed)}, nil
		}
		return greedy(spec)
	}
}

type randomPlayer struct {
	seed uint64
	rng  rng
}

func (r *randomPlayer) NewGame() { r.rng = newRNG(r.seed) }

func (r *randomPlayer) Move(ctx context.Context, pos *engine.Position) (engine.Move, MoveInfo, error) {
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	return ml.Moves[r.rng.intn(ml.N)], MoveInfo{Depth: 1, Nodes: 1}, ctx.Err()
}

// run plays cfg into dir with the test factory.
func run(t *testing.T, cfg *Config, dir string, workers int) *Result {
	t.Helper()
	res, err := Run(context.Background(), cfg, dir, RunOptions{Workers: workers, Factory: testFactory()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// playShards plays cfg as two shards, each into a directory under root
// by play, and returns the directories.
func playShards(cfg *Config, root string, play func(cfg *Config, dir string)) []string {
	var shards []string
	for i := 0; i < 2; i++ {
		c := *cfg
		c.Shard = Shard{Index: i, Count: 2}
		d := filepath.Join(root, "shard"+strconv.Itoa(i))
		play(&c, d)
		shards = append(shards, d)
	}
	return shards
}

// outputFiles lists the deterministic outputs of a run directory,
// relative to it.
func outputFiles(t *testing.T, dir string) []string {
	t.Helper()
	files := []string{SummaryName, ConfigName, PlanName}
	sum, err := ReadSummary(filepath.Join(dir, SummaryName))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sum.Streams {
		files = append(files, filepath.Join(s.Dir, PGNName), filepath.Join(s.Dir, DatasetName))
	}
	return files
}

// sameOutputs fails unless two run directories hold byte-identical
// outputs.
func sameOutputs(t *testing.T, a, b string) {
	t.Helper()
	fa, fb := outputFiles(t, a), outputFiles(t, b)
	if strings.Join(fa, ",") != strings.Join(fb, ",") {
		t.Fatalf("different output files: %v and %v", fa, fb)
	}
	for _, f := range fa {
		da, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			t.Fatal(err)
		}
		db, err := os.ReadFile(filepath.Join(b, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(da, db) {
			t.Errorf("%s differs between %s and %s:\n%s", f, a, b, textdiff.FirstLine(da, db))
		}
	}
}
