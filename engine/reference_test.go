package engine

// A deliberately simple, independent reference implementation of the rules
// of RULES.md, used to check the engine's move generator and Make on
// positions perft cannot reach (Tamerlane's citadels, pawn of pawns, swaps,
// several royals, Tamerlane II's succession, every rule option).
//
// The reference works on a plain 2-D array of (token, colour) pairs that it
// builds from the engine's Position through read-only accessors. It knows
// the pieces by their FEN tokens and the rules by the variant's name and
// options, not through the engine's compiled movement tables. Moves are
// generated per piece by coordinate loops with explicit bounds checks, the
// reference makes moves on its own board, and "is my royal attacked" is
// answered by generating every opponent capture.
//
// Readings of RULES.md the reference makes (the most literal ones):
//   - 3.1: a royal standing in its own citadel leaves it by a king step that
//     may capture on the neighbour ("left the same way"); so it also attacks
//     its three neighbours.
//   - 3.4.2: "no move ignoring check" counts the attacked piece's own moves
//     (steps, leaps, slides, citadel steps) but not a King swap, whose
//     conditions are about check.
//   - 3.5: whether a move leaves the side's only royal attacked is judged in
//     the position after the move: a move that creates a second royal (a
//     pawn of kings promoting, a third arrival) is legal even if the King
//     stays attacked, because the side then owns two royals.
//   - 2.4: the Prince must be unattacked in the position before the
//     succession; no further test is made.
//   - 2.5 / 3.6 / 5: the halfmove clock restarts on a capture or a pawn move
//     (a swap moving a pawn counts as a pawn move); in the Tamerlane family
//     also on a promotion (3.6), but not in Tamerlane II, whose Ship and
//     Prince promotions are neither (2.5).
//   - En passant: the target square is kept only while an enemy pawn stands
//     beside the double-stepped pawn, i.e. while the capture is possible.

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

type rsq struct{ f, r int }

func (s rsq) add(df, dr int) rsq { return rsq{s.f + df, s.r + dr} }

func (s rsq) square() Square { return SquareAt(s.f, s.r) }

type rpiece struct {
	tok string // token in White's case, "" for none
	col Color
}

type refFamily int

const (
	famChess refFamily = iota
	famShatranj
	famShako
	famT2
	famTam
)

// The citadels of RULES.md 3.1: l2 (White's) and z9 (Black's).
var refCitadel = [2]rsq{{11, 1}, {-1, 8}}

type refCastle struct {
	right          byte
	col            Color
	kf, kt, rf, rt rsq
}

type refPos struct {
	fam          refFamily
	files, ranks int
	b            [MaxFiles][MaxRanks]rpiece
	citOn        bool
	cit          [2]rpiece
	side         Color
	ep           rsq
	hasEP        bool
	rightChars   string
	rights       [4]bool
	pp           [2]int
	half         int
	swap         string
	nmove        int
	gmin, pmin   int
	home         [2]rsq
	all          []rsq // every square that may hold a piece (read-only, shared)
}

type refMove struct {
	from, to rsq
	kind     MoveKind
	promo    string
}

func moveKey(from, to Square, kind MoveKind, promo string) string {
	return from.String() + to.String() + "/" + strconv.Itoa(int(kind)) + "/" + promo
}

func (m refMove) key() string { return moveKey(m.from.square(), m.to.square(), m.kind, m.promo) }

func engineKey(p *Position, m Move) string {
	promo := ""
	if m.Promotion() != 0 {
		promo = p.Variant().Def(m.Promotion()).Token
	}
	return moveKey(m.From(), m.To(), m.Kind(), promo)
}

func refFamilyOf(name string) refFamily {
	switch name {
	case "chess":
		return famChess
	case "shatranj":
		return famShatranj
	case "shako":
		return famShako
	case "tamerlane2":
		return famT2
	}
	return famTam
}

