package engine

// The reference implementation's move generation and Make (see the
// comment at the top of reference_test.go).

import (
	"strconv"
	"strings"
)

// addMove appends the move(s) of pc from from to to, with the promotions of
// docs/rules.md 2.3, 3.4, 5.
func (r *refPos) addMove(out []refMove, from, to rsq, pc rpiece) []refMove {
	last := to.r == r.lastRank(pc.col)
	one := func(kind MoveKind, promo string) []refMove {
		return append(out, refMove{from, to, kind, promo})
	}
	switch r.fam {
	case famChess, famShatranj, famShako:
		if pc.tok == "P" && last {
			promos := map[refFamily]string{famChess: "QRBN", famShatranj: "Q", famShako: "QRBNCE"}[r.fam]
			for i := 0; i < len(promos); i++ {
				out = append(out, refMove{from, to, KindPromotion, promos[i : i+1]})
			}
			return out
		}
	case famT2:
		switch {
		case (pc.tok == "P" || pc.tok == "M") && last:
			return one(KindPromotion, "Q")
		case pc.tok == "S" && last && (to.f == 0 || to.f == r.files-1):
			return one(KindPromotion, "A")
		}
	case famTam:
		if r.isPawn(pc.tok) && last {
			switch x := pc.tok[1:]; x {
			case "P":
				switch r.pp[pc.col] {
				case 0:
					return one(KindArrive, "")
				case 1:
					return one(KindRelocate, "")
				default:
					return one(KindPromotion, "J")
				}
			case "K":
				return one(KindPromotion, "I")
			default:
				return one(KindPromotion, x)
			}
		}
	}
	return one(KindNormal, "")
}

// pieceMoves appends the pseudo-legal moves of the piece on s: its steps,
// leaps, slides, hops, bent moves, double steps and citadel steps, with
// promotions; not en passant, castling, lifts or exchanges.
func (r *refPos) pieceMoves(s rsq, out []refMove) []refMove {
	pc := r.at(s)
	us := pc.col
	fwd := fwdOf(us)
	add := func(to rsq) { out = r.addMove(out, s, to, pc) }
	leaps := func(offs [][2]int) {
		for _, o := range offs {
			t := s.add(o[0], o[1])
			if r.free(t) || r.capturable(t, us) {
				add(t)
			}
		}
	}
	// rideFrom slides from the square from along d, adding the squares at
	// least min steps away: empty ones, and the first piece if capturable.
	rideFrom := func(from rsq, d [2]int, min int) {
		for k := 1; ; k++ {
			t := from.add(k*d[0], k*d[1])
			if !r.onBoard(t) {
				return
			}
			if r.free(t) {
				if k >= min {
					add(t)
				}
				continue
			}
			if k >= min && r.capturable(t, us) {
				add(t)
			}
			return
		}
	}
	ride := func(dirs [][2]int, min int) {
		for _, d := range dirs {
			rideFrom(s, d, min)
		}
	}
	cannon := func() {
		for _, d := range refOrth {
			t := s.add(d[0], d[1])
			for r.free(t) {
				add(t)
				t = t.add(d[0], d[1])
			}
			if !r.onBoard(t) {
				continue // no screen
			}
			t = t.add(d[0], d[1])
			for r.free(t) {
				t = t.add(d[0], d[1])
			}
			if r.capturable(t, us) {
				add(t)
			}
		}
	}
	bentMoves := func(vertical, horizontal bool, min int) {
		for _, d := range refDiag {
			first := s.add(d[0], d[1])
			if !r.free(first) {
				continue
			}
			var comps [][2]int
			if vertical {
				comps = append(comps, [2]int{0, d[1]})
			}
			if horizontal {
				comps = append(comps, [2]int{d[0], 0})
			}
			for _, c := range comps {
				rideFrom(first, c, min)
			}
		}
	}
	pawn := func(doubleRank int) {
		one := s.add(0, fwd)
		if r.free(one) {
			add(one)
			two := one.add(0, fwd)
			if s.r == doubleRank && r.free(two) {
				out = append(out, refMove{s, two, KindDouble, ""})
			}
		}
		for _, df := range []int{-1, 1} {
			if t := s.add(df, fwd); r.capturable(t, us) {
				add(t)
			}
		}
	}
	startRank := func(white int) int {
		if us == White {
			return white
		}
		return r.ranks - 1 - white
	}
	switch r.fam {
	case famChess, famShatranj, famShako:
		switch pc.tok {
		case "K":
			leaps(refKing)
		case "N":
			leaps(refN)
		case "R":
			ride(refOrth, 1)
		case "B":
			if r.fam == famShatranj {
				leaps(refAlfil)
			} else {
				ride(refDiag, 1)
			}
		case "Q":
			if r.fam == famShatranj {
				leaps(refDiag)
			} else {
				ride(refKing, 1)
			}
		case "E":
			leaps(refFA)
		case "C":
			cannon()
		case "P":
			switch r.fam {
			case famChess:
				pawn(startRank(1))
			case famShako:
				pawn(startRank(2))
			default:
				pawn(-1)
			}
		default:
			panic("reference: unknown piece " + pc.tok)
		}
	case famT2:
		switch pc.tok {
		case "K":
			leaps(refKing)
		case "M":
			leaps(refKing)
			// 2.2: the Prince's double step, with its right, from its start square.
			right := byte('E' + s.f - 4)
			if us == Black {
				right += 'a' - 'A'
			}
			if s.r == startRank(1) && (s.f == 4 || s.f == 6) && r.hasRight(right) {
				one, two := s.add(0, fwd), s.add(0, 2*fwd)
				if r.free(one) && r.free(two) {
					add(two)
				}
			}
		case "N":
			leaps(refN)
		case "R":
			ride(refOrth, 1)
		case "B":
			ride(refDiag, 1)
		case "Q":
			ride(refKing, 1)
		case "E":
			leaps(refFA)
		case "C":
			leaps(refCamel)
		case "O":
			cannon()
		case "S":
			leaps(refDiag)
			bentMoves(true, false, 1)
		case "A":
			leaps(refDiag)
			bentMoves(true, true, 1)
		case "P":
			pawn(startRank(2))
		default:
			panic("reference: unknown piece " + pc.tok)
		}
	case famTam:
		switch pc.tok {
		case "K", "I", "J":
			leaps(refKing)
			if r.citOn && r.onBoard(s) {
				for i, c := range refCitadel {
					if r.cit[i].tok != "" || refAbs(s.f-c.f) > 1 || refAbs(s.r-c.r) > 1 {
						continue
					}
					owner := Color(i)
					if owner == us && pc.tok == "J" || owner != us && r.isRanking(pc.tok, us) {
						out = append(out, refMove{s, c, KindNormal, ""})
					}
				}
			}
		case "F":
			leaps(refDiag)
		case "W", "X":
			leaps(refOrth)
		case "G":
			bentMoves(true, true, r.gmin)
		case "T":
			ride(refDiag, r.pmin)
		case "N":
			leaps(refN)
		case "R":
			ride(refOrth, 1)
		case "E":
			leaps(refAlfil)
		case "C":
			leaps(refCamel)
		case "D":
			leaps(refDab)
		case "L":
			leaps(refLion)
		case "U":
			leaps(refBull)
		case "V":
			leaps(refRev)
		default:
			if !r.isPawn(pc.tok) {
				panic("reference: unknown piece " + pc.tok)
			}
			pawn(-1)
		}
	}
	return out
}

func refAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (r *refPos) hasRight(ch byte) bool {
	i := strings.IndexByte(r.rightChars, ch)
	return i >= 0 && r.rights[i]
}

func (r *refPos) clearRight(ch byte) {
	if i := strings.IndexByte(r.rightChars, ch); i >= 0 {
		r.rights[i] = false
	}
}

// refSq parses a square name of the plain board ("e1", "i9").
func refSq(n string) rsq {
	rk, err := strconv.Atoi(n[1:])
	if err != nil {
		panic(err)
	}
	return rsq{int(n[0] - 'a'), rk - 1}
}

func refCastleRule(right byte, col Color, kf, kt, rf, rt string) refCastle {
	return refCastle{right, col, refSq(kf), refSq(kt), refSq(rf), refSq(rt)}
}

// The castling moves of docs/rules.md 5.1 (FIDE) and 5.3 (shako).
var (
	refChessCastles = []refCastle{
		refCastleRule('K', White, "e1", "g1", "h1", "f1"), refCastleRule('Q', White, "e1", "c1", "a1", "d1"),
		refCastleRule('k', Black, "e8", "g8", "h8", "f8"), refCastleRule('q', Black, "e8", "c8", "a8", "d8")}
	refShakoCastles = []refCastle{
		refCastleRule('K', White, "f2", "h2", "i2", "g2"), refCastleRule('Q', White, "f2", "d2", "b2", "e2"),
		refCastleRule('k', Black, "f9", "h9", "i9", "g9"), refCastleRule('q', Black, "f9", "d9", "b9", "e9")}
)

func (r *refPos) castles() []refCastle {
	switch r.fam {
	case famChess:
		return refChessCastles
	case famShako:
		return refShakoCastles
	}
	return nil
}

// rightSquares: a right is lost when a move starts or ends on one of these
// (castling: the King's and the Rook's squares; Tamerlane II: the Prince's
// start square).
func (r *refPos) rightSquares(ch byte) []rsq {
	for _, c := range r.castles() {
		if c.right == ch {
			return []rsq{c.kf, c.rf}
		}
	}
	if r.fam == famT2 { // E, G: e2, g2; e, g: e10, g10
		if ch >= 'a' {
			return []rsq{{int(ch - 'a'), r.ranks - 2}}
		}
		return []rsq{{int(ch - 'A'), 1}}
	}
	return nil
}

// attacked reports whether side by can capture on s (docs/rules.md 3.5: "is
// attacked"); an empty s is tested with a stand-in piece of the other side.
// Nothing in a citadel is attacked (3.1).
func (r *refPos) attacked(s rsq, by Color) bool {
	if r.citIndex(s) >= 0 {
		return false
	}
	if r.at(s).tok == "" {
		q := *r
		q.set(s, rpiece{"K", by.Other()})
		return q.attacked(s, by)
	}
	var buf [128]refMove
	for _, from := range r.squares() {
		pc := r.at(from)
		if pc.tok == "" || pc.col != by || r.isWaiting(from) {
			continue
		}
		for _, m := range r.pieceMoves(from, buf[:0]) {
			if m.to == s {
				return true
			}
		}
	}
	return false
}

// singleRoyalAttacked: c owns exactly one royal and it is attacked (3.5).
func (r *refPos) singleRoyalAttacked(c Color) bool {
	roy := r.royals(c)
	return len(roy) == 1 && r.attacked(roy[0], c.Other())
}
