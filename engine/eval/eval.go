package eval

import (
	"fmt"
	"math"
	"math/bits"

	"tamerlane/engine"
)

// Feature is one non-zero entry of a position's feature vector: the value
// x_i of weight i, the taper already applied.
type Feature struct {
	Index int32
	Value float32
}

// fixShift is the fixed-point precision of the weights inside an
// Evaluator: weights are rounded to multiples of 2^-fixShift centipawns.
// With |weights| below 10^5 cp and raw term values below 10^4, the 64-bit
// sums cannot overflow.
const fixShift = 20

// Evaluator evaluates positions of one variant with one table. It owns
// reusable buffers, so it is not safe for concurrent use: give every
// goroutine its own (New is cheap). Evaluate does not allocate.
type Evaluator struct {
	w        *Weights
	reg      *Registry
	wmg, weg []int64 // per term, fixed point (2^fixShift per centipawn)
	nterms   int
	ncore    int             // the terms before the placement tables (their sum is placeMG/placeEG)
	raw      [maxTerms]int32 // per term, White minus Black
	// placement tables (placement.go): their weighted sums, fixed point,
	// White minus Black, and each square's file from the nearer edge
	placeMG, placeEG int64
	fileFromEdge     [engine.NumSquares]int32
	placeLive        bool // a placement weight is not 0: Evaluate adds the tables
	// pieceSums[code*MaxIndex+i] is the weighted sum of the terms that a
	// piece's code and square alone decide (see pieceSums)
	pieceSums []pieceSum
	types     [256]typeTerms // by piece type (a copy of the registry's)
	phaseW    [256]int32     // by piece type
	rank      [engine.NumSquares]int8
	// cover[c] is the set of squares c's pieces attack; attBy[c][t] the
	// squares c's pieces of type t attack, for the types in typesSeen[c]
	// (the others hold a former evaluation's sets), filled only when the
	// threats or the safe checks read them (else typesSeen is 0)
	cover     [2]engine.Bitboard
	attBy     [2][32]engine.Bitboard
	typesSeen [2]uint64
	// per-square tables of the variant's board
	cent     [engine.NumSquares]int32
	rel      [2][engine.NumSquares]int32
	file     [engine.NumSquares]int8
	onBoard  [engine.NumSquares]bool
	files    int
	lastRank int32
	// pawn structure scratch; fileMask[c] has bit f+1 set when c has a
	// pawn on file f (0 when the variant has no pawn terms)
	fileMask  [2]uint32
	pawnCount [2][engine.MaxFiles + 2]int32
	minRank   [2][engine.MaxFiles + 2]int32 // lowest absolute rank of a pawn on the file
	maxRank   [2][engine.MaxFiles + 2]int32 // highest absolute rank
	pawnSq    [2][64]engine.Square
	npawn     [2]int
	// the pawn-structure cache (pawns.go), by pawn key; nil switches it
	// off. pawnScratch holds the structure when it is not cached, and
	// pawnHits counts the lookups that found their pawns.
	pawnCache   []pawnEntry
	pawnScratch pawnEntry
	pawnHits    int
	// zone9 and ring8 are, by square index, the square's 3x3
	// neighbourhood on the board (itself included) and its neighbours
	zone9, ring8 [engine.MaxIndex]engine.Bitboard
	// royalSet[c] holds c's royals
	royalSet [2]engine.Bitboard
	parity   [engine.NumSquares]uint8 // colour of the square (file+rank)&1
	rookSq   [2][32]engine.Square
	nrook    [2]int
	pairMask [2]uint64
	goBucket [engine.MaxFiles + 8]int32 // by ranks to go: passed bucket term
	tval     [maxTypes]int32            // threat rank by type
	pawnCap  [2][maxPawnCaps]int        // squares an enemy pawn captures from: see threats
	npawnCap int
	// unsafe mobility: the squares each side's pawns attack, and whether a
	// weight of the terms is not 0 (else Evaluate leaves them out)
	pawnAtt    [2]engine.Bitboard
	unsafeLive bool
	// safe-check scratch: see safeChecks
	checkers   []engine.PieceType        // the non-pawn non-royal types
	checkBuf   []engine.CheckSquare      // CheckSquares' output
	checkSeen  [engine.NumSquares]uint64 // piece codes counted on a square for the current royal
	v          *engine.Variant
	checksLive bool // a safe-check weight is not 0: Evaluate computes the safe checks
	// whether a weight of these groups of terms is not 0 (else Evaluate
	// leaves them out): the attacks on the royals' neighbourhoods and the
	// danger, the threats, the royals' pawn cover, and the passed pawns'
	// paths
	zoneLive, threatsLive, coverLive, pathLive bool
}