// refFromEngine builds the reference position from the engine's.
func refFromEngine(p *Position) (*refPos, error) {
	v := p.Variant()
	r := &refPos{fam: refFamilyOf(v.Name), files: v.Files, ranks: v.Ranks, side: p.SideToMove()}
	for f := 0; f < r.files; f++ {
		for rk := 0; rk < r.ranks; rk++ {
			if pc := p.At(SquareAt(f, rk)); pc != Empty {
				r.b[f][rk] = rpiece{v.Def(pc.Type()).Token, pc.Color()}
			}
		}
	}
	switch r.fam {
	case famChess, famShako:
		r.rightChars = "KQkq"
	case famT2:
		r.rightChars = "EGeg"
	case famTam:
		if v.Options["swap"] != "off" {
			r.rightChars = "Ss"
		}
		r.swap = v.Options["swap"]
		n, err := strconv.Atoi(v.Options["nmove"])
		if err != nil {
			return nil, err
		}
		r.nmove = n
		r.citOn = v.Options["citadels"] == "on"
		r.gmin = 3
		if v.Options["giraffe"] == "2" {
			r.gmin = 2
		}
		r.pmin = 2
		if v.Options["picket"] == "bishop" {
			r.pmin = 1
		}
		r.home = [2]rsq{{5, 2}, {5, 7}}
		if v.Name == "tamerlane-feminine" || v.Name == "tamerlane-third" {
			r.home = [2]rsq{{5, 1}, {5, 8}}
		}
		for c := White; c <= Black; c++ {
			r.pp[c] = p.PawnOfPawnsArrivals(c)
		}
	}
	for i := 0; i < len(r.rightChars); i++ {
		r.rights[i] = p.HasRight(r.rightChars[i])
	}
	if r.citOn {
		for i, c := range refCitadel {
			s := c.square()
			if !v.IsCitadel(s) {
				return nil, fmt.Errorf("%v is not a citadel", s)
			}
			if pc := p.At(s); pc != Empty {
				r.cit[i] = rpiece{v.Def(pc.Type()).Token, pc.Color()}
			}
		}
	}
	r.all = refSquares(r.files, r.ranks, r.citOn)
	if ep := p.EnPassant(); ep != NoSquare {
		r.ep, r.hasEP = rsq{ep.File(), ep.Rank()}, true
	}
	r.half = p.HalfmoveClock()
	// Cross-check the engine's own bookkeeping against the reference's view.
	for c := White; c <= Black; c++ {
		want := NoSquare
		if w, ok := r.waiting(c); ok {
			want = w.square()
		}
		if got := p.WaitingPawnOfPawns(c); got != want {
			return nil, fmt.Errorf("WaitingPawnOfPawns(%v) = %v, reference %v", c, got, want)
		}
	}
	if got, want := p.CitadelDraw(), r.citadelEnded(); got != want {
		return nil, fmt.Errorf("CitadelDraw() = %v, reference %v", got, want)
	}
	return r, nil
}

func (r *refPos) onBoard(s rsq) bool { return s.f >= 0 && s.f < r.files && s.r >= 0 && s.r < r.ranks }

func (r *refPos) citIndex(s rsq) int {
	if !r.citOn {
		return -1
	}
	for i, c := range refCitadel {
		if c == s {
			return i
		}
	}
	return -1
}

func (r *refPos) at(s rsq) rpiece {
	if r.onBoard(s) {
		return r.b[s.f][s.r]
	}
	if i := r.citIndex(s); i >= 0 {
		return r.cit[i]
	}
	return rpiece{}
}

func (r *refPos) set(s rsq, pc rpiece) {
	if r.onBoard(s) {
		r.b[s.f][s.r] = pc
		return
	}
	if i := r.citIndex(s); i >= 0 {
		r.cit[i] = pc
		return
	}
	panic(fmt.Sprintf("reference: set on %v", s))
}

