package engine

import (
	"slices"
	"testing"
)

// liftCaptureFENs are Tamerlane positions where a waiting pawn of pawns
// can lift onto an enemy piece (docs/rules.md 3.4.2): the rook on d6 stands
// where the pawn would attack the knight on c7 and the rook on e7.
var liftCaptureFENs = []string{
	"e2r1PP1n3/6k4/2pr8/2n1r6/3r7/5r5/2R1N6/11/11/4pp2K3 w Ss 11 0 1",
}

// TestGenerateCapturesIsFilter: on random positions of every rule set,
// from the start and from the targeted positions (en passant, promotions,
// citadels, pawns of pawns, cannons), GenerateCaptures gives exactly the
// captures and promotions of GeneratePseudo, in the same order. The moves
// seen must include every kind the filter can keep.
func TestGenerateCapturesIsFilter(t *testing.T) {
	games, plies := 3, 160
	if testing.Short() || raceOn {
		games, plies = 1, 80
	}
	seen := map[MoveKind]int{}
	for _, rs := range allRuleSets() {
		t.Run(rs.String(), func(t *testing.T) {
			v := mustRuleVariant(t, rs)
			starts := append([]string{v.StartFEN}, targeted(v)...)
			for _, f := range liftCaptureFENs {
				if _, err := ParseFEN(v, f); err == nil && v.Options["swap"] != "off" {
					starts = append(starts, f)
				}
			}
			var pseudo, caps MoveList
			for si, start := range starts {
				for g := 0; g < games; g++ {
					p := mustFEN(t, v, start)
					failed := false
					playout(newRNG(uint64(104729*si+g+5)), p, plies, func(p *Position) bool {
						pseudo.N, caps.N = 0, 0
						p.GeneratePseudo(&pseudo)
						p.GenerateCaptures(&caps)
						var want []Move
						for _, m := range pseudo.Slice() {
							if p.IsCapture(m) || m.Kind() == KindPromotion {
								want = append(want, m)
								seen[m.Kind()]++
							}
						}
						if got := caps.Slice(); !slices.Equal(got, want) {
							t.Errorf("%s: GenerateCaptures %v, want %v", p.FEN(), got, want)
							failed = true
						}
						return !failed
					})
				}
			}
		})
	}
	for _, k := range []MoveKind{KindNormal, KindEnPassant, KindPromotion, KindLift, KindArrive, KindRelocate} {
		if seen[k] == 0 {
			t.Errorf("no capture or promotion of kind %d seen", k)
		}
	}
}

// BenchmarkCaptures compares GenerateCaptures with generating every
// pseudo-legal move and filtering them, on positions of random games.
func BenchmarkCaptures(b *testing.B) {
	for _, name := range VariantNames() {
		v := MustVariant(name, nil)
		var ps []*Position
		for g := 0; g < 8; g++ {
			p := NewPosition(v)
			playout(newRNG(uint64(g+1)), p, 40, func(p *Position) bool {
				ps = append(ps, p.Clone())
				return true
			})
		}
		var ml MoveList
		b.Run(name+"/filter", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p := ps[i%len(ps)]
				ml.N = 0
				p.GeneratePseudo(&ml)
				n := 0
				for _, m := range ml.Slice() {
					if m.Kind() == KindPromotion || p.IsCapture(m) {
						ml.Moves[n] = m
						n++
					}
				}
				ml.N = n
			}
		})
		b.Run(name+"/captures", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				ml.N = 0
				ps[i%len(ps)].GenerateCaptures(&ml)
			}
		})
	}
}
