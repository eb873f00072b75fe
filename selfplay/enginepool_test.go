package selfplay

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tamerlane/engine"
)

// TestEnginePoolKeepsEngines runs four games between two copies of an
// outside engine (this project's UCI server, which logs every command it
// is sent) with the pool and with restart: true. With the pool the run
// starts two processes in all and sends each game ucinewgame; with
// restart every game starts and ends two. The games are the same either
// way (the server clears its search at ucinewgame), and no process is
// left when Run returns.
func TestEnginePoolKeepsEngines(t *testing.T) {
	var moves [2][]string
	for i, restart := range []bool{false, true} {
		log := filepath.Join(t.TempDir(), "commands.log")
		t.Setenv(fakeEngineLogEnv, log)
		spec := fakeSpec(t, "uci")
		spec.Nodes = 60
		spec.Restart = restart
		cfg := engineSelfPlay(t, "chess", spec, 2, 5, 30)
		dir := t.TempDir()
		if _, err := Run(context.Background(), cfg, dir, RunOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		if kids := children(t); len(kids) > 0 {
			t.Errorf("restart %v: engine processes left after the run: %v", restart, kids)
		}
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		count := map[string]int{}
		for l := range strings.SplitSeq(string(data), "\n") {
			count[l]++
		}
		starts := 2
		if restart {
			starts = 8
		}
		if count["uci"] != starts || count["quit"] != starts || count["ucinewgame"] != 8 {
			t.Errorf("restart %v: %d uci, %d quit, %d ucinewgame; want %d, %d, 8",
				restart, count["uci"], count["quit"], count["ucinewgame"], starts, starts)
		}
		for g, err := range Games(dir) {
			if err != nil {
				t.Fatal(err)
			}
			moves[i] = append(moves[i], strings.Join(g.Moves, " "))
		}
		slices.Sort(moves[i])
	}
	if len(moves[0]) != 4 || !slices.Equal(moves[0], moves[1]) {
		t.Errorf("games with the pool differ from games with restart:\n%q\n%q", moves[0], moves[1])
	}
}

// TestEnginePoolDropsFailedEngines checks that an engine goes back to the
// pool only after a game it finished cleanly: one that played an illegal
// move is ended, one that played a whole game is kept (and ended by
// close).
func TestEnginePoolDropsFailedEngines(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	for _, tc := range []struct {
		mode string
		kept int
	}{{"illegal", 0}, {"uci", 1}} {
		t.Run(tc.mode, func(t *testing.T) {
			spec := fakeSpec(t, tc.mode)
			spec.Nodes = 60
			pool := newEnginePool()
			cfg := DefaultConfig()
			cfg.MaxPlies = 20
			g := &gameSetup{
				v: v, root: engine.NewPosition(v).FEN(), cfg: cfg,
				players: [2]PlayerSpec{{Variant: v, Engine: spec}, {Variant: v}},
				factory: pool.wrap(ExternalFactory(GreedyFactory())),
			}
			if _, err := playGame(context.Background(), g); err != nil {
				t.Fatal(err)
			}
			kept := 0
			for _, list := range pool.idle {
				kept += len(list)
			}
			if kept != tc.kept {
				t.Errorf("%d engines kept after the game, want %d", kept, tc.kept)
			}
			if kids := children(t); len(kids) != tc.kept {
				t.Errorf("engine processes after the game: %v, want %d", kids, tc.kept)
			}
			pool.close()
			if kids := children(t); len(kids) > 0 {
				t.Errorf("engine processes left after close: %v", kids)
			}
		})
	}
}
