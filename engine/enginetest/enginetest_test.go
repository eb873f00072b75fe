package enginetest

import (
	"math/rand/v2"
	"testing"

	"tamerlane/engine"
)

// TestPlayout checks the playout is legal (its FEN parses back to the same
// position), reproducible from the seed, and that 0 plies play nothing.
func TestPlayout(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	a := Playout(v, rand.New(rand.NewPCG(1, 2)), 40)
	b := Playout(v, rand.New(rand.NewPCG(1, 2)), 40)
	if a.FEN() != b.FEN() {
		t.Fatalf("same seed, different playouts: %s vs %s", a.FEN(), b.FEN())
	}
	if a.FEN() == engine.NewPosition(v).FEN() {
		t.Fatal("40 plies left the start position unchanged")
	}
	if _, err := engine.ParseFEN(v, a.FEN()); err != nil {
		t.Fatalf("playout reached an invalid position %s: %v", a.FEN(), err)
	}
	if p := Playout(v, rand.New(rand.NewPCG(1, 2)), 0); p.FEN() != engine.NewPosition(v).FEN() {
		t.Fatalf("0 plies moved: %s", p.FEN())
	}
}
