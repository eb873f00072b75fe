package values

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"tamerlane/selfplay"
)

// TestRegressionReadsSelfPlayMatches: the regression reads self-play
// streams and matches of a program against itself (here the same table at
// two node limits, as an outside engine's self-play is configured), never
// a match between two different programs; finished and in progress alike.
func TestRegressionReadsSelfPlayMatches(t *testing.T) {
	dir := t.TempDir()
	hand, err := filepath.Abs("../data/hand/chess.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfgPath := filepath.Join(t.TempDir(), "run.yaml")
	cfgText := "seed: 5\nnodes: 100\nmax_plies: 60\nopenings: {plies: 4, max_score: 0}\n" +
		"dataset: {positions_per_game: 8, skip_plies: 4}\n" +
		"variants:\n  - {variant: chess, pairs: 2}\n" +
		"matches:\n" +
		"  - {name: same, variant: chess, pairs: 3}\n" +
		"  - {name: other, variant: chess, b: " + hand + ", pairs: 4}\n"
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := selfplay.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := selfplay.Run(context.Background(), cfg, dir, selfplay.RunOptions{Workers: 2, Factory: selfplay.GreedyFactory()}); err != nil {
		t.Fatal(err)
	}
	same, err := selfplay.SameProgramMatches(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !same["same"] || same["other"] || len(same) != 1 {
		t.Errorf("same-program matches %v, want only \"same\"", same)
	}
	const want = 2*2 + 2*3 // the self-play stream's games and the same-program match's
	for i, stage := range []string{"finished", "in progress"} {
		if i == 1 {
			if err := os.Remove(filepath.Join(dir, selfplay.SummaryName)); err != nil {
				t.Fatal(err)
			}
		}
		reg, err := CollectRegression([]string{dir}, SampleOptions{MinPly: 4})
		if err != nil {
			t.Fatal(err)
		}
		vs := reg["chess"]
		if vs == nil {
			t.Fatalf("%s: no chess samples", stage)
		}
		if vs.Games != want {
			t.Errorf("%s: %d regression games, want %d", stage, vs.Games, want)
		}
	}
}
