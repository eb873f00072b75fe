package engine

import "testing"

// TestCheckFilter: on random positions of every rule set, from the start
// and from the targeted positions, a pseudo-legal move that the check
// filter says cannot give check leaves the other side not in check. The
// filter must also rule out some moves and let through some checks.
func TestCheckFilter(t *testing.T) {
	games, plies := 3, 160
	if testing.Short() || raceOn {
		games, plies = 1, 80
	}
	ruled, checks := 0, 0
	for _, rs := range allRuleSets() {
		t.Run(rs.String(), func(t *testing.T) {
			v := mustRuleVariant(t, rs)
			zones := NewCheckZones(v)
			starts := append([]string{v.StartFEN}, targeted(v)...)
			var ml MoveList
			for si, start := range starts {
				for g := 0; g < games; g++ {
					p := mustFEN(t, v, start)
					failed := false
					playout(newRNG(uint64(65537*si+g+9)), p, plies, func(p *Position) bool {
						f := zones.Filter(p)
						ml.N = 0
						p.GeneratePseudo(&ml)
						for _, m := range ml.Slice() {
							may := f.MayGiveCheck(m)
							p.Make(m)
							check := p.InCheck()
							p.Unmake()
							if check && !may {
								t.Errorf("%s: %s gives check, the filter says it cannot", p.FEN(), p.Coord(m))
								failed = true
							}
							if !may {
								ruled++
							} else if check {
								checks++
							}
						}
						return !failed
					})
				}
			}
		})
	}
	if ruled == 0 || checks == 0 {
		t.Errorf("%d moves ruled out, %d checks let through", ruled, checks)
	}
}
