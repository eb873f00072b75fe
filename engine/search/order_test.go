package search

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/enginetest"
)

// TestPickOrder: the moves come out of pick, which resolves a pending
// capture's static exchange only when it comes first, in the order that
// scoring every exchange at once gives (by score, then by move code), with
// the same scores; across random positions of every variant, where many
// captures of cheaper pieces lose by exchange.
func TestPickOrder(t *testing.T) {
	demoted := 0
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		s := newSearcher(t, v)
		// A short search sizes the history tables and fills them a little.
		s.Search(context.Background(), engine.NewPosition(v), Limits{Nodes: 2000})
		rng := rand.New(rand.NewPCG(8, 9))
		for g := 0; g < 60; g++ {
			pos := enginetest.Playout(v, rng, 10+rng.IntN(60))
			s.pos = pos
			ml := &s.moves[1]
			ml.N = 0
			pos.GeneratePseudo(ml)
			// The reference: every exchange resolved, then one sort.
			s.scoreMoves(ml, 1, engine.NullMove)
			s.resolve(ml, 1)
			type scored struct {
				m engine.Move
				x int32
			}
			want := make([]scored, ml.N)
			for i := range want {
				want[i] = scored{ml.Moves[i], s.scores[1][i]}
				if s.scores[1][i] < 0 && pos.IsCapture(ml.Moves[i]) {
					demoted++
				}
			}
			slices.SortFunc(want, func(a, b scored) int {
				return cmp.Or(cmp.Compare(b.x, a.x), cmp.Compare(a.m, b.m))
			})
			// pick from fresh, partly pending scores.
			s.scoreMoves(ml, 1, engine.NullMove)
			for i := range want {
				m := s.pick(ml, 1, i)
				if m != want[i].m || s.scores[1][i] != want[i].x {
					t.Fatalf("%s: %s: move %d is %v scored %d, want %v scored %d", name, pos.FEN(), i, m, s.scores[1][i], want[i].m, want[i].x)
				}
			}
		}
	}
	if demoted < 50 {
		t.Errorf("only %d losing captures in the positions: the test needs more", demoted)
	}
}

// TestOrderKey: orderKey orders as pick's rule, by score and then by the
// lower move code, over the whole range of scores.
func TestOrderKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	xs := []int32{orderHash, orderCapture, orderBadCap, orderBadCap + orderCapture, 0, -1, 1, math.MaxInt32, math.MinInt32}
	for i := 0; i < 20000; i++ {
		x, y := xs[rng.IntN(len(xs))], int32(rng.Uint32())
		if rng.IntN(2) == 0 {
			y = x + int32(rng.IntN(3)) - 1
		}
		m, n := engine.Move(rng.Uint32()>>4), engine.Move(rng.Uint32()>>4)
		if x == y && m == n {
			continue
		}
		want := x > y || x == y && m < n
		if got := orderKey(x, m) > orderKey(y, n); got != want {
			t.Fatalf("orderKey(%d, %d) > orderKey(%d, %d) is %v", x, m, y, n, got)
		}
	}
}