func (r *refPos) isPawn(tok string) bool {
	if r.fam == famTam {
		return len(tok) == 2 && tok[0] == 'P'
	}
	return tok == "P"
}

func (r *refPos) isRoyal(tok string) bool {
	if r.fam == famTam {
		return tok == "K" || tok == "I" || tok == "J"
	}
	return tok == "K"
}

func (r *refPos) lastRank(c Color) int {
	if c == White {
		return r.ranks - 1
	}
	return 0
}

func fwdOf(c Color) int {
	if c == White {
		return 1
	}
	return -1
}

var refSquareCache sync.Map // [3]int{files, ranks, citadels} -> []rsq

// refSquares lists the board's squares, then the citadels.
func refSquares(files, ranks int, cit bool) []rsq {
	key := [3]int{files, ranks, 0}
	if cit {
		key[2] = 1
	}
	if all, ok := refSquareCache.Load(key); ok {
		return all.([]rsq)
	}
	var all []rsq
	for f := 0; f < files; f++ {
		for rk := 0; rk < ranks; rk++ {
			all = append(all, rsq{f, rk})
		}
	}
	if cit {
		all = append(all, refCitadel[0], refCitadel[1])
	}
	refSquareCache.Store(key, all)
	return all
}

// squares lists every square that may hold a piece: the board and the citadels.
func (r *refPos) squares() []rsq { return r.all }

// waiting returns c's waiting pawn of pawns (RULES.md 3.4.1): after exactly
// one arrival, a pawn of pawns standing on its last rank.
func (r *refPos) waiting(c Color) (rsq, bool) {
	if r.fam != famTam || r.pp[c] != 1 {
		return rsq{}, false
	}
	found, ok := rsq{}, false
	for f := 0; f < r.files; f++ {
		s := rsq{f, r.lastRank(c)}
		if pc := r.at(s); pc.tok == "PP" && pc.col == c {
			found, ok = s, true
		}
	}
	return found, ok
}

func (r *refPos) isWaiting(s rsq) bool {
	pc := r.at(s)
	if pc.tok != "PP" {
		return false
	}
	w, ok := r.waiting(pc.col)
	return ok && w == s
}

// capturable: an enemy of us stands on the board square s and may be
// captured (a waiting pawn of pawns may not, RULES.md 3.4.1).
func (r *refPos) capturable(s rsq, us Color) bool {
	if !r.onBoard(s) {
		return false
	}
	pc := r.at(s)
	return pc.tok != "" && pc.col != us && !r.isWaiting(s)
}

func (r *refPos) free(s rsq) bool { return r.onBoard(s) && r.at(s).tok == "" }

func refSym(a, b int) [][2]int {
	seen := map[[2]int]bool{}
	var out [][2]int
	for _, v := range [][2]int{{a, b}, {b, a}} {
		for _, sf := range []int{1, -1} {
			for _, sr := range []int{1, -1} {
				o := [2]int{v[0] * sf, v[1] * sr}
				if !seen[o] {
					seen[o] = true
					out = append(out, o)
				}
			}
		}
	}
	return out
}

var (
	refOrth  = refSym(1, 0)
	refDiag  = refSym(1, 1)
	refKing  = append(append([][2]int{}, refOrth...), refDiag...)
	refN     = refSym(1, 2)
	refCamel = refSym(1, 3)
	refAlfil = refSym(2, 2)
	refDab   = refSym(2, 0)
	refLion  = refSym(3, 0)
	refBull  = refSym(3, 2)
	refRev   = refSym(3, 3)
	refFA    = append(append([][2]int{}, refDiag...), refAlfil...)
)

func (r *refPos) royalRank(tok string) int {
	switch tok {
	case "K":
		return 0
	case "I":
		return 1
	}
	return 2
}

// royals lists c's royal pieces, citadels included.
func (r *refPos) royals(c Color) []rsq {
	var out []rsq
	for _, s := range r.squares() {
		if pc := r.at(s); pc.tok != "" && pc.col == c && r.isRoyal(pc.tok) {
			out = append(out, s)
		}
	}
	return out
}

