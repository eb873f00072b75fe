package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tamerlane/selfplay"
)

// tinyConfig is a pipeline small enough for tests: chess, 3 pairs at 150
// nodes, a 4-pair verification.
const tinyConfig = `# a tiny pipeline
name: tiny
generations: %d
accept: %s
selfplay:
  seed: 3
  nodes: 150
  max_plies: 140
  openings: {plies: 4, score_nodes: 50}
  dataset: {positions_per_game: 20, skip_plies: 4}
  variants:
    - {variant: chess, pairs: 3}
tune:
  free: [material.]
  prior_sd: 50
verify:
  pairs: 4
  sprt: {elo0: -10, elo1: 10}
`

// writeConfig writes a config file into a new temporary directory.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tiny.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// loadConfig writes and loads a config.
func loadConfig(t *testing.T, text string) *Config {
	t.Helper()
	cfg, err := Load(writeConfig(t, text))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// fixedNow pins the run's creation time so that runs in different
// directories write identical tables.
func fixedNow() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// testOptions are the options of the tests' runs; greedy selects the fast
// one-ply player instead of the search.
func testOptions(greedy bool) Options {
	o := Options{Now: fixedNow}
	if greedy {
		o.Factory = selfplay.GreedyFactory()
	}
	return o
}

// runPipeline runs cfg in dir and fails the test on error.
func runPipeline(t *testing.T, cfg *Config, dir string, opts Options) *Report {
	t.Helper()
	rep, err := Run(context.Background(), cfg, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// normalizedReport reads report.json without its timing fields and
// with the config file name blanked.
func normalizedReport(t *testing.T, dir string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ReportJSON))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"created", "updated", "config_file"} {
		delete(m, k)
	}
	if gens, ok := m["generations"].([]any); ok {
		for _, g := range gens {
			delete(g.(map[string]any), "timing")
		}
	}
	return m
}
