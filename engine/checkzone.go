package engine

// squareSet is a set of mailbox squares.
type squareSet [(NumSquares + 63) / 64]uint64

func (z *squareSet) add(s int) { z[s>>6] |= 1 << (s & 63) }

func (z *squareSet) has(s Square) bool { return z[s>>6]>>(s&63)&1 != 0 }

// CheckZones answer, without making a move, that it cannot give check.
// The zone of a royal square k for an attacking side holds k and every
// square Attacked(k, side) reads: the origins of its leaps, the rays of
// its slides and hops up to the first square off the board, the paths and
// origins of its bent slides, and the citadel beside k. A normal move or a
// double step changes the board on its origin and destination only, so
// if neither is in the zone, whether k is attacked does not change.
type CheckZones struct {
	zone [2][NumSquares]squareSet // by attacking side and royal square
}

// NewCheckZones returns the zones of v's squares (built once per variant;
// 35 KB).
func NewCheckZones(v *Variant) *CheckZones {
	z := &CheckZones{}
	c := &v.c
	var in [NumSquares]bool
	for s := range Square(NumSquares) {
		in[s] = v.OnBoard(s)
	}
	for k := range Square(NumSquares) {
		if !in[k] {
			// A royal in a citadel is never attacked (docs/rules.md 3.1).
			if v.IsCitadel(k) {
				z.zone[White][k].add(int(k))
				z.zone[Black][k].add(int(k))
			}
			continue
		}
		for by := range z.zone {
			zk := &z.zone[by][k]
			zk.add(int(k))
			at := &c.att[by]
			for _, l := range at.leaps {
				zk.add(int(k) - l.d)
			}
			for _, sa := range at.slides {
				t := int(k)
				for {
					t -= sa.d
					zk.add(t)
					if !in[t] {
						break
					}
				}
			}
			for _, bt := range at.bents {
				t := int(k)
				for n := 1; n <= bt.max; n++ {
					t -= bt.then
					zk.add(t)
					if !in[t] {
						break
					}
					if n >= bt.min {
						zk.add(t - bt.first)
					}
				}
			}
			if cs := c.nearCit[k]; cs != NoSquare {
				zk.add(int(cs))
			}
		}
	}
	return z
}

// CheckFilter is CheckZones' answer for the moves of one position.
type CheckFilter struct {
	zone *squareSet // nil: any move may give check
}

// Filter returns the check filter of the moves of p, whose variant must be
// the zones'. It costs one Attacked test: when the other side has a single
// royal that is not attacked yet, only the moves that touch its zone can
// attack it.
func (z *CheckZones) Filter(p *Position) CheckFilter {
	us, them := p.side, p.side.Other()
	if p.nroyal[them] != 1 {
		return CheckFilter{}
	}
	k := p.royals[them][0]
	if p.Attacked(k, us) {
		return CheckFilter{}
	}
	return CheckFilter{zone: &z.zone[us][k]}
}

// MayGiveCheck reports false only if the pseudo-legal move m certainly
// leaves the other side not in check (InCheck after Make is false).
// Moves other than normal moves and double steps may always give check.
func (f CheckFilter) MayGiveCheck(m Move) bool {
	if f.zone == nil {
		return true
	}
	if k := m.Kind(); k != KindNormal && k != KindDouble {
		return true
	}
	return f.zone.has(m.From()) || f.zone.has(m.To())
}