// New returns an evaluator for table w. The weights are copied (rounded to
// 2^-20 cp): later changes to w.Values do not affect it.
func New(w *Weights) *Evaluator {
	r := w.reg
	v := r.base
	e := &Evaluator{w: w.Clone(), reg: r, files: v.Files, lastRank: int32(v.Ranks - 1), v: v}
	nt := len(r.terms)
	e.wmg = make([]int64, nt)
	e.weg = make([]int64, nt)
	e.nterms = nt
	e.pawnCache = make([]pawnEntry, pawnCacheSize)
	e.ncore = int(r.placeStart)
	copy(e.types[:], r.types)
	copy(e.phaseW[:], r.phaseWeight)
	for i := 0; i < nt; i++ {
		e.wmg[i] = int64(math.Round(w.Values[2*i] * (1 << fixShift)))
		e.weg[i] = int64(math.Round(w.Values[2*i+1] * (1 << fixShift)))
		if e.wmg[i] != 0 || e.weg[i] != 0 {
			switch {
			case i >= e.ncore:
				e.placeLive = true
			case r.terms[i].kind == kUnsafe:
				e.unsafeLive = true
			}
		}
	}
	for r := 0; r < v.Ranks; r++ {
		for f := 0; f < v.Files; f++ {
			s := engine.SquareAt(f, r)
			e.onBoard[s] = true
			e.file[s] = int8(f)
			e.rank[s] = int8(r)
			e.fileFromEdge[s] = int32(min(f, v.Files-1-f))
			e.cent[s] = e.fileFromEdge[s] + int32(min(r, v.Ranks-1-r))
			e.rel[engine.White][s] = int32(r)
			e.rel[engine.Black][s] = int32(v.Ranks - 1 - r)
		}
	}
	// Citadels: rank as the neighbouring square, no centrality.
	for _, c := range v.Citadels {
		e.rel[engine.White][c.Square] = int32(c.Square.Rank())
		e.rel[engine.Black][c.Square] = int32(v.Ranks - 1 - c.Square.Rank())
	}
	for s := range engine.Square(engine.NumSquares) {
		f, rk := s.File(), s.Rank()
		e.parity[s] = uint8((f + rk) & 1)
		if !e.onBoard[s] {
			continue
		}
		i := v.Index(s)
		for dr := -1; dr <= 1; dr++ {
			for df := -1; df <= 1; df++ {
				if z := s + engine.Square(df+dr*engine.Stride); e.onBoard[z] {
					e.zone9[i] = e.zone9[i].Or(engine.BitAt(v.Index(z)))
					if z != s {
						e.ring8[i] = e.ring8[i].Or(engine.BitAt(v.Index(z)))
					}
				}
			}
		}
	}
	for d := range e.goBucket {
		e.goBucket[d] = r.passedGo + passedBucket(int32(d))
	}
	copy(e.tval[:], r.threatValue)
	if caps := pawnCaptures(v); len(caps) <= maxPawnCaps {
		for i, d := range caps {
			// A pawn on s-d captures on s; Black's ranks are mirrored.
			e.pawnCap[engine.White][i] = d[0] + d[1]*engine.Stride
			e.pawnCap[engine.Black][i] = d[0] - d[1]*engine.Stride
		}
		e.npawnCap = len(caps)
	}
	e.pieceSums = e.buildPieceSums()
	live := func(k int32) bool { return k >= 0 && (e.wmg[k] != 0 || e.weg[k] != 0) }
	e.zoneLive = live(r.danger)
	for t := 1; t <= v.NumTypes(); t++ {
		e.zoneLive = e.zoneLive || live(r.types[t].zone)
	}
	e.threatsLive = live(r.threat)
	e.coverLive = live(r.shield) || live(r.royalFiles)
	e.pathLive = live(r.passedFree) || live(r.passedRoyal) || (r.passedRoyal >= 0 && live(r.passedRoyal+1))
	if r.checks >= 0 {
		e.checksLive = e.wmg[r.checks] != 0 || e.weg[r.checks] != 0
		e.checkBuf = make([]engine.CheckSquare, 0, 4*engine.NumSquares)
		for t := 1; t <= v.NumTypes(); t++ {
			if tt := r.types[t]; !tt.pawn && !tt.royal {
				e.checkers = append(e.checkers, engine.PieceType(t))
			}
		}
	}
	return e
}

