package eval

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"tamerlane/engine"
)

// TestPlacementCounted checks the raw values of the placement tables on
// hand-made positions (White's count minus Black's): every table term
// listed must have the given value and every other one must be 0.
func TestPlacementCounted(t *testing.T) {
	cases := []struct {
		variant, fen string
		want         map[string]int
	}{
		// The start position: both sides alike.
		{"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", map[string]int{}},
		// A knight on d5: the 4th file from the nearer edge, its own 5th
		// rank. The Kings on e1 and e8 cancel (e is d's mirror image, the
		// first rank has no term).
		{"chess", "4k3/8/8/3N4/8/8/8/4K3 w - - 0 1", map[string]int{"file.N.d": 1, "rank.N.5": 1}},
		// A black knight on c3 stands on its own 6th rank; a white pawn on
		// g2 on the b-file's mirror image, its own 2nd rank.
		{"chess", "4k3/8/8/8/8/2n5/6P1/4K3 w - - 0 1", map[string]int{"file.N.c": -1, "rank.N.6": -1, "file.pawns.b": 1, "rank.pawns.2": 1}},
		// Rooks in the corners: no term; the white King on g1 (b's mirror).
		{"chess", "r3k2r/8/8/8/8/8/8/R5KR w - - 0 1", map[string]int{"file.K.b": 1, "file.K.d": -1}},
		// Historical Tamerlane: the black King in a citadel has no
		// placement term; the white King stands on the f-file, the centre.
		{"tamerlane", "11/11/11/11/11/11/11/11/11[k]/5K5 b - 00 0 1", map[string]int{"file.K.f": 1}},
	}
	for _, c := range cases {
		checkRawTerms(t, New(NewWeights(engine.MustVariant(c.variant, nil))), c.fen, c.want, placementTerm)
	}
}

// placementTerm reports whether a term name is one of the placement tables.
func placementTerm(name string) bool {
	if strings.HasPrefix(name, "file.open.") || strings.HasPrefix(name, "file.half.") {
		return false
	}
	return strings.HasPrefix(name, "file.") || strings.HasPrefix(name, "rank.")
}

// TestPlacementRegistry checks the tables' shape from the piece table: per
// non-pawn type (royals included) files/2 rounded up minus one file terms
// and ranks minus one rank terms, one pair of tables shared by every pawn
// type, and every table after every older term.
func TestPlacementRegistry(t *testing.T) {
	for _, name := range []string{"chess", "shatranj", "tamerlane", "tamerlane2", "full-tamerlane"} {
		v := engine.MustVariant(name, nil)
		r := RegistryOf(v)
		files, ranks := map[string]int{}, map[string]int{}
		first := -1
		for i, n := range r.Names() {
			term := strings.TrimSuffix(strings.TrimSuffix(n, ".mg"), ".eg")
			if !placementTerm(term) {
				if first >= 0 {
					t.Errorf("%s: %s comes after the placement tables", name, n)
				}
				continue
			}
			if !strings.HasSuffix(n, ".mg") {
				continue
			}
			if first < 0 {
				first = i
			}
			parts := strings.Split(term, ".")
			if len(parts) != 3 {
				t.Fatalf("%s: malformed placement term %s", name, term)
			}
			if parts[0] == "file" {
				files[parts[1]]++
			} else {
				ranks[parts[1]]++
			}
		}
		pawnTypes, others := 0, 0
		for pt := 1; pt <= v.NumTypes(); pt++ {
			d := v.Def(engine.PieceType(pt))
			if d.Pawn {
				pawnTypes++
				if files[d.Token] != 0 || ranks[d.Token] != 0 {
					t.Errorf("%s: pawn type %s has its own tables", name, d.Token)
				}
				continue
			}
			others++
			if files[d.Token] != (v.Files+1)/2-1 || ranks[d.Token] != v.Ranks-1 {
				t.Errorf("%s: %s has %d file and %d rank terms, want %d and %d", name, d.Token, files[d.Token], ranks[d.Token], (v.Files+1)/2-1, v.Ranks-1)
			}
		}
		if pawnTypes > 0 && (files["pawns"] != (v.Files+1)/2-1 || ranks["pawns"] != v.Ranks-1) {
			t.Errorf("%s: the pawns have %d file and %d rank terms", name, files["pawns"], ranks["pawns"])
		}
		if want := others + min(pawnTypes, 1); len(files) != want || len(ranks) != want {
			t.Errorf("%s: tables for %d and %d kinds of piece, want %d", name, len(files), len(ranks), want)
		}
	}
}

// TestPlacementEvaluate checks that the placement weights reach Evaluate
// (which sums them apart from the other terms) exactly as Features says.
func TestPlacementEvaluate(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	w := NewWeights(v)
	for _, kv := range []struct {
		name string
		x    float64
	}{{"file.N.d.mg", 30}, {"file.N.d.eg", 10}, {"rank.N.5.mg", 7.5}, {"rank.pawns.2.eg", -4}} {
		if err := w.Set(kv.name, kv.x); err != nil {
			t.Fatal(err)
		}
	}
	ev := New(w)
	pos, err := engine.ParseFEN(v, "4k3/8/8/3N4/8/8/6P1/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	ph := ev.PhaseOf(pos)
	want := (30+7.5)*float64(ph)/Phase + 10*float64(Phase-ph)/Phase - 4*float64(Phase-ph)/Phase
	if got := ev.EvaluateWhite(pos); float64(got) < want-0.5 || float64(got) > want+0.5 {
		t.Errorf("Evaluate %d, want %.2f (phase %d)", got, want, ph)
	}
	// The same position seen by Black: the knight and pawn are hers now.
	mirror, err := engine.ParseFEN(v, "4k3/6p1/8/3n4/8/8/8/4K3 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if got := ev.Evaluate(mirror); float64(got) < want-0.5 || float64(got) > want+0.5 {
		t.Errorf("Black's view: Evaluate %d, want %.2f", got, want)
	}
}

// TestEvaluateExact checks that Evaluate, which adds each piece's
// precomputed pieceSum and leaves out the groups of terms whose weights
// are all 0, equals exactly the fixed-point sum over every raw term
// counted one by one (as Features counts them), in every variant, with
// the default table, random non-integer weights, and random weights with
// about half the terms at 0.
func TestEvaluateExact(t *testing.T) {
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		rng := rand.New(rand.NewPCG(21, 22))
		rw, sparse := NewWeights(v), NewWeights(v)
		for i := range rw.Values {
			rw.Values[i] = math.Round((rng.Float64()*60-30)*1000) / 1000
		}
		for i := 0; i < len(sparse.Values); i += 2 {
			if rng.IntN(2) == 0 {
				sparse.Values[i], sparse.Values[i+1] = rw.Values[i], rw.Values[i+1]
			}
		}
		for ti, w := range []*Weights{defaultWeights(t, v), rw, sparse} {
			ev := New(w)
			for _, pos := range samples(v, 17, 20, 150) {
				phase := ev.compute(pos, true)
				mg, eg := int64(phase), int64(Phase-phase)
				var sum int64
				for i, x := range ev.raw[:ev.nterms] {
					sum += int64(x) * (ev.wmg[i]*mg + ev.weg[i]*eg)
				}
				if got, want := ev.EvaluateWhite(pos), roundFixed(sum); got != want {
					t.Errorf("%s table %d: %s: Evaluate %d, term by term %d", name, ti, pos.FEN(), got, want)
				}
			}
		}
	}
}
