package engine

import "math/bits"

// This file holds the attack queries on Bitboards: the squares along each
// direction of the variant's line moves from every square (rays), the
// squares each leaper captures from, and the walkers that find the
// attackers of a square from them. A slider's attack along a ray ends at
// the ray's first occupied square (First or Last of ray ∩ occupied, as the
// indexes grow or shrink along it); a hop's at the next one beyond; a bent
// slide's origins are looked up in a table and kept when the squares
// between its first step and the target are empty. Citadels lie on no ray
// and in no leap table: a piece in a citadel attacks only by its step out
// (docs/rules.md 3.1).

// compileRays builds the rays of every line direction of the attack
// tables and of the pieces' moves, the leap tables of every capturing
// leaper and of every piece's leaps, and the origins of every bent slide.
// Rays start from the citadels too (a piece may leave one along them) but
// never pass through one.
func (v *Variant) compileRays() {
	c := &v.c
	rayOf := func(d int) int {
		for k, e := range c.rayDirs {
			if e == d {
				return k
			}
		}
		r := new([MaxIndex]Bitboard)
		for i := 0; i < MaxIndex; i++ {
			s := c.square[i]
			if s == NoSquare {
				continue
			}
			for t := int(s) + d; c.empty[t] == Empty; t += d {
				r[i] = r[i].Or(BitAt(int(c.index[t])))
			}
		}
		c.rays = append(c.rays, r)
		c.rayDirs = append(c.rayDirs, d)
		return len(c.rays) - 1
	}
	v.compileMoveRays(rayOf)
	for col := White; col <= Black; col++ {
		at := &c.att[col]
		for k := range at.slides {
			sa := &at.slides[k]
			sa.ray, sa.up = rayOf(-sa.d), sa.d < 0
			sa.all = sa.mask | sa.hopMask
			for _, e := range sa.extra {
				sa.all |= e.mask
			}
			df, dr := stepOf(sa.d)
			sa.step = max(df, -df, dr, -dr)
		}
		for k := range at.bents {
			bt := &at.bents[k]
			bt.ray, bt.up = rayOf(-bt.then), bt.then < 0
			bt.from = new([MaxIndex]Bitboard)
			for _, s := range c.onBoard {
				t := int(s) - bt.then
				for n := 1; n <= bt.max && c.empty[t] == Empty; n++ {
					if q := t - bt.first; n >= bt.min && c.empty[q] == Empty {
						bt.from[c.index[s]] = bt.from[c.index[s]].Or(BitAt(int(c.index[q])))
					}
					t -= bt.then
				}
			}
		}
		for k := range at.slides {
			at.slideGroups = addToGroup(at.slideGroups, at.slides[k].all, k, c.rays[at.slides[k].ray])
		}
		for k := range at.bents {
			at.bentGroups = addToGroup(at.bentGroups, at.bents[k].mask, k, at.bents[k].from)
		}
		for code := Piece(col); code < 64; code += 2 {
			for _, l := range c.gen[code].leaps {
				if l.mode != MoveOnly {
					at.leapCodes |= 1 << code
				}
			}
		}
		n := bits.OnesCount64(at.leapCodes)
		at.leapFrom = make([]Bitboard, MaxIndex*n)
		at.leapAny = new([MaxIndex]Bitboard)
		slot := 0
		for m := at.leapCodes; m != 0; m &= m - 1 {
			code := bits.TrailingZeros64(m)
			at.leapSlot[code] = uint8(slot)
			for _, l := range c.gen[code].leaps {
				if l.mode == MoveOnly {
					continue
				}
				for _, s := range c.onBoard {
					if q := int(s) - l.d; c.empty[q] == Empty {
						e := &at.leapFrom[int(c.index[s])*n+slot]
						*e = e.Or(BitAt(int(c.index[q])))
						at.leapAny[c.index[s]] = at.leapAny[c.index[s]].Or(BitAt(int(c.index[q])))
					}
				}
			}
			slot++
		}
	}
}

// addToGroup adds member k, attacked along by the codes in mask from the
// squares reach, to the group of mask in gs.
func addToGroup(gs []attackGroup, mask uint64, k int, reach *[MaxIndex]Bitboard) []attackGroup {
	j := 0
	for j < len(gs) && gs[j].mask != mask {
		j++
	}
	if j == len(gs) {
		gs = append(gs, attackGroup{mask: mask, reach: new([MaxIndex]Bitboard)})
	}
	g := &gs[j]
	g.members = append(g.members, k)
	for i := range g.reach {
		g.reach[i] = g.reach[i].Or(reach[i])
	}
	return gs
}

// stepOf splits a mailbox delta into its file and rank components.
func stepOf(d int) (df, dr int) {
	dr = (d+Stride*Stride+Stride/2)/Stride - Stride
	return d - dr*Stride, dr
}

// nearest returns the index of blk (not empty) closest to the start of a
// ray along which the indexes grow (up) or shrink.
func nearest(blk Bitboard, up bool) int {
	if up {
		return blk.First()
	}
	return blk.Last()
}