// Weights returns a copy of the table the evaluator was built with (do not
// modify it; build a new Evaluator for new weights).
func (e *Evaluator) Weights() *Weights { return e.w }

// Registry returns the evaluator's registry.
func (e *Evaluator) Registry() *Registry { return e.reg }

// Evaluate returns the static evaluation of pos in centipawns from the
// side to move's point of view. It equals the sum of Features times
// weights (from White's point of view, negated when Black is to move),
// computed exactly in fixed point with the weights rounded to 2^-20 cp and
// rounded to the nearest centipawn at the end; it does not allocate.
func (e *Evaluator) Evaluate(pos *engine.Position) int {
	s := e.EvaluateWhite(pos)
	if pos.SideToMove() == engine.Black {
		return -s
	}
	return s
}

// EvaluateWhite is Evaluate from White's point of view.
func (e *Evaluator) EvaluateWhite(pos *engine.Position) int {
	phase := e.compute(pos, false)
	var sum int64
	mg, eg := int64(phase), int64(Phase-phase)
	for i, x := range e.raw[:e.ncore] {
		if x != 0 {
			sum += int64(x) * (e.wmg[i]*mg + e.weg[i]*eg)
		}
	}
	sum += e.placeMG*mg + e.placeEG*eg
	return roundFixed(sum)
}

// roundFixed rounds a fixed-point sum of weights times phase-scaled values
// to the nearest centipawn, halves away from zero.
func roundFixed(sum int64) int {
	const den = Phase << fixShift
	if sum >= 0 {
		return int((sum + den/2) / den)
	}
	return -int((-sum + den/2) / den)
}

// PhaseOf returns the game phase of pos, from Phase (all the start
// position's pieces on the board) down to 0.
func (e *Evaluator) PhaseOf(pos *engine.Position) int {
	r := e.reg
	var ph int32
	for c := engine.White; c <= engine.Black; c++ {
		for _, s := range pos.Pieces(c) {
			ph += r.phaseWeight[pos.At(s).Type()]
		}
	}
	return scalePhase(ph, r.phaseTotal)
}

func scalePhase(ph, total int32) int {
	p := (int64(ph)*Phase + int64(total)/2) / int64(total)
	if p > Phase {
		p = Phase
	}
	return int(p)
}

// Features appends to dst the non-zero features of pos (White's point of
// view) in increasing index order and returns the extended slice:
// eval = sum over the features of Weights.Values[Index] * Value.
// For term i with raw value x (White's count minus Black's) and phase p,
// weight 2i (".mg") has value x*p/Phase and weight 2i+1 (".eg") has value
// x*(Phase-p)/Phase; both are exact in float32.
func (e *Evaluator) Features(pos *engine.Position, dst []Feature) []Feature {
	phase := e.compute(pos, true)
	mg := float32(phase) / Phase
	eg := float32(Phase-phase) / Phase
	for i, x := range e.raw[:e.nterms] {
		if x == 0 {
			continue
		}
		if phase != 0 {
			dst = append(dst, Feature{Index: int32(2 * i), Value: float32(x) * mg})
		}
		if phase != Phase {
			dst = append(dst, Feature{Index: int32(2*i + 1), Value: float32(x) * eg})
		}
	}
	return dst
}

