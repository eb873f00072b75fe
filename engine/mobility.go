package engine

import "slices"

// leapTargets are the squares of the playing area a piece's leaps reach
// from each index: by its moving leaps (move) and its capturing ones
// (capture).
type leapTargets struct {
	leaps         []offMode
	move, capture [MaxIndex]Bitboard
}

// compileMoveRays gives every piece's slides, bent slides and hops the
// rays of their directions (rayOf returns a direction's index in
// compiled.rays) and builds the squares their leaps reach, one table for
// the pieces that leap alike.
func (v *Variant) compileMoveRays(rayOf func(d int) int) {
	c := &v.c
	for code := range c.gen {
		g := &c.gen[code]
		g.promoSq = v.promoSquares(g, Piece(code).Color())
		for k := range g.rides {
			r := &g.rides[k]
			r.ray, r.up = rayOf(r.d), r.d > 0
			if r.min > 1 || r.max < Stride {
				r.window = new([MaxIndex]Bitboard)
				for o, s := range c.square {
					if s != NoSquare {
						r.window[o] = v.window(o, r)
					}
				}
			}
		}
		for k := range g.hops {
			h := &g.hops[k]
			h.ray, h.up = rayOf(h.d), h.d > 0
		}
		if len(g.leaps) == 0 {
			continue
		}
		for j := range c.leapTo {
			if slices.Equal(c.leapTo[j].leaps, g.leaps) {
				g.leapTab = j + 1
			}
		}
		if g.leapTab > 0 {
			continue
		}
		t := leapTargets{leaps: g.leaps}
		for i := 0; i < MaxIndex; i++ {
			s := c.square[i]
			if s == NoSquare {
				continue
			}
			for _, l := range g.leaps {
				to := int(s) + l.d
				if c.empty[to] != Empty {
					continue
				}
				if l.mode != CaptureOnly {
					t.move[i] = t.move[i].Or(BitAt(int(c.index[to])))
				}
				if l.mode != MoveOnly {
					t.capture[i] = t.capture[i].Or(BitAt(int(c.index[to])))
				}
			}
		}
		c.leapTo = append(c.leapTo, t)
		g.leapTab = len(c.leapTo)
	}
}

// promoSquares returns the indexes of the squares of the playing area on
// which a move of a piece of gen g and color us may promote (see addTo).
func (v *Variant) promoSquares(g *pieceGen, us Color) Bitboard {
	c := &v.c
	var b Bitboard
	for _, s := range c.onBoard {
		var in bool
		switch g.promo {
		case PromoteOnLastRank, PromotePawnOfPawns:
			in = c.lastRank[us][s]
		case PromoteOnFarCorners:
			in = c.farCorner[us][s]
		case PromoteInZone:
			in = c.fromLast[us][s] < g.zone
		}
		if in {
			b = b.Or(BitAt(int(c.index[s])))
		}
	}
	return b
}

// Mobility returns, for the piece on s, the set of squares it attacks (the
// squares Reach marks in cover: every square of the playing area that one
// of its capturing components reaches, whatever stands there; never a
// citadel), its mobility n (Reach's count) and how many of the squares n
// counts are in avoid (ReachAvoiding's count). s must hold a piece;
// Mobility does not allocate.
func (p *Position) Mobility(s Square, avoid Bitboard) (Bitboard, int, int) {
	c := &p.v.c
	pc := p.board[s] & 0x7f
	g := &c.gen[pc]
	i := int(c.index[s])
	occ := p.occupied()
	enemy := p.byColor[pc.Color().Other()]
	free := c.all.AndNot(occ)
	var att, acc Bitboard
	if g.leapTab > 0 {
		t := &c.leapTo[g.leapTab-1]
		acc = t.move[i].And(free).Or(t.capture[i].And(enemy))
		att = t.capture[i]
	}
	rides, hops := g.rides, g.hops
	if len(rides) == 0 && len(hops) == 0 {
		n := acc.Count()
		if n == 0 || avoid.Empty() {
			return att, n, 0
		}
		return att, n, acc.And(avoid).Count()
	}
	// The squares a component counts are its reach within the targets
	// of its mode. They gather in acc while the components' sets are
	// disjoint, and are tallied when one overlaps acc and at the end, so
	// that a square two components reach counts twice.
	n, avoided := 0, 0
	both := free.Or(enemy)
	add := func(reach Bitboard, m Mode) {
		cnt := both
		switch m {
		case MoveOnly:
			cnt = free
		case CaptureOnly:
			cnt = enemy
		}
		if m != MoveOnly {
			att = att.Or(reach)
		}
		cnt = cnt.And(reach)
		if acc.And(cnt).Any() {
			n += acc.Count()
			avoided += acc.And(avoid).Count()
			acc = Bitboard{}
		}
		acc = acc.Or(cnt)
	}
	rays := c.rays
	for k := range rides {
		r := &rides[k]
		o := i
		if r.first != 0 {
			f := int(s) + r.first
			if p.board[f] != Empty {
				continue // a bent slide's first step is blocked
			}
			o = int(c.index[f])
		}
		ray := rays[r.ray]
		reach := ray[o]
		if blk := reach.And(occ); blk.Any() {
			reach = reach.AndNot(ray[nearest(blk, r.up)])
		}
		if r.window != nil {
			reach = reach.And(r.window[o])
		}
		add(reach, r.mode)
	}
	for k := range hops {
		h := &hops[k]
		ray := rays[h.ray]
		blk := ray[i].And(occ)
		if blk.Empty() {
			continue
		}
		t := nearest(blk, h.up)
		reach := ray[t]
		if rest := blk.AndNot(BitAt(t)); rest.Any() {
			reach = reach.AndNot(ray[nearest(rest, h.up)])
		}
		add(reach, h.mode)
	}
	if acc.Any() {
		n += acc.Count()
		if avoid.Any() {
			avoided += acc.And(avoid).Count()
		}
	}
	return att, n, avoided
}

// AttackSet returns the squares the piece on s attacks: Mobility's first
// result, looked up at once for a piece that only leaps (a pawn).
func (p *Position) AttackSet(s Square) Bitboard {
	c := &p.v.c
	g := &c.gen[p.board[s]&0x7f]
	if len(g.rides) == 0 && len(g.hops) == 0 {
		if g.leapTab == 0 {
			return Bitboard{}
		}
		return c.leapTo[g.leapTab-1].capture[c.index[s]]
	}
	att, _, _ := p.Mobility(s, Bitboard{})
	return att
}

// window returns the squares of the playing area r's slide from index o
// reaches at its min-th to max-th step on an empty board (compiled into
// r.window).
func (v *Variant) window(o int, r *rideGen) Bitboard {
	c := &v.c
	ray := c.rays[r.ray]
	w := ray[o]
	s := c.square[o]
	df, dr := stepOf(r.d)
	at := func(k int) int { // the index k steps away, -1 off the board
		f, rk := s.File()+k*df, s.Rank()+k*dr
		if f < 0 || f >= v.Files || rk < 0 || rk >= v.Ranks {
			return -1
		}
		return rk*v.Files + f
	}
	if r.min > 1 {
		if x := at(r.min - 1); x >= 0 {
			w = ray[x]
		} else {
			return Bitboard{}
		}
	}
	if y := at(r.max); y >= 0 {
		w = w.AndNot(ray[y])
	}
	return w
}
