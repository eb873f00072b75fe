package engine

// Mobility returns, for the piece on s, the set of squares it attacks (the
// squares Reach marks in cover: every square of the playing area that one
// of its capturing components reaches, whatever stands there; never a
// citadel), its mobility n (Reach's count) and how many of the squares n
// counts are in avoid (ReachAvoiding's count). s must hold a piece;
// Mobility does not allocate.
func (p *Position) Mobility(s Square, avoid Bitboard) (att Bitboard, n, avoided int) {
	b := &p.board
	c := &p.v.c
	idx := &c.index
	pc := b[s] & 0x7f
	g := &c.gen[pc]
	them := Piece(pc.Color().Other())
	count := func(to int) {
		n++
		if avoid.Has(int(idx[to])) {
			avoided++
		}
	}
	mark := func(to int) { att = att.Or(BitAt(int(idx[to]))) }
	for _, l := range g.leaps {
		to := int(s) + l.d
		t := b[to]
		if t == Empty {
			if l.mode != CaptureOnly {
				count(to)
			}
			if l.mode != MoveOnly {
				mark(to)
			}
			continue
		}
		if t&0x80 != 0 || l.mode == MoveOnly {
			continue
		}
		mark(to)
		if t&1 == them {
			count(to)
		}
	}
	for _, r := range g.rides {
		to := int(s) + r.first
		if r.first != 0 && b[to] != Empty {
			continue // a bent slide's first step is blocked
		}
		for k := 1; k <= r.max; k++ {
			to += r.d
			t := b[to]
			if t == Empty {
				if k >= r.min {
					if r.mode != CaptureOnly {
						count(to)
					}
					if r.mode != MoveOnly {
						mark(to)
					}
				}
				continue
			}
			if t&0x80 == 0 && k >= r.min && r.mode != MoveOnly {
				mark(to)
				if t&1 == them {
					count(to)
				}
			}
			break
		}
	}
	for _, h := range g.hops {
		to := int(s) + h.d
		for b[to] == Empty {
			to += h.d
		}
		if b[to]&0x80 != 0 {
			continue
		}
		to += h.d
		for b[to] == Empty {
			if h.mode != CaptureOnly {
				count(to)
			}
			if h.mode != MoveOnly {
				mark(to)
			}
			to += h.d
		}
		if t := b[to]; t&0x80 == 0 && h.mode != MoveOnly {
			mark(to)
			if t&1 == them {
				count(to)
			}
		}
	}
	return att, n, avoided
}
