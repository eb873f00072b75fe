package engine

// CheckSquare is a square from which pieces could attack a target square,
// with the codes (bit 1<<Piece) of the pieces that would.
type CheckSquare struct {
	Square Square
	Codes  uint64
}

// CheckSquares appends to dst the squares from which a piece of side by
// whose code is in codes would attack the square k in the current
// occupancy, each with the codes that would: where such a piece could
// give check to a royal standing on k. The squares are on the playing
// area, outside the citadels, and empty or held by the other side (a
// square held by side by is no place for another of its pieces). Leaps,
// slides (with their distance limits) and bent slides are looked at the
// way Attacked looks at them; hops are not (a cannon's check needs a
// screen that the move itself may remove), and neither are the steps out
// of a citadel. A square reached by two movement kinds is listed twice.
// k must be on the playing area; CheckSquares does not allocate beyond
// dst's growth.
func (p *Position) CheckSquares(k Square, by Color, codes uint64, dst []CheckSquare) []CheckSquare {
	c := &p.v.c
	if c.citBit[k] != 0 {
		return dst
	}
	b := &p.board
	at := &c.att[by]
	// open reports whether a piece of by could stand on t after a move.
	open := func(t int) bool {
		pc := b[t]
		return pc == Empty || pc&0x80 == 0 && pc.Color() != by
	}
	for i := range at.leaps {
		l := &at.leaps[i]
		if m := l.mask & codes; m != 0 && open(int(k)-l.d) {
			dst = append(dst, CheckSquare{Square(int(k) - l.d), m})
		}
	}
	for i := range at.slides {
		sa := &at.slides[i]
		sliders := sa.mask
		for _, e := range sa.extra {
			sliders |= e.mask
		}
		if sliders&codes == 0 {
			continue
		}
		t := int(k)
		for n := 1; ; n++ {
			t -= sa.d
			if !open(t) {
				break
			}
			m := sa.mask & codes
			for _, e := range sa.extra {
				if n >= e.min && n <= e.max {
					m |= e.mask & codes
				}
			}
			if m != 0 {
				dst = append(dst, CheckSquare{Square(t), m})
			}
			if b[t] != Empty {
				break
			}
		}
	}
	for i := range at.bents {
		bt := &at.bents[i]
		m := bt.mask & codes
		if m == 0 {
			continue
		}
		t := int(k)
		for n := 1; n <= bt.max; n++ {
			t -= bt.then
			if b[t] != Empty {
				break
			}
			if q := t - bt.first; n >= bt.min && open(q) {
				dst = append(dst, CheckSquare{Square(q), m})
			}
		}
	}
	return dst
}

// Attacks reports whether the piece on from attacks the square to: one of
// its capturing movement components reaches to in the current occupancy,
// whatever stands there. It agrees with Reach (Reach(from, cover) marks
// cover[to]); a citadel is never attacked. from must hold a piece; Attacks
// does not allocate.
func (p *Position) Attacks(from, to Square) bool {
	b := &p.board
	if b[to]&0x80 != 0 {
		return false // off the board, or a citadel
	}
	g := &p.v.c.gen[b[from]&0x7f]
	delta := int(to) - int(from)
	for _, l := range g.leaps {
		if l.d == delta && l.mode != MoveOnly {
			return true
		}
	}
	for _, r := range g.rides {
		rest := delta - r.first
		if r.mode == MoveOnly || rest%r.d != 0 {
			continue
		}
		k := rest / r.d
		if k < max(1, r.min) || k > r.max || r.first != 0 && b[int(from)+r.first] != Empty {
			continue
		}
		t, clear := int(from)+r.first, true
		for j := 1; j < k && clear; j++ {
			t += r.d
			clear = b[t] == Empty
		}
		if clear {
			return true
		}
	}
	for _, h := range g.hops {
		if h.mode == MoveOnly || delta%h.d != 0 || delta/h.d < 2 {
			continue
		}
		screens, t := 0, int(from)
		for t += h.d; t != int(to) && screens <= 1; t += h.d {
			switch c := b[t]; {
			case c == Empty:
			case c&0x80 != 0:
				screens = 2 // the edge of the board or a citadel: no screen
			default:
				screens++
			}
		}
		if screens == 1 {
			return true
		}
	}
	return false
}
