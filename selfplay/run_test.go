package selfplay

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"tamerlane/engine"
)

// TestRunOutputsParseBack plays a few pairs with the real search and
// checks that every PGN game replays through the rules engine, that the
// data set parses and agrees with the games, and that the counts agree
// with summary.json.
func TestRunOutputsParseBack(t *testing.T) {
	cfg := loadTestConfig(t, `
seed: 5
nodes: 200
max_plies: 60
openings: {plies: 4, max_score: 400, score_nodes: 50}
dataset: {positions_per_game: 4, skip_plies: 2}
variants:
  - {variant: tamerlane, pairs: 2}
  - {variant: chess, pairs: 1}
imbalances:
  - {name: "N vs C", variant: tamerlane2, first_removes: [N], second_removes: [C], pairs: 1}
`)
	dir := t.TempDir()
	res, err := Run(context.Background(), cfg, dir, RunOptions{Workers: 2, Factory: SearchFactory()})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Summary.Complete || len(res.Summary.Streams) != 3 {
		t.Fatalf("summary: complete %v, %d streams", res.Summary.Complete, len(res.Summary.Streams))
	}
	checkOutputs(t, dir)
}

// checkOutputs replays a run directory's PGN and data set against its
// summary.
func checkOutputs(t *testing.T, dir string) {
	t.Helper()
	sum, err := ReadSummary(filepath.Join(dir, SummaryName))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sum.Streams {
		games, err := ReadPGN(filepath.Join(dir, s.Dir, PGNName))
		if err != nil {
			t.Fatal(err)
		}
		if len(games) != s.Games || s.Games != 2*s.Pairs {
			t.Fatalf("%s: %d PGN games, summary %d games, %d pairs", s.Name, len(games), s.Games, s.Pairs)
		}
		results := map[string]float64{}
		plies := 0
		var white WDL
		for _, g := range games {
			start, moves, err := g.ReplayRecorded(dir)
			if err != nil {
				t.Fatalf("%s game %s: %v", s.Name, g.Tag("Round"), err)
			}
			if g.Tag("Variant") != s.Variant || g.Tag("Result") != g.Result || g.Tag("Termination") == "" {
				t.Fatalf("%s game %s: tags %v, result %s", s.Name, g.Tag("Round"), g.Tags, g.Result)
			}
			if len(moves) == 0 || len(g.Comments) != len(moves) {
				t.Fatalf("%s game %s: %d moves, %d comments", s.Name, g.Tag("Round"), len(moves), len(g.Comments))
			}
			for i, c := range g.Comments {
				if c != "book" && !strings.Contains(c, "/") {
					t.Fatalf("%s game %s: comment %q at ply %d", s.Name, g.Tag("Round"), c, i+1)
				}
			}
			// A game that ended by rule ends in a finished position.
			pos := start.Clone()
			for _, m := range moves {
				pos.Make(m)
			}
			res, reason := pos.Outcome()
			switch term := g.Tag("Termination"); term {
			case TermAdjudicatedDraw, TermAdjudicatedLoss, TermMaxPlies:
				if res != engine.Ongoing {
					t.Errorf("%s game %s: %s, but the position is over by %s", s.Name, g.Tag("Round"), term, reason)
				}
			default:
				if string(reason) != term || res.String() != g.Result {
					t.Errorf("%s game %s: termination %s %s, position says %s %s", s.Name, g.Tag("Round"), term, g.Result, reason, res)
				}
			}
			plies += len(moves)
			results[g.Tag("GameId")] = map[string]float64{"1-0": 1, "0-1": 0, "1/2-1/2": 0.5}[g.Result]
			switch g.Result {
			case "1-0":
				white.Wins++
			case "0-1":
				white.Losses++
			default:
				white.Draws++
			}
		}
		if plies != s.Plies {
			t.Errorf("%s: %d plies in the PGN, summary %d", s.Name, plies, s.Plies)
		}
		if white.Wins != s.White.Wins || white.Draws != s.White.Draws || white.Losses != s.White.Losses {
			t.Errorf("%s: PGN White %+v, summary %+v", s.Name, white, s.White)
		}
		recs, err := ReadDataset(filepath.Join(dir, s.Dir, DatasetName))
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != s.Positions {
			t.Errorf("%s: %d records, summary %d positions", s.Name, len(recs), s.Positions)
		}
		for _, r := range recs {
			v, err := RunVariant(dir, r.Variant, r.Rules)
			if err != nil {
				t.Fatal(err)
			}
			p, err := engine.ParseFEN(v, r.FEN)
			if err != nil {
				t.Fatalf("%s: record %+v: %v", s.Name, r, err)
			}
			if p.InCheck() {
				t.Errorf("%s: record in check: %s", s.Name, r.FEN)
			}
			want, ok := results[strconv.FormatInt(r.Game, 10)]
			if !ok || want != r.Result {
				t.Errorf("%s: record of game %d has result %v, the PGN %v (%v)", s.Name, r.Game, r.Result, want, ok)
			}
			if r.Ply < 2 {
				t.Errorf("%s: record at ply %d, skip_plies is 2", s.Name, r.Ply)
			}
		}
	}
}

// TestWorkersIdentical checks that the number of workers changes nothing.
func TestWorkersIdentical(t *testing.T) {
	cfg := loadTestConfig(t, testConfig)
	a, b := t.TempDir(), t.TempDir()
	run(t, cfg, a, 1)
	run(t, cfg, b, 2)
	sameOutputs(t, a, b)
	checkOutputs(t, a)
}

