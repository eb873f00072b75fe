package engine

// A deliberately simple, independent reference implementation of the rules
// of docs/rules.md, used to check the engine's move generator and Make on
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
// Readings of docs/rules.md the reference makes (the most literal ones):
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
	"strconv"
	"strings"
	"sync"
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

// The citadels of docs/rules.md 3.1: l2 (White's) and z9 (Black's).
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

// waiting returns c's waiting pawn of pawns (docs/rules.md 3.4.1): after exactly
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
// captured (a waiting pawn of pawns may not, docs/rules.md 3.4.1).
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

// isRanking: no own royal ranks higher (docs/rules.md 3.5).
func (r *refPos) isRanking(tok string, c Color) bool {
	for _, s := range r.royals(c) {
		if r.royalRank(r.at(s).tok) < r.royalRank(tok) {
			return false
		}
	}
	return true
}

// citadelEnded: a royal stands in the enemy citadel (docs/rules.md 3.1).
func (r *refPos) citadelEnded() bool {
	if !r.citOn {
		return false
	}
	return r.cit[0].tok != "" && r.cit[0].col == Black || r.cit[1].tok != "" && r.cit[1].col == White
}

// outcome returns the game's result by rule (docs/rules.md 2.5, 3.1, 3.6, 5),
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
