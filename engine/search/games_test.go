package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/enginetest"
)

// game plays a game between two players and returns White's score (1,
// 0.5, 0) and the number of plies; a player with a nil searcher moves at
// random. Between two searchers, a game is adjudicated when both sides'
// last scores agree that one side is ahead by at least adjudicate
// centipawns (0: never). Unfinished games after maxPlies count as draws.
func game(v *engine.Variant, pos *engine.Position, players [2]*Searcher, lims [2]Limits, rng *rand.Rand, maxPlies, adjudicate int) (float64, int, engine.Reason) {
	var ml engine.MoveList
	var white [2]int // last scores from White's point of view, by side
	for ply := 0; ply < maxPlies; ply++ {
		if r, why := pos.Outcome(); r != engine.Ongoing {
			return r.Score(), ply, why
		}
		side := pos.SideToMove()
		var m engine.Move
		if players[side] == nil {
			pos.GenerateLegal(&ml)
			m = ml.Moves[rng.IntN(ml.N)]
		} else {
			res := players[side].Search(context.Background(), pos, lims[side])
			m = res.Best
			white[side] = res.Score
			if side == engine.Black {
				white[side] = -res.Score
			}
			if adjudicate > 0 && ply > 0 && players[side.Other()] != nil {
				switch {
				case white[0] >= adjudicate && white[1] >= adjudicate:
					return 1, ply, "adjudicated"
				case white[0] <= -adjudicate && white[1] <= -adjudicate:
					return 0, ply, "adjudicated"
				}
			}
		}
		pos.Make(m)
	}
	return 0.5, maxPlies, "unfinished"
}

// TestBeatsRandom: at a few hundred nodes per move the engine never loses
// to a random mover, with either colour, in any variant.
func TestBeatsRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games")
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		for col := 0; col < 2; col++ {
			var players [2]*Searcher
			players[col] = newSearcher(t, v)
			lims := [2]Limits{{Nodes: 600}, {Nodes: 600}}
			w, plies, why := game(v, engine.NewPosition(v), players, lims, rng, 400, 0)
			score := w
			if col == 1 {
				score = 1 - w
			}
			t.Logf("%-18s engine as %s: %.1f in %d plies (%s)", name, engine.Color(col), score, plies, why)
			if score < 0.5 {
				t.Errorf("%s: the engine lost to a random mover as %s", name, engine.Color(col))
			}
		}
	}
}

// TestDeeperBeatsShallower: ten times the nodes per move wins a small
// match in each of three variants (game pairs from random openings with
// colours swapped; both engines must agree on a decisive score of 6
// pawns to adjudicate): the deeper side must score more than 75%, which a
// searcher no better than its opponent reaches with probability below 4%
// per variant (binomial, 8 games, ignoring draws).
func TestDeeperBeatsShallower(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games")
	}
	const games = 8
	for _, name := range []string{"chess", "tamerlane2", "tamerlane"} {
		v := engine.MustVariant(name, nil)
		rng := rand.New(rand.NewPCG(4, 4))
		total := 0.0
		var start *engine.Position
		for g := 0; g < games; g++ {
			if g%2 == 0 {
				start = enginetest.Playout(v, rng, 2+g%3)
			}
			deep := g % 2 // deeper side's colour
			var players [2]*Searcher
			var lims [2]Limits
			players[deep], lims[deep] = newSearcher(t, v), Limits{Nodes: 800}
			players[1-deep], lims[1-deep] = newSearcher(t, v), Limits{Nodes: 80}
			w, plies, why := game(v, start.Clone(), players, lims, rng, 200, 600)
			score := w
			if deep == 1 {
				score = 1 - w
			}
			t.Logf("%s game %d: deeper as %s scores %.1f in %d plies (%s)", name, g, engine.Color(deep), score, plies, why)
			total += score
		}
		if total <= 0.75*games {
			t.Errorf("%s: deeper search scored %.1f/%d", name, total, games)
		}
	}
}
