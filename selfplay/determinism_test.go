package selfplay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"tamerlane/internal/textdiff"
)

// searchConfig returns a small run played by the real search
// (DefaultFactory) and its number of pairs: scored random-walk openings
// (the scorer searches the start position before the walks are drawn), a
// self-play stream and an imbalance, whose two games walk from different
// roots. The greedy test player searches nothing, so only a run like
// this one shows a game that depends on what the process searched
// before it. Under the race detector the games are fewer and shorter.
func searchConfig() (string, int) {
	pairs, nodes, plies := 3, 80, 36
	if raceOn {
		pairs, nodes, plies = 2, 50, 20
	}
	return fmt.Sprintf(`
seed: 11
nodes: %d
max_plies: %d
openings: {plies: 4, max_score: 400, score_nodes: 200}
dataset: {positions_per_game: 4, skip_plies: 4}
variants:
  - {variant: tamerlane, pairs: %d}
imbalances:
  - {name: "R vs N", variant: chess, first_removes: [R], second_removes: [N], pairs: 2}
`, nodes, plies, pairs), pairs + 2
}

// runSearch plays cfg into dir with the default factory and the options
// given (their Workers, afterPair) and returns Run's error.
func runSearch(ctx context.Context, cfg *Config, dir string, opts RunOptions) (*Result, error) {
	opts.Factory = nil
	return Run(ctx, cfg, dir, opts)
}

// mustRunSearch is runSearch that fails the test on error.
func mustRunSearch(t *testing.T, cfg *Config, dir string, workers int) *Result {
	t.Helper()
	res, err := runSearch(context.Background(), cfg, dir, RunOptions{Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// journalGames returns a stream's journal as the canonical bytes of its
// pairs in pair order, without the games' wall times: what a journal
// says about the games whatever order the pairs finished in.
func journalGames(t *testing.T, path string) []byte {
	t.Helper()
	entries, _, err := scanJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*os.File{}
	defer closeAll(files)
	var pairs []*jPair
	for _, e := range entries {
		p, err := readEntry(files, e)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range p.Games {
			g.Ms = 0
		}
		pairs = append(pairs, p)
	}
	slices.SortFunc(pairs, func(a, b *jPair) int { return a.Pair - b.Pair })
	var b bytes.Buffer
	for _, p := range pairs {
		line, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	return b.Bytes()
}

// sameRun fails unless two run directories hold byte-identical outputs
// (games.pgn, positions.jsonl, summary.json, config.yaml) and journals
// that record the same games.
func sameRun(t *testing.T, want, got string) {
	t.Helper()
	sameOutputs(t, want, got)
	sum, err := ReadSummary(filepath.Join(want, SummaryName))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sum.Streams {
		a := journalGames(t, filepath.Join(want, s.Dir, journalName))
		b := journalGames(t, filepath.Join(got, s.Dir, journalName))
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the journals record other games:\n%s", s.Dir, textdiff.FirstLine(a, b))
		}
	}
}

// TestSearchRunDeterministic checks that every game of a run played by
// the search depends only on the configuration, the seed and its pair
// index: one worker, two workers, two shards merged, a run cancelled
// after its first pair and resumed, and a run whose last journal line
// was torn in the middle and resumed all give the same bytes.
func TestSearchRunDeterministic(t *testing.T) {
	text, searchPairs := searchConfig()
	cfg := loadTestConfig(t, text)
	ref := filepath.Join(t.TempDir(), "ref")
	res := mustRunSearch(t, cfg, ref, 1)
	if !res.Summary.Complete || res.Timing.PairsPlayed != searchPairs {
		t.Fatalf("reference run: complete %v, %d pairs", res.Summary.Complete, res.Timing.PairsPlayed)
	}
	checkOutputs(t, ref)

	t.Run("workers", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "w2")
		mustRunSearch(t, cfg, dir, 2)
		sameRun(t, ref, dir)
	})

	t.Run("shards", func(t *testing.T) {
		root := t.TempDir()
		shards := playShards(cfg, root, func(c *Config, d string) { mustRunSearch(t, c, d, 1) })
		merged := filepath.Join(root, "merged")
		if _, err := Merge(merged, shards); err != nil {
			t.Fatal(err)
		}
		sameRun(t, ref, merged)
	})

	t.Run("resume", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "resumed")
		// Two sessions stopped after one pair each: each resumes with a
		// pair its process plays first.
		for session := 1; session <= 2; session++ {
			ctx, cancel := context.WithCancel(context.Background())
			_, err := runSearch(ctx, cfg, dir, RunOptions{Workers: 1, afterPair: func(string, int) { cancel() }})
			cancel()
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("session %d: err %v, want it cancelled", session, err)
			}
		}
		res := mustRunSearch(t, cfg, dir, 1)
		if res.Timing.PairsPlayed != searchPairs-2 {
			t.Fatalf("resume played %d pairs, want %d", res.Timing.PairsPlayed, searchPairs-2)
		}
		sameRun(t, ref, dir)
	})

	t.Run("torn-line", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "torn")
		if err := os.CopyFS(dir, os.DirFS(ref)); err != nil {
			t.Fatal(err)
		}
		// Cut the self-play journal's last line in its middle, as a crash
		// while it was written would: that pair is played again, first
		// in a new process.
		j := filepath.Join(dir, "tamerlane", journalName)
		data, err := os.ReadFile(j)
		if err != nil {
			t.Fatal(err)
		}
		last := bytes.LastIndexByte(data[:len(data)-1], '\n') + 1
		if err := os.WriteFile(j, data[:last+(len(data)-last)/2], 0o644); err != nil {
			t.Fatal(err)
		}
		res := mustRunSearch(t, cfg, dir, 1)
		if res.Timing.PairsPlayed != 1 {
			t.Fatalf("after a torn line %d pairs played, want 1", res.Timing.PairsPlayed)
		}
		sameRun(t, ref, dir)
	})
}
