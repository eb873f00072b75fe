package engine

// The reference implementation's Make and its legal moves (see the comment
// at the top of reference_test.go).

// relocation returns the square of docs/rules.md 3.4.3.
func (r *refPos) relocation(c Color) rsq {
	h := r.home[c]
	for d := 0; d < r.files; d++ {
		for _, f := range []int{h.f - d, h.f + d} {
			s := rsq{f, h.r}
			if !r.onBoard(s) {
				continue
			}
			if pc := r.at(s); pc.tok != "" && r.isRoyal(pc.tok) || r.isWaiting(s) {
				continue
			}
			return s
		}
	}
	panic("reference: no relocation square")
}

// make returns the position after m.
func (r *refPos) make(m refMove) refPos {
	q := *r
	us, them := r.side, r.side.Other()
	pc := q.at(m.from)
	reset := q.isPawn(pc.tok)
	q.hasEP = false
	switch m.kind {
	case KindEnPassant:
		q.set(m.from, rpiece{})
		q.set(m.to, pc)
		q.set(rsq{m.to.f, m.from.r}, rpiece{})
		reset = true
	case KindCastle:
		for _, c := range q.castles() {
			if c.kf == m.from && c.kt == m.to {
				k, rk := q.at(c.kf), q.at(c.rf)
				q.set(c.kf, rpiece{})
				q.set(c.rf, rpiece{})
				q.set(c.kt, k)
				q.set(c.rt, rk)
			}
		}
	case KindExchange:
		partner := q.at(m.to)
		q.set(m.to, pc)
		q.set(m.from, partner)
		if q.isPawn(partner.tok) {
			reset = true
		}
		if q.fam == famTam {
			q.clearRight("Ss"[us])
		}
	default:
		if q.at(m.to).tok != "" {
			reset = true // a capture (or a lift's removal)
		}
		q.set(m.from, rpiece{})
		q.set(m.to, pc)
		switch m.kind {
		case KindDouble:
			ep := m.from.add(0, fwdOf(us))
			for _, df := range []int{-1, 1} {
				if t := m.to.add(df, 0); q.onBoard(t) && q.at(t) == (rpiece{"P", them}) {
					q.ep, q.hasEP = ep, true
				}
			}
		case KindPromotion:
			q.set(m.to, rpiece{m.promo, us})
			if q.fam == famTam {
				reset = true
			}
		case KindArrive:
			q.pp[us] = 1
		case KindRelocate:
			q.pp[us] = 2
			h := q.relocation(us)
			q.set(m.to, rpiece{})
			q.set(h, pc)
		}
	}
	for i := 0; i < len(q.rightChars); i++ {
		for _, s := range q.rightSquares(q.rightChars[i]) {
			if s == m.from || s == m.to {
				q.rights[i] = false
			}
		}
	}
	if reset {
		q.half = 0
	} else {
		q.half++
	}
	q.side = them
	return q
}

// pseudo returns the side to move's pseudo-legal moves, without exchanges.
func (r *refPos) pseudo() []refMove {
	us := r.side
	fwd := fwdOf(us)
	var out []refMove
	for _, s := range r.squares() {
		if pc := r.at(s); pc.tok != "" && pc.col == us && !r.isWaiting(s) {
			out = r.pieceMoves(s, out)
		}
	}
	if r.hasEP {
		for _, df := range []int{-1, 1} {
			from := r.ep.add(df, -fwd)
			if r.onBoard(from) && r.at(from) == (rpiece{"P", us}) && r.at(r.ep.add(0, -fwd)) == (rpiece{"P", us.Other()}) {
				out = append(out, refMove{from, r.ep, KindEnPassant, ""})
			}
		}
	}
	for _, c := range r.castles() {
		if c.col != us || !r.hasRight(c.right) || r.at(c.kf) != (rpiece{"K", us}) || r.at(c.rf) != (rpiece{"R", us}) {
			continue
		}
		ok := true
		lo, hi := min(c.kf.f, c.rf.f), max(c.kf.f, c.rf.f)
		for f := lo + 1; f < hi; f++ {
			if r.at(rsq{f, c.kf.r}).tok != "" {
				ok = false
			}
		}
		for _, t := range []rsq{c.kt, c.rt} {
			if t != c.kf && t != c.rf && r.at(t).tok != "" {
				ok = false
			}
		}
		step := 1
		if c.kt.f < c.kf.f {
			step = -1
		}
		for f := c.kf.f; ok; f += step {
			if r.attacked(rsq{f, c.kf.r}, us.Other()) {
				ok = false
			}
			if f == c.kt.f {
				break
			}
		}
		if ok {
			out = append(out, refMove{c.kf, c.kt, KindCastle, ""})
		}
	}
	if w, ok := r.waiting(us); ok {
		out = append(out, r.lifts(w)...)
	}
	return out
}

