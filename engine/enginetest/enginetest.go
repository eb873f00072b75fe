// Package enginetest holds helpers that the tests of the packages built on
// the engine share (engine/eval, engine/search). It is imported only by
// tests.
package enginetest

import (
	"math/rand/v2"

	"tamerlane/engine"
)

// Playout plays up to plies random legal moves of v from the start
// position, stopping early when no move is left. Draws by rule do not stop
// it, so the position stays valid but may be past the end of a game.
func Playout(v *engine.Variant, rng *rand.Rand, plies int) *engine.Position {
	pos := engine.NewPosition(v)
	var ml engine.MoveList
	for i := 0; i < plies; i++ {
		pos.GenerateLegal(&ml) // no moves after a citadel entry either
		if ml.N == 0 {
			break
		}
		pos.Make(ml.Moves[rng.IntN(ml.N)])
	}
	return pos
}