// Raw returns a copy of the raw term values of pos (White's count minus
// Black's, by term: weight names without the .mg/.eg suffix) and its
// phase, for debugging and tests.
func (e *Evaluator) Raw(pos *engine.Position) (map[string]int, int) {
	phase := e.compute(pos, true)
	out := map[string]int{}
	for i, x := range e.raw[:e.nterms] {
		if x != 0 {
			out[e.reg.terms[i].name] = int(x)
		}
	}
	return out, phase
}

// compute fills e.raw with the raw term values of pos and returns the
// phase. Unless all is set it may leave out terms whose weights are all 0
// (see the evaluator's live flags), which changes no evaluation, and it
// adds the terms of pieceSums to the placement sums instead of raw.
func (e *Evaluator) compute(pos *engine.Position, all bool) int {
	if pos.Variant().Name != e.reg.variant {
		panic(fmt.Sprintf("eval: evaluator for %s given a %s position", e.reg.variant, pos.Variant().Name))
	}
	r := e.reg
	raw := &e.raw
	if all {
		clear(raw[:e.nterms])
	} else {
		clear(raw[:e.ncore]) // Evaluate reads the placement terms' sums only
	}
	e.placeMG, e.placeEG = 0, 0
	e.cover = [2]engine.Bitboard{}
	for c := range e.typesSeen {
		for m := e.typesSeen[c]; m != 0; m &= m - 1 {
			e.attBy[c][bits.TrailingZeros64(m)] = engine.Bitboard{}
		}
		e.typesSeen[c] = 0
	}
	// the attacks by type are read by the threats and the safe checks only
	byType := all || e.threatsLive || (r.checks >= 0 && e.checksLive)
	unsafe := r.hasUnsafe && (all || e.unsafeLive)
	if unsafe {
		e.pawnAttacks(pos)
	}
	for c := engine.White; c <= engine.Black; c++ {
		var royals engine.Bitboard
		for _, s := range pos.Royals(c) {
			royals = royals.Or(engine.BitAt(e.v.Index(s)))
		}
		e.royalSet[c] = royals
	}
	var ph int32
	for c := engine.White; c <= engine.Black; c++ {
		sgn := int32(1)
		if c == engine.Black {
			sgn = -1
		}
		rel := &e.rel[c]
		np, nr := 0, 0
		var attackers, attacks int32 // non-pawn pieces attacking the enemy royals' zone, and their squares
		var pairs uint64
		var zone engine.Bitboard
		if all || e.zoneLive {
			zone = e.zoneOf(pos, c.Other())
		}
		inZone := zone.Any()
		var enemyPawnAtt engine.Bitboard
		if unsafe {
			enemyPawnAtt = e.pawnAtt[c.Other()]
		}
		var cover engine.Bitboard
		var seen uint64
		attBy := &e.attBy[c]
		for _, s := range pos.Pieces(c) {
			t := pos.At(s).Type()
			tt := &e.types[t]
			avoid := enemyPawnAtt
			if tt.unsafe < 0 {
				avoid = engine.Bitboard{}
			}
			ph += e.phaseW[t]
			if all {
				raw[tt.material&(maxTerms-1)] += sgn
				raw[tt.center&(maxTerms-1)] += sgn * e.cent[s]
				raw[tt.advance&(maxTerms-1)] += sgn * rel[s]
				e.place(tt, s, rel[s], sgn, true)
			} else {
				ps := &e.pieceSums[int(engine.MakePiece(t, c))*engine.MaxIndex+e.v.Index(s)&(engine.MaxIndex-1)]
				e.placeMG += ps.mg
				e.placeEG += ps.eg
			}
			var att engine.Bitboard
			var n, unsafeN int
			if tt.attacksOnly {
				att = pos.AttackSet(s)
			} else {
				att, n, unsafeN = pos.Mobility(s, avoid)
			}
			cover = cover.Or(att)
			if byType {
				attBy[t&31] = attBy[t&31].Or(att)
				seen |= 1 << (t & 31)
			}
			if inZone && tt.zone >= 0 {
				a := int32(att.And(zone).Count())
				raw[tt.zone&(maxTerms-1)] += sgn * a
				if a > 0 && !tt.pawn {
					attackers++
					attacks += a
				}
			}
			if tt.mobility >= 0 {
				raw[tt.mobility&(maxTerms-1)] += sgn * int32(n)
			}
			if unsafeN > 0 {
				raw[tt.unsafe&(maxTerms-1)] += sgn * int32(unsafeN)
			}
			if short := tt.crampedBelow - int32(n); short > 0 {
				raw[r.cramped] += sgn * short
			}
			if tt.pawn && np < len(e.pawnSq[c]) {
				e.pawnSq[c][np] = s
				np++
			}
			if tt.pair >= 0 {
				pairs |= 1 << (2*uint(tt.pairSlot) + uint(e.parity[s]))
			}
			if tt.open >= 0 && nr < len(e.rookSq[c]) && e.onBoard[s] {
				e.rookSq[c][nr] = s
				nr++
			}
		}
		e.cover[c] = cover
		e.typesSeen[c] = seen
		if r.danger >= 0 {
			raw[r.danger] += sgn * dangerValue(attackers, attacks)
		}
		e.npawn[c] = np
		e.nrook[c] = nr
		e.pairMask[c] = pairs
	}
	e.pairTerms()
	if r.doubled >= 0 {
		e.pawns(pos, all || e.pathLive)
		e.fileTerms(pos)
	}
	if r.attacked >= 0 {
		for c := engine.White; c <= engine.Black; c++ {
			sgn := int32(1)
			if c == engine.Black {
				sgn = -1
			}
			enemy := e.cover[c.Other()]
			royals := pos.Royals(c)
			guards := pos.Occupied(c).AndNot(e.royalSet[c])
			var att, shel int32
			for _, s := range royals {
				if !e.onBoard[s] {
					continue // in a citadel: safe
				}
				i := e.v.Index(s)
				att += int32(e.zone9[i].And(enemy).Count())
				shel += int32(e.ring8[i].And(guards).Count())
			}
			raw[r.attacked] += sgn * att
			raw[r.shelter] += sgn * shel
			if r.shield >= 0 && (all || e.coverLive) {
				shield, files := e.royalCover(pos, c)
				raw[r.shield] += sgn * shield
				raw[r.royalFiles] += sgn * files
			}
			if r.extraRoyal >= 0 && len(royals) > 1 {
				raw[r.extraRoyal] += sgn * int32(len(royals)-1)
			}
		}
	}
	// Hanging pieces: attacked and undefended (the covers are complete now).
	for c := engine.White; c <= engine.Black; c++ {
		n := int32(pos.Occupied(c).AndNot(e.royalSet[c]).And(e.cover[c.Other()]).AndNot(e.cover[c]).Count())
		if c == engine.White {
			raw[r.hanging] += n
		} else {
			raw[r.hanging] -= n
		}
	}
	if all || e.threatsLive {
		raw[r.threat] = e.threats(pos, engine.White) - e.threats(pos, engine.Black)
	}
	if r.checks >= 0 && (all || e.checksLive) {
		raw[r.checks] = e.safeChecks(pos, engine.White) - e.safeChecks(pos, engine.Black)
	}
	if pos.SideToMove() == engine.White {
		raw[r.tempo] = 1
	} else {
		raw[r.tempo] = -1
	}
	return scalePhase(ph, r.phaseTotal)
}
