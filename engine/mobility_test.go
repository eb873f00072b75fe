package engine

import "testing"

// TestMobilityMatchesReach checks Mobility against ReachAvoiding for every
// piece of random positions of every variant and rule option, with a
// random set of squares to avoid: the same attacked squares, mobility and
// avoided count; and AttackSet gives the same attacked squares.
func TestMobilityMatchesReach(t *testing.T) {
	for _, rs := range allRuleSets() {
		v := mustRuleVariant(t, rs)
		rng := newRNG(77)
		for g := 0; g < 3; g++ {
			p := NewPosition(v)
			playout(rng, p, 120, func(p *Position) bool {
				var avoidBytes [NumSquares]uint8
				var avoid Bitboard
				for s := Square(0); s < NumSquares; s++ {
					if i := v.Index(s); i >= 0 && rng.IntN(3) == 0 {
						avoidBytes[s] = 1
						avoid = avoid.Or(BitAt(i))
					}
				}
				for c := White; c <= Black; c++ {
					for _, s := range p.Pieces(c) {
						var cover [NumSquares]uint8
						n, a := p.ReachAvoiding(s, &cover, &avoidBytes)
						var want Bitboard
						for q := Square(0); q < NumSquares; q++ {
							if cover[q] != 0 {
								want = want.Or(BitAt(v.Index(q)))
							}
						}
						att, n2, a2 := p.Mobility(s, avoid)
						if att != want || n != n2 || a != a2 {
							t.Fatalf("%s %s: Mobility(%s) = %v, %d, %d; ReachAvoiding %v, %d, %d", rs, p.FEN(), s, att, n2, a2, want, n, a)
						}
						if at := p.AttackSet(s); at != want {
							t.Fatalf("%s %s: AttackSet(%s) = %v, want %v", rs, p.FEN(), s, at, want)
						}
					}
				}
				return true
			})
		}
	}
}