// TestResume interrupts a run after some pairs, resumes it and compares
// with an uninterrupted run; then it tears the last journal line as a
// crash would and resumes again.
func TestResume(t *testing.T) {
	cfg := loadTestConfig(t, testConfig)
	full := t.TempDir()
	run(t, cfg, full, 2)

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	n := 0
	res, err := Run(ctx, cfg, dir, RunOptions{Workers: 2, Factory: testFactory(), afterPair: func(string, int) {
		mu.Lock()
		defer mu.Unlock()
		if n++; n == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: err %v", err)
	}
	if res == nil || res.Summary.Complete {
		t.Fatalf("interrupted run: result %+v", res)
	}
	played := 0
	for _, s := range res.Summary.Streams {
		played += s.Pairs
	}
	if played < 3 || played >= 8 {
		t.Fatalf("interrupted run played %d pairs", played)
	}
	checkOutputs(t, dir) // partial outputs are valid too
	res = run(t, cfg, dir, 2)
	if !res.Summary.Complete || res.Timing.PairsPlayed != 8-played {
		t.Fatalf("resume: complete %v, played %d, want %d", res.Summary.Complete, res.Timing.PairsPlayed, 8-played)
	}
	sameOutputs(t, full, dir)

	// Tear the last line of a journal: the pair is played again.
	j := filepath.Join(dir, "tamerlane", journalName)
	data, err := os.ReadFile(j)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(j, data[:len(data)-40], 0o644); err != nil {
		t.Fatal(err)
	}
	res = run(t, cfg, dir, 1)
	if res.Timing.PairsPlayed != 1 {
		t.Fatalf("after a torn line, %d pairs played, want 1", res.Timing.PairsPlayed)
	}
	sameOutputs(t, full, dir)
	data2, err := os.ReadFile(j)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(data2), "\n") != 3 {
		t.Fatalf("journal has %d lines, want 3", strings.Count(string(data2), "\n"))
	}

	// Nothing left to play: a rerun plays nothing and changes nothing.
	res = run(t, cfg, dir, 2)
	if res.Timing.PairsPlayed != 0 {
		t.Fatalf("rerun played %d pairs", res.Timing.PairsPlayed)
	}
	sameOutputs(t, full, dir)

	// A corrupt line that is not the last is an error naming file and line.
	lines := strings.SplitAfter(string(data2), "\n")
	lines[1] = "{\"pair\": 1, garbage}\n"
	if err := os.WriteFile(j, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), cfg, dir, RunOptions{Workers: 1, Factory: testFactory()})
	if err == nil || !strings.Contains(err.Error(), j+":2:") {
		t.Fatalf("corrupt journal line: err %v, want %s:2", err, j)
	}
}

// TestRunRefusesOtherConfig checks that a run directory keeps to its
// configuration.
func TestRunRefusesOtherConfig(t *testing.T) {
	cfg := loadTestConfig(t, testConfig)
	dir := t.TempDir()
	run(t, cfg, dir, 2)
	other := loadTestConfig(t, strings.Replace(testConfig, "seed: 11", "seed: 12", 1))
	_, err := Run(context.Background(), other, dir, RunOptions{Factory: testFactory()})
	if err == nil || !strings.Contains(err.Error(), "another configuration") {
		t.Fatalf("err %v", err)
	}
	// Workers are not part of the configuration.
	cfg.Workers = 3
	run(t, cfg, dir, 0)
}

// TestShardMerge checks that two shards merged equal the unsharded run,
// also when the shards have no streams.json (an older format), and that
// merge refuses mismatched, incomplete and overlapping shards.
func TestShardMerge(t *testing.T) {
	cfg := loadTestConfig(t, testConfig)
	full := t.TempDir()
	run(t, cfg, full, 2)
	root := t.TempDir()
	shards := playShards(cfg, root, func(c *Config, d string) {
		if res := run(t, c, d, 1); !res.Summary.Complete {
			t.Fatalf("shard %s incomplete", c.Shard)
		}
	})
	merged := filepath.Join(root, "merged")
	if _, err := Merge(merged, shards); err != nil {
		t.Fatal(err)
	}
	sameOutputs(t, full, merged)

	// Shards of the format before streams.json merge the same, plan included.
	for _, d := range shards {
		if err := os.Remove(filepath.Join(d, PlanName)); err != nil {
			t.Fatal(err)
		}
	}
	mergedOld := filepath.Join(root, "merged-old")
	if _, err := Merge(mergedOld, shards); err != nil {
		t.Fatal(err)
	}
	sameOutputs(t, full, mergedOld)

	// A merged directory is a complete run: running it plays nothing.
	res := run(t, cfg, merged, 2)
	if res.Timing.PairsPlayed != 0 {
		t.Fatalf("run on the merged directory played %d pairs", res.Timing.PairsPlayed)
	}

	// Missing pairs.
	if _, err := Merge(filepath.Join(root, "m1"), shards[:1]); err == nil || !strings.Contains(err.Error(), "misses pairs 1") {
		t.Fatalf("missing shard: err %v", err)
	}
	// Repeated pairs.
	if _, err := Merge(filepath.Join(root, "m2"), []string{shards[0], shards[1], full}); err == nil || !strings.Contains(err.Error(), "in both") {
		t.Fatalf("repeated pairs: err %v", err)
	}
	// Another configuration.
	other := loadTestConfig(t, strings.Replace(testConfig, "nodes: 200", "nodes: 201", 1))
	other.Shard = Shard{Index: 1, Count: 2}
	od := filepath.Join(root, "other")
	run(t, other, od, 2)
	if _, err := Merge(filepath.Join(root, "m3"), []string{shards[0], od}); err == nil || !strings.Contains(err.Error(), "different configurations") {
		t.Fatalf("mismatched configs: err %v", err)
	}
}
