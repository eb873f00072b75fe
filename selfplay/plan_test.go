package selfplay

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// planConfig has a stream of every kind with every part a plan records:
// an openings file for self-play and for an imbalance (with an offset),
// an outside engine on one side and an SPRT on a match.
const planConfig = `
seed: 5
nodes: 100
openings: {plies: 3}
variants:
  - {variant: chess, pairs: 5, openings_file: fens.txt}
  - {name: tam, variant: tamerlane, pairs: 2}
imbalances:
  - {name: "R odds", variant: chess, first_removes: [R], pairs: 3}
  - {name: "N file", variant: chess, first_removes: [N], second_removes: [B], pairs: 2, openings_file: fens.txt, openings_offset: 1}
matches:
  - {variant: chess, a: "", b: "", pairs: 4, b_engine: {cmd: /nonexistent/fsf, nodes: 900, options: {Hash: "16"}},
     sprt: {elo0: 0, elo1: 10}}
`

// TestPlanStreamsRoundTrip: a plan read back from its JSON gives streams
// that describe themselves as the same plan, so that a reader of the
// plan knows every stream as the run that wrote it did.
func TestPlanStreamsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	start := "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
	writeFile(t, dir, "fens.txt", start+"\n"+"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n")
	cfg, err := readConfig(writeFile(t, dir, "run.yaml", planConfig))
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.ValidateOffline(); err != nil {
		t.Fatal(err)
	}
	cfg.Shard = Shard{Index: 1, Count: 2}
	built, err := buildStreams(cfg, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	want := newPlan(cfg, "hash", built)
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var read Plan
	if err := json.Unmarshal(data, &read); err != nil {
		t.Fatal(err)
	}
	streams, err := read.streams(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := newPlan(cfg, "hash", streams); !reflect.DeepEqual(got, want) {
		t.Errorf("the streams of a plan read back describe another plan:\n%+v\nwant\n%+v", got, want)
	}
	// What the plan says of the streams, spot by spot.
	chess, im, match := want.Streams[0], want.Streams[3], want.Streams[4]
	if chess.Openings.File != filepath.Join(dir, "fens.txt") || chess.Openings.Positions != 2 || chess.Openings.WalkPlies != 0 || chess.PairsPlanned != 2 {
		t.Errorf("self-play stream with an openings file: %+v", chess)
	}
	if want.Streams[1].Openings.WalkPlies != 3 || len(want.Streams[1].Openings.Roots) != 2 {
		t.Errorf("self-play stream with walks: %+v", want.Streams[1].Openings)
	}
	if im.Openings.Offset != 1 || im.Openings.Positions != 2 || !slices.Equal(im.First.Removes, []string{"N"}) || im.Second.Name != "default -B" {
		t.Errorf("imbalance from a file: %+v", im)
	}
	if match.Second.Engine == nil || match.Second.Engine.Nodes != 900 || match.SPRT == nil || match.SPRT.Elo1 != 10 || match.SPRT.Alpha != DefaultSPRTError {
		t.Errorf("match: %+v", match)
	}
	if want.Shard != "1/2" || want.Seed != 5 {
		t.Errorf("run: shard %s seed %d", want.Shard, want.Seed)
	}
}

// playedGames lists the games and the interim records of a run directory
// as text, stream by stream.
func playedGames(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for g, err := range Games(dir) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %s %s %d %v %s %v", g.Stream, g.Kind, g.Variant.Name, g.Pair, g.FirstWhite, g.Result, g.Moves))
	}
	for r, err := range InterimRecords(dir) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%+v", r))
	}
	return out
}

// TestReadersUseThePlan: the games of a run in progress are read from its
// plan and journals, whatever became of its config.yaml; a run directory
// of the format before streams.json (no plan) is read from its config.yaml
// as before, and a resume gives it its plan.
func TestReadersUseThePlan(t *testing.T) {
	dir, _ := finishedTestRun(t)
	if err := os.Remove(filepath.Join(dir, SummaryName)); err != nil {
		t.Fatal(err)
	}
	want := playedGames(t, dir)
	if len(want) < 10 {
		t.Fatalf("only %d games and records", len(want))
	}
	config := filepath.Join(dir, ConfigName)
	yaml, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := os.ReadFile(filepath.Join(dir, PlanName))
	if err != nil {
		t.Fatal(err)
	}

	t.Run("without config.yaml", func(t *testing.T) {
		if err := os.Remove(config); err != nil {
			t.Fatal(err)
		}
		defer os.WriteFile(config, yaml, 0o644)
		if got := playedGames(t, dir); !slices.Equal(got, want) {
			t.Errorf("read without config.yaml: %d lines, want %d\n%.300q", len(got), len(want), got)
		}
	})

	t.Run("old format", func(t *testing.T) {
		if err := os.Remove(filepath.Join(dir, PlanName)); err != nil {
			t.Fatal(err)
		}
		if got := playedGames(t, dir); !slices.Equal(got, want) {
			t.Errorf("read from config.yaml: %d lines, want %d\n%.300q", len(got), len(want), got)
		}
		old, err := ReadPlan(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := json.MarshalIndent(old, "", "  "); err != nil || string(got)+"\n" != string(plan) {
			t.Errorf("the plan of an old run (%v):\n%s\nwant the one the run wrote:\n%s", err, got, plan)
		}
		// Resuming the run writes the plan its games were played by.
		run(t, loadTestConfig(t, testConfig), dir, 1)
		again, err := os.ReadFile(filepath.Join(dir, PlanName))
		if err != nil || string(again) != string(plan) {
			t.Errorf("streams.json after resuming an old run (%v):\n%s\nwant\n%s", err, again, plan)
		}
	})
}
