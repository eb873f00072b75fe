package search

import (
	"context"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/eval"
)

// TestPruningSparesMatingChecks: with the shipped tables, every two-move
// win of TestMates is found as a mate in two at depth 2n + 3 (one more
// than TestMates: with the shatranj table, reverse futility prunes the
// line of the non-checking first move at depth 6). The tables' weights
// put some mating checks late in the move list, where the shallow
// pruning of quiet moves (late-move, continuation history and exchange
// pruning) would skip them: before checks were spared, the shako and
// full-Tamerlane wins were not found at depth 7.
func TestPruningSparesMatingChecks(t *testing.T) {
	for _, c := range mateCases {
		if c.n != 2 {
			continue
		}
		for _, name := range c.variants {
			v := engine.MustVariant(name, nil)
			w, err := eval.Default(v)
			if err != nil {
				t.Fatal(err)
			}
			pos := mustFEN(t, v, c.fen)
			s := New(eval.New(w), 4)
			res := s.Search(context.Background(), pos, Limits{Depth: 2*c.n + 3})
			if res.Mate != c.n || !winningMove(pos, res.Best, c.n) {
				t.Errorf("%s %s: mate %d with %s (score %d) at depth %d, want a mate in %d", name, c.fen, res.Mate, pos.Coord(res.Best), res.Score, 2*c.n+3, c.n)
			}
		}
	}
}