// isRanking: no own royal ranks higher (RULES.md 3.5).
func (r *refPos) isRanking(tok string, c Color) bool {
	for _, s := range r.royals(c) {
		if r.royalRank(r.at(s).tok) < r.royalRank(tok) {
			return false
		}
	}
	return true
}

// citadelEnded: a royal stands in the enemy citadel (RULES.md 3.1).
func (r *refPos) citadelEnded() bool {
	if !r.citOn {
		return false
	}
	return r.cit[0].tok != "" && r.cit[0].col == Black || r.cit[1].tok != "" && r.cit[1].col == White
}

// addMove appends the move(s) of pc from from to to, with the promotions of
// RULES.md 2.3, 3.4, 5.
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
	ride := func(dirs [][2]int, min int) {
		for _, d := range dirs {
			for k := 1; ; k++ {
				t := s.add(k*d[0], k*d[1])
				if !r.onBoard(t) {
					break
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
				break
			}
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
				for k := 1; ; k++ {
					t := first.add(k*c[0], k*c[1])
					if !r.onBoard(t) {
						break
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
					break
				}
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

// The castling moves of RULES.md 5.1 (FIDE) and 5.3 (shako).
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

// attacked reports whether side by can capture on s (RULES.md 3.5: "is
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

// relocation returns the square of RULES.md 3.4.3.
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

// lifts returns the waiting pawn of pawns' lifts (RULES.md 3.4.2).
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

// legal returns the legal moves (RULES.md 2, 3, 5).
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

// outcome returns the game's result by rule (RULES.md 2.5, 3.1, 3.6, 5),
// given the legal moves and how often the position has occurred since the
// last capture or pawn move (itself included).
func (r *refPos) outcome(legal []refMove, reps int) (Result, Reason) {
	us, them := r.side, r.side.Other()
	win := func(c Color) Result {
		if c == White {
			return WhiteWins
		}
		return BlackWins
	}
	if r.citadelEnded() {
		return Draw, ReasonCitadel // 3.1
	}
	if len(r.royals(us)) == 0 {
		return win(them), ReasonRoyalsCaptured
	}
	if len(legal) == 0 {
		if r.singleRoyalAttacked(us) {
			return win(them), ReasonCheckmate
		}
		if r.fam == famShatranj || r.fam == famTam { // 5.2, 3.6: stalemate loses
			return win(them), ReasonStalemate
		}
		return Draw, ReasonStalemate
	}
	count := func(c Color) (officers int, bishops []int) {
		for _, s := range r.squares() {
			if pc := r.at(s); pc.tok != "" && pc.col == c && !r.isRoyal(pc.tok) {
				officers++
				if pc.tok == "B" {
					bishops = append(bishops, (s.f+s.r)%2)
				}
			}
		}
		return
	}
	ours, _ := count(us)
	theirs, _ := count(them)
	if r.fam == famShatranj { // 5.2: the bare King
		switch {
		case ours == 0 && theirs == 0:
			return Draw, ReasonBareKing
		case theirs == 0:
			return win(us), ReasonBareKing
		case ours == 0:
			canBare := false
			for _, m := range legal {
				if pc := r.at(m.to); theirs == 1 && pc.tok != "" && pc.col == them {
					canBare = true
				}
			}
			if !canBare {
				return win(them), ReasonBareKing
			}
		}
	}
	if r.fam == famChess { // 5.1: no mate possible
		dead := false
		for _, s := range r.squares() {
			if pc := r.at(s); pc.tok == "P" || pc.tok == "R" || pc.tok == "Q" {
				dead = false
				goto done
			}
		}
		{
			wo, wb := count(White)
			bo, bb := count(Black)
			all := append(wb, bb...)
			switch {
			case wo+bo <= 1:
				dead = true
			case len(all) == wo+bo:
				dead = !slices.Contains(all, 0) || !slices.Contains(all, 1)
			}
		}
	done:
		if dead {
			return Draw, ReasonInsufficient
		}
	}
	limit := map[refFamily]int{famChess: 100, famShatranj: 140, famShako: 100, famT2: 100, famTam: r.nmove}[r.fam]
	if limit > 0 && r.half >= limit {
		return Draw, ReasonMoveRule
	}
	if reps >= 3 {
		return Draw, ReasonRepetition
	}
	return Ongoing, ReasonNone
}

// diff describes how two reference positions differ ("" if equal).
func (r *refPos) diff(o *refPos) string {
	var d []string
	for f := 0; f < r.files; f++ {
		for rk := 0; rk < r.ranks; rk++ {
			if r.b[f][rk] != o.b[f][rk] {
				d = append(d, fmt.Sprintf("%v: %v vs %v", rsq{f, rk}.square(), r.b[f][rk], o.b[f][rk]))
			}
		}
	}
	if r.cit != o.cit {
		d = append(d, fmt.Sprintf("citadels %v vs %v", r.cit, o.cit))
	}
	if r.side != o.side {
		d = append(d, "side")
	}
	if r.hasEP != o.hasEP || r.hasEP && r.ep != o.ep {
		d = append(d, fmt.Sprintf("ep %v/%v vs %v/%v", r.hasEP, r.ep.square(), o.hasEP, o.ep.square()))
	}
	if r.rights != o.rights {
		d = append(d, fmt.Sprintf("rights %v vs %v", r.rights, o.rights))
	}
	if r.pp != o.pp {
		d = append(d, fmt.Sprintf("pawnofpawns %v vs %v", r.pp, o.pp))
	}
	if r.half != o.half {
		d = append(d, fmt.Sprintf("halfmove %d vs %d", r.half, o.half))
	}
	return strings.Join(d, "; ")
}

// checkAgainstReference compares the engine's legal moves, InCheck,
// Outcome and the position after every legal move with the reference;
// reps counts the position's occurrences since the last capture or pawn
// move. It returns the number of moves compared and the outcome's reason.
func checkAgainstReference(t *testing.T, p *Position, reps int) (int, Reason, bool) {
	t.Helper()
	fen := p.FEN()
	ref, err := refFromEngine(p)
	if err != nil {
		t.Errorf("%s: %s: %v", p.Variant().Name, fen, err)
		return 0, "", false
	}
	want := map[string]refMove{}
	refLegal := ref.legal()
	for _, m := range refLegal {
		if _, dup := want[m.key()]; dup {
			t.Errorf("%s: reference generated %s twice", fen, m.key())
		}
		want[m.key()] = m
	}
	moves := legalMoves(p)
	got := map[string]Move{}
	for _, m := range moves {
		k := engineKey(p, m)
		if _, dup := got[k]; dup {
			t.Errorf("%s: %s: engine generated %s twice", p.Variant().Name, fen, k)
		}
		got[k] = m
	}
	var extra, missing []string
	for k := range got {
		if _, ok := want[k]; !ok {
			extra = append(extra, k)
		}
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(extra)+len(missing) > 0 {
		sort.Strings(extra)
		sort.Strings(missing)
		t.Errorf("%s [%s]: %s\n  engine only: %v\n  reference only: %v", p.Variant().Name, p.Variant().Options, fen, extra, missing)
		return len(moves), "", false
	}
	roy := ref.royals(ref.side)
	wantCheck := len(roy) == 1 && ref.attacked(roy[0], ref.side.Other())
	if p.InCheck() != wantCheck {
		t.Errorf("%s: %s: InCheck() = %v, reference %v", p.Variant().Name, fen, p.InCheck(), wantCheck)
		return len(moves), "", false
	}
	gr, gw := p.Outcome()
	if wr, ww := ref.outcome(refLegal, reps); gr != wr || gw != ww {
		t.Errorf("%s: %s: Outcome() = %v %q, reference %v %q", p.Variant().Name, fen, gr, gw, wr, ww)
		return len(moves), "", false
	}
	ok := true
	for _, m := range moves {
		rm := want[engineKey(p, m)]
		after := ref.make(rm)
		p.Make(m)
		eng, err := refFromEngine(p)
		if err != nil {
			t.Errorf("%s: %s after %s: %v", p.Variant().Name, fen, engineKey(p, m), err)
			ok = false
		} else if d := after.diff(eng); d != "" {
			p.Unmake()
			t.Errorf("%s: %s: after %s (%s) the engine differs from the reference (reference vs engine): %s", p.Variant().Name, fen, p.Coord(m), engineKey(p, m), d)
			return len(moves), "", false
		}
		p.Unmake()
	}
	if p.FEN() != fen {
		t.Errorf("%s: FEN changed by make/unmake: %s -> %s", p.Variant().Name, fen, p.FEN())
		ok = false
	}
	return len(moves), gw, ok
}

// TestReferenceDifferential compares the engine's legal moves with the
// reference generator's on seeded random playouts of every variant under
// every rule option (RULES.md 1-5, 3.8), from the start positions and from
// targeted positions near the rare rules.
func TestReferenceDifferential(t *testing.T) {
	// Playouts per start position and their length: from the variant's
	// start, and (shorter) from each targeted position.
	games, plies, tgames, tplies := 8, 200, 4, 80
	if testing.Short() {
		games, plies, tgames, tplies = 2, 80, 1, 30
	}
	for _, rs := range allRuleSets() {
		t.Run(rs.String(), func(t *testing.T) {
			v := mustRuleVariant(t, rs)
			starts := []string{v.StartFEN}
			for _, f := range targeted(v) {
				starts = append(starts, f)
			}
			nodes, moves, citadel, multi := 0, 0, 0, 0
			kinds := map[MoveKind]int{}
			reasons := map[Reason]int{}
			for si, start := range starts {
				n, length := games, plies
				if si > 0 {
					n, length = tgames, tplies
				}
				for g := 0; g < n; g++ {
					rng := newRNG(uint64(1000*si + g + 1))
					p := mustFEN(t, v, start)
					failed := false
					var keys []string // positions since the start, without the move counters
					playout(rng, p, length, func(p *Position) bool {
						f := strings.Fields(p.FEN())
						keys = append(keys, strings.Join(f[:4], " "))
						reps := 0
						for i := len(keys) - 1; i >= 0 && i >= len(keys)-1-p.HalfmoveClock(); i-- {
							if keys[i] == keys[len(keys)-1] {
								reps++
							}
						}
						k, why, ok := checkAgainstReference(t, p, reps)
						reasons[why]++
						nodes++
						moves += k
						if !ok {
							failed = true
							return false
						}
						for _, m := range legalMoves(p) {
							kinds[m.Kind()]++
							if v.IsCitadel(m.To()) || v.IsCitadel(m.From()) {
								citadel++
							}
						}
						if len(p.Royals(p.SideToMove())) > 1 {
							multi++
						}
						return true
					})
					if failed {
						return
					}
				}
			}
			t.Logf("%d positions (%d with several royals to move), %d moves (%d citadel steps), kinds %v, outcomes %v",
				nodes, multi, moves, citadel, kinds, reasons)
		})
	}
}

// TestTargetedFENsParse guards the targeted positions against typos: each
// must parse in its own variant, and the side that has just moved must not
// be in check.
func TestTargetedFENsParse(t *testing.T) {
	for name, fens := range targetedFENs {
		v := MustVariant(name, nil)
		for _, f := range fens {
			p, err := ParseFEN(v, f)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			p.MakeNull()
			if p.InCheck() {
				t.Errorf("%s: %s: the side not to move is in check", name, f)
			}
		}
	}
}