// lifts returns the waiting pawn of pawns' lifts (docs/rules.md 3.4.2).
func (r *refPos) lifts(w rsq) []refMove {
	us := r.side
	fwd := fwdOf(us)
	var out []refMove
	for f := 0; f < r.files; f++ {
		for rk := 0; rk < r.ranks; rk++ {
			s := rsq{f, rk}
			occ := r.at(s)
			if s == w || occ.tok != "" && r.isRoyal(occ.tok) || occ.col != us && r.isWaiting(s) {
				continue
			}
			var targets []rsq
			for _, df := range []int{-1, 1} {
				t := s.add(df, fwd)
				if x := r.at(t); r.onBoard(t) && x.tok != "" && x.col != us && !r.isPawn(x.tok) {
					targets = append(targets, t)
				}
			}
			m := refMove{w, s, KindLift, ""}
			switch len(targets) {
			case 2:
				out = append(out, m)
			case 1:
				q := r.make(m)
				if len(q.pieceMoves(targets[0], nil)) == 0 {
					out = append(out, m)
				}
			}
		}
	}
	return out
}

// legal returns the legal moves (docs/rules.md 2, 3, 5).
func (r *refPos) legal() []refMove {
	if r.citadelEnded() {
		return nil
	}
	us, them := r.side, r.side.Other()
	var out []refMove
	for _, m := range r.pseudo() {
		q := r.make(m)
		if !q.singleRoyalAttacked(us) {
			out = append(out, m)
		}
	}
	roy := r.royals(us)
	if len(roy) != 1 || r.at(roy[0]).tok != "K" || !r.onBoard(roy[0]) {
		return out
	}
	k := roy[0]
	check := r.attacked(k, them)
	switch r.fam {
	case famTam: // 3.5: the King swap
		if r.swap == "off" || !r.hasRight("Ss"[us]) {
			return out
		}
		if !check && (r.swap == "check" || len(out) > 0) {
			return out
		}
		for f := 0; f < r.files; f++ {
			for rk := 0; rk < r.ranks; rk++ {
				s := rsq{f, rk}
				pc := r.at(s)
				if pc.tok == "" || pc.col != us || r.isRoyal(pc.tok) || r.isWaiting(s) {
					continue
				}
				if r.isPawn(pc.tok) && k.r == r.lastRank(us) {
					continue
				}
				m := refMove{k, s, KindExchange, ""}
				if q := r.make(m); !q.attacked(s, them) {
					out = append(out, m)
				}
			}
		}
	case famT2: // 2.4: succession
		if !check || len(out) > 0 {
			return out
		}
		for f := 0; f < r.files; f++ {
			for rk := 0; rk < r.ranks; rk++ {
				s := rsq{f, rk}
				if r.at(s) == (rpiece{"M", us}) && !r.attacked(s, them) {
					out = append(out, refMove{k, s, KindExchange, ""})
				}
			}
		}
	}
	return out
}
