package engine

import "math/bits"

// Pins says which pseudo-legal moves of the side to move certainly leave
// its only royal unattacked, so that they need no Make to be proven
// legal. It is computed once per position (Position.Pins) and stays
// valid for that position only.
type Pins struct {
	// lines are the squares from which a move can expose the royal: own
	// pieces pinned against it by a slider, and every square of its hop
	// and bent-slide lines. hops are the hop lines' squares, where a
	// piece arriving can become a cannon's screen.
	lines, hops Bitboard
	// active: the side has exactly one royal and it is not in check
	active bool
}

// Pins returns the pin information of the side to move. With several
// royals, none, or the royal in check, it proves nothing (Safe is false).
func (p *Position) Pins() Pins {
	us := p.side
	if p.nroyal[us] != 1 || p.InCheck() {
		return Pins{}
	}
	ksq := p.royals[us][0]
	by := us.Other()
	c := &p.v.c
	b := &p.board
	pins := Pins{active: true}
	for _, l := range c.lineDirs[by] {
		d := l.d
		if p.anyOf(l.whole) {
			for s := int(ksq) - d; c.empty[s] != Offboard; s -= d {
				pins.lines.toggle(int(c.index[s]))
			}
			continue
		}
		// A slider line: only the first piece from the royal can be
		// pinned, and only when an enemy slider stands behind it.
		s := int(ksq) - d
		for b[s] == Empty {
			s -= d
		}
		if b[s]&0x80 != 0 || b[s].Color() == by {
			continue
		}
		t := s - d
		for b[t] == Empty {
			t -= d
		}
		if l.sliders>>b[t]&1 != 0 {
			pins.lines = pins.lines.Or(BitAt(int(c.index[s])))
		}
	}
	for _, h := range c.hopDirs[by] {
		if !p.anyOf(h.mask) {
			continue
		}
		d := h.d
		for s := int(ksq) - d; c.empty[s] != Offboard; s -= d {
			pins.hops = pins.hops.Or(BitAt(int(c.index[s])))
		}
	}
	return pins
}

// Safe reports whether m, a pseudo-legal move of the position pins was
// computed for, certainly leaves the side's only royal unattacked: an
// ordinary move of a non-royal piece from a square on no line of attack
// through the royal, not landing on a hop line. Leaper attacks never
// change by such a move, and every line attack passes through line
// squares only. False means only that Make must tell.
func (pins *Pins) Safe(p *Position, m Move) bool {
	if !pins.active {
		return false
	}
	switch m.Kind() {
	case KindNormal, KindDouble, KindPromotion, KindArrive:
	default:
		return false
	}
	from, to := m.From(), m.To()
	c := &p.v.c
	if c.gen[p.board[from]&0x7f].royal {
		return false
	}
	return !pins.lines.Has(int(c.index[from])) && !pins.hops.Has(int(c.index[to]))
}

// anyOf reports whether a piece of any code in mask is on the board.
func (p *Position) anyOf(mask uint64) bool {
	for mask != 0 {
		code := bits.TrailingZeros64(mask)
		if p.counts[code] > 0 {
			return true
		}
		mask &= mask - 1
	}
	return false
}
