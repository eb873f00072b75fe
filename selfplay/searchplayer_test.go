package selfplay

import (
	"context"
	"io"
	"math/rand/v2"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/enginetest"
	"tamerlane/engine/search"
)

// TestReusedSearcherPlaysAsNew: a closed player's searcher serves a later
// player of the factory, and that player, after NewGame, chooses the same
// moves with the same scores, depths and node counts as a player of a new
// factory (whose searcher has never searched), move after move of a game.
func TestReusedSearcherPlaysAsNew(t *testing.T) {
	v := engine.MustVariant("tamerlane", nil)
	rng := rand.New(rand.NewPCG(4, 4))
	spec := PlayerSpec{Variant: v, Limits: Limits{Nodes: 3000}, TTMiB: 1, Seed: 9}
	f := SearchFactory()
	used := map[*search.Searcher]bool{}
	var reused Player
	for try := 0; try < 20; try++ {
		p, err := f(spec)
		if err != nil {
			t.Fatal(err)
		}
		s := p.(*searchPlayer).s
		if used[s] {
			reused = p
			break
		}
		used[s] = true
		// Fill the searcher's table, history and per-ply records.
		p.NewGame()
		pos := enginetest.Playout(v, rng, 20)
		for i := 0; i < 12; i++ {
			m, _, err := p.Move(context.Background(), pos)
			if err != nil {
				t.Fatal(err)
			}
			pos.Make(m)
		}
		if err := p.(io.Closer).Close(); err != nil {
			t.Fatal(err)
		}
	}
	if reused == nil {
		t.Fatal("the factory never handed a closed player's searcher to a new player")
	}
	fresh, err := SearchFactory()(spec)
	if err != nil {
		t.Fatal(err)
	}
	reused.NewGame()
	fresh.NewGame()
	pos := enginetest.Playout(v, rng, 20)
	for i := 0; i < 40; i++ {
		if r, _ := pos.Outcome(); r != engine.Ongoing {
			break
		}
		mr, ir, err := reused.Move(context.Background(), pos)
		if err != nil {
			t.Fatal(err)
		}
		mf, inf, err := fresh.Move(context.Background(), pos)
		if err != nil {
			t.Fatal(err)
		}
		if mr != mf || ir != inf {
			t.Fatalf("ply %d of %s: reused searcher %v %+v, new one %v %+v", i, pos.FEN(), mr, ir, mf, inf)
		}
		pos.Make(mf)
	}
}