// piecesIn returns the squares of the pieces whose codes are in mask.
func (p *Position) piecesIn(mask uint64) Bitboard {
	var b Bitboard
	for m := mask & p.present; m != 0; m &= m - 1 {
		b = b.Or(p.byCode[bits.TrailingZeros64(m)])
	}
	return b
}

// occupied returns the squares of all pieces, citadel occupants included.
func (p *Position) occupied() Bitboard { return p.byColor[White].Or(p.byColor[Black]) }

// leapAttackers returns the squares of side by's pieces, outside removed,
// that attack index i by a capture leap; with one set, it returns as soon
// as one attacker is found. Only the squares from which some piece of by
// could leap onto i are examined, each against its own code's table.
func (p *Position) leapAttackers(i int, by Color, removed Bitboard, one bool) Bitboard {
	c := &p.v.c
	at := &c.att[by]
	cand := at.leapAny[i].And(p.byColor[by]).AndNot(removed)
	if cand.Empty() {
		return Bitboard{}
	}
	n := bits.OnesCount64(at.leapCodes)
	row := at.leapFrom[i*n : i*n+n]
	var set Bitboard
	for cand.Any() {
		q := cand.PopFirst()
		code := p.board[c.square[q]] & 0x7f
		if at.leapCodes>>code&1 != 0 && row[at.leapSlot[code]].Has(q) {
			set = set.Or(BitAt(q))
			if one {
				break
			}
		}
	}
	return set
}

// lineAttackers returns the squares of side by's pieces, outside removed,
// that attack index i by slides, hops and bent slides, the board being
// occupied by occ (which holds no square of removed; the board's cells
// agree with it); with one set, it returns as soon as one is found.
func (p *Position) lineAttackers(i int, by Color, occ, removed Bitboard, one bool) Bitboard {
	c := &p.v.c
	at := &c.att[by]
	live := p.present
	var set Bitboard
	for _, g := range at.slideGroups {
		if g.mask&live == 0 {
			continue
		}
		pcs := p.piecesIn(g.mask).AndNot(removed)
		if pcs.And(g.reach[i]).Empty() {
			continue
		}
		for _, k := range g.members {
			sa := &at.slides[k]
			ray := c.rays[sa.ray][i]
			if ray.And(pcs).Empty() {
				continue
			}
			blk := ray.And(occ)
			t := nearest(blk, sa.up)
			if sa.hitsAt(p.board[c.square[t]], i, t, c) {
				set = set.Or(BitAt(t))
				if one {
					return set
				}
			}
			if sa.hopMask&live != 0 {
				blk = blk.AndNot(BitAt(t))
				if blk.Any() {
					if t = nearest(blk, sa.up); sa.hopMask>>p.board[c.square[t]]&1 != 0 {
						set = set.Or(BitAt(t))
						if one {
							return set
						}
					}
				}
			}
		}
	}
	for _, g := range at.bentGroups {
		if g.mask&live == 0 {
			continue
		}
		pcs := p.piecesIn(g.mask).AndNot(removed)
		if pcs.And(g.reach[i]).Empty() {
			continue
		}
		for _, k := range g.members {
			bt := &at.bents[k]
			cand := bt.from[i].And(pcs)
			if cand.Empty() {
				continue
			}
			ray := c.rays[bt.ray]
			free := ray[i]
			if blk := free.And(occ); blk.Any() {
				t := nearest(blk, bt.up)
				free = free.AndNot(ray[t]).AndNot(BitAt(t))
			}
			for cand.Any() {
				q := cand.PopFirst()
				if free.Has(int(c.index[int(c.square[q])+bt.first])) {
					set = set.Or(BitAt(q))
					if one {
						return set
					}
				}
			}
		}
	}
	return set
}

// hitsAt reports whether the piece code pc (not Offboard), standing on
// index t, the first occupied square from index i against the slide's
// direction, attacks i along it.
func (sa *slideAttack) hitsAt(pc Piece, i, t int, c *compiled) bool {
	if sa.mask>>pc&1 != 0 {
		return true
	}
	if len(sa.extra) == 0 {
		return false
	}
	s, q := c.square[i], c.square[t]
	k := max(s.File()-q.File(), q.File()-s.File(), s.Rank()-q.Rank(), q.Rank()-s.Rank()) / sa.step
	for _, e := range sa.extra {
		if e.mask>>pc&1 != 0 && k >= e.min && k <= e.max {
			return true
		}
	}
	return false
}

// citAttacker returns the citadel from which a piece of side by steps
// onto s, or NoSquare (docs/rules.md 3.1).
func (p *Position) citAttacker(s Square, by Color) Square {
	c := &p.v.c
	if cs := c.nearCit[s]; cs != NoSquare {
		if occ := p.board[cs]; occ != Offboard && occ.Color() == by && c.leapMask[by][int(s)-int(cs)]>>(occ&0x7f)&1 != 0 {
			return cs
		}
	}
	return NoSquare
}
