package eval

import (
	"maps"
	"math/rand/v2"
	"testing"

	"tamerlane/engine"
)

// TestPawnCacheSameTerms: along random games of every variant, an
// evaluator whose pawn-structure cache has seen the game so far gives
// every raw term and the evaluation exactly as one without the cache, and
// the cache finds most pawn structures again (a pawn structure changes on
// few moves), so the cached path is the one tested.
func TestPawnCacheSameTerms(t *testing.T) {
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		w := defaultWeights(t, v)
		cached, plain := New(w), New(w)
		plain.pawnCache = nil
		rng := rand.New(rand.NewPCG(3, 14))
		var ml engine.MoveList
		evals := 0
		for g := 0; g < 12; g++ {
			pos := engine.NewPosition(v)
			for ply := 0; ply < 160; ply++ {
				got, gotPhase := cached.Raw(pos)
				want, wantPhase := plain.Raw(pos)
				if !maps.Equal(got, want) || gotPhase != wantPhase {
					t.Fatalf("%s: %s: raw terms with the cache\n%v\nwithout\n%v", name, pos.FEN(), got, want)
				}
				if a, b := cached.Evaluate(pos), plain.Evaluate(pos); a != b {
					t.Fatalf("%s: %s: Evaluate %d with the cache, %d without", name, pos.FEN(), a, b)
				}
				evals += 2
				pos.GenerateLegal(&ml)
				if ml.N == 0 {
					break
				}
				pos.Make(ml.Moves[rng.IntN(ml.N)])
			}
		}
		if plain.pawnHits != 0 {
			t.Errorf("%s: %d cache hits without a cache", name, plain.pawnHits)
		}
		if cached.pawnHits < evals/2 {
			t.Errorf("%s: the cache found %d of %d pawn structures, want at least half", name, cached.pawnHits, evals)
		}
	}
}

// TestPawnCacheKey: positions that share a cache slot's pawns but not
// everything the pawn terms read, evaluated one after the other by the
// same evaluator, give the terms of an evaluator without the cache: the
// same squares with the colours swapped, and the same pawns with the
// royals elsewhere (the passed-path terms are not cached).
func TestPawnCacheKey(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	w := defaultWeights(t, v)
	cached, plain := New(w), New(w)
	plain.pawnCache = nil
	for _, fen := range []string{
		"4k3/8/8/3P4/8/8/8/4K3 w - - 0 1",
		"4k3/8/8/3p4/8/8/8/4K3 w - - 0 1",
		"4k3/8/8/3P4/8/8/8/4K3 w - - 0 1",
		"8/8/2k5/3P4/8/8/8/4K3 b - - 0 1",
		"8/8/8/3P4/8/4k3/8/4K3 w - - 0 1",
		"8/3K4/8/3P4/8/4k3/8/8 w - - 0 1",
	} {
		pos, err := engine.ParseFEN(v, fen)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := cached.Raw(pos)
		want, _ := plain.Raw(pos)
		if !maps.Equal(got, want) {
			t.Errorf("%s: raw terms with the cache\n%v\nwithout\n%v", fen, got, want)
		}
	}
	if cached.pawnHits < 4 {
		t.Errorf("the cache found %d pawn structures again, want 4", cached.pawnHits)
	}
}
