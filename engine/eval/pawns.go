package eval

import (
	"math"
	"math/bits"

	"tamerlane/engine"
)

// pawnCacheSize is the number of entries of an evaluator's
// pawn-structure cache (a power of two).
const pawnCacheSize = 1 << 10

// squareWords is the number of 64-bit words of a set of mailbox squares.
const squareWords = (engine.NumSquares + 63) / 64

// pawnEntry is the part of the pawn terms that depends on the pawns alone
// (their colours and squares; the key hashes their types too): the
// structure counts, White's minus Black's, and each side's passed pawns
// as a set of squares. The passed pawns' own terms are added from the
// set, since their path terms depend on the royals and the square in
// front.
type pawnEntry struct {
	key                                   uint64
	doubled, isolated, supported, phalanx int32
	passed                                [2][squareWords]uint64
	// files[c] has bit f+1 set when c has a pawn on file f (see
	// Evaluator.fileMask)
	files [2]uint32
}

// pawns adds the pawn-structure terms: doubled, isolated, supported and
// phalanx pawns, and the passed-pawn terms. It fills the files with pawns
// that the file and royal-cover terms read (fileMask). The counts, the
// passed pawns and the files come from the pawn-structure cache when the
// same pawns were evaluated before (see pawnEntry); else the pawn counts
// and extreme ranks by file are filled first. Unless path is set it
// leaves out the passed pawns' path terms.
func (e *Evaluator) pawns(pos *engine.Position, path bool) {
	r := e.reg
	raw := &e.raw
	var key uint64 // 0: not cached (no cache, or a side's pawns overflow pawnSq)
	if e.pawnCache != nil && e.npawn[0] < len(e.pawnSq[0]) && e.npawn[1] < len(e.pawnSq[1]) {
		for c := 0; c < 2; c++ {
			for _, s := range e.pawnSq[c][:e.npawn[c]] {
				key ^= engine.PieceKey(pos.At(s), s)
			}
		}
	}
	ent := &e.pawnScratch
	if key != 0 {
		ent = &e.pawnCache[key&(pawnCacheSize-1)]
		if ent.key == key {
			e.pawnHits++
		} else {
			e.pawnFiles()
			e.pawnStructure(pos, ent)
			ent.key = key
		}
	} else {
		e.pawnFiles()
		e.pawnStructure(pos, ent)
	}
	e.fileMask = ent.files
	raw[r.doubled] += ent.doubled
	raw[r.isolated] += ent.isolated
	if r.pawnChain >= 0 {
		raw[r.pawnChain] += ent.supported
		raw[r.pawnChain+1] += ent.phalanx
	}
	for c := 0; c < 2; c++ {
		sgn := int32(1 - 2*c)
		for w, b := range ent.passed[c] {
			for ; b != 0; b &= b - 1 {
				e.passedTerms(pos, engine.Square(64*w+bits.TrailingZeros64(b)), engine.Color(c), sgn, path)
			}
		}
	}
}

// passedTerms adds the terms of c's passed pawn on s, signed by sgn:
// passed.T, its ranks-to-go bucket and, if path is set, its path terms.
func (e *Evaluator) passedTerms(pos *engine.Position, s engine.Square, c engine.Color, sgn int32, path bool) {
	rr := e.rel[c][s]
	e.raw[e.types[pos.At(s).Type()].passed&(maxTerms-1)] += sgn * rr * rr
	e.raw[e.goBucket[min(e.lastRank-rr, int32(len(e.goBucket)-1))]&(maxTerms-1)] += sgn
	if w := passedPathWeight(e.lastRank - rr); w > 0 && path && e.reg.passedFree >= 0 {
		e.passedPath(pos, s, c, sgn*w)
	}
}

// pawnFiles fills the pawn counts and the lowest and highest ranks of
// each side's pawns by file (shifted by one: files -1 and nf are empty
// sentinels).
func (e *Evaluator) pawnFiles() {
	nf := e.files
	for c := 0; c < 2; c++ {
		for f := 0; f < nf+2; f++ {
			e.pawnCount[c][f] = 0
			e.minRank[c][f] = math.MaxInt32
			e.maxRank[c][f] = -1
		}
		for _, s := range e.pawnSq[c][:e.npawn[c]] {
			f := int(e.file[s]) + 1
			rk := int32(e.rank[s])
			e.pawnCount[c][f]++
			e.minRank[c][f] = min(e.minRank[c][f], rk)
			e.maxRank[c][f] = max(e.maxRank[c][f], rk)
		}
	}
}

// pawnStructure computes ent's counts and passed pawns from the pawns
// (the files filled by pawnFiles).
func (e *Evaluator) pawnStructure(pos *engine.Position, ent *pawnEntry) {
	nf := e.files
	ent.doubled, ent.isolated, ent.supported, ent.phalanx = 0, 0, 0, 0
	for c := 0; c < 2; c++ {
		sgn := int32(1 - 2*c)
		var doubled, isolated int32
		for f := 1; f <= nf; f++ {
			if n := e.pawnCount[c][f]; n > 1 {
				doubled += n - 1
			}
			if n := e.pawnCount[c][f]; n > 0 && e.pawnCount[c][f-1] == 0 && e.pawnCount[c][f+1] == 0 {
				isolated += n
			}
		}
		var files uint32
		for f := 1; f <= nf; f++ {
			if e.pawnCount[c][f] != 0 {
				files |= 1 << f
			}
		}
		ent.files[c] = files
		ent.doubled += sgn * doubled
		ent.isolated += sgn * isolated
		if e.reg.pawnChain >= 0 {
			supported, phalanx := e.chains(pos, engine.Color(c))
			ent.supported += sgn * supported
			ent.phalanx += sgn * phalanx
		}
		rel := &e.rel[c]
		ent.passed[c] = [squareWords]uint64{}
		for _, s := range e.pawnSq[c][:e.npawn[c]] {
			if rel[s] >= e.lastRank {
				continue // a waiting pawn of pawns
			}
			f := int(e.file[s]) + 1
			rk := int32(e.rank[s])
			passed := true
			if c == 0 {
				for g := f - 1; g <= f+1; g++ {
					if e.maxRank[1][g] > rk {
						passed = false
					}
				}
			} else {
				for g := f - 1; g <= f+1; g++ {
					if e.minRank[0][g] < rk {
						passed = false
					}
				}
			}
			if passed {
				ent.passed[c][s/64] |= 1 << (s % 64)
			}
		}
	}
}

// passedPath adds the passed-path terms of c's passed pawn on s with
// weight w (signed for c): passed.free when the square in front is empty,
// and the distances (in king moves, at most 5) from the nearest enemy and
// friendly royals on the playing area to that square (5 without one).
func (e *Evaluator) passedPath(pos *engine.Position, s engine.Square, c engine.Color, w int32) {
	r := e.reg
	stop := s + engine.Stride
	if c == engine.Black {
		stop = s - engine.Stride
	}
	if !e.onBoard[stop] {
		return
	}
	if pos.At(stop) == engine.Empty {
		e.raw[r.passedFree] += w
	}
	if r.passedRoyal < 0 {
		return
	}
	e.raw[r.passedRoyal] += w * e.royalDistance(pos, c.Other(), stop)
	e.raw[r.passedRoyal+1] += w * e.royalDistance(pos, c, stop)
}

// royalDistance returns the distance in king moves from c's nearest royal
// on the playing area to s, at most 5.
func (e *Evaluator) royalDistance(pos *engine.Position, c engine.Color, s engine.Square) int32 {
	d := int32(5)
	f, rk := int32(e.file[s]), int32(e.rank[s])
	for _, k := range pos.Royals(c) {
		if !e.onBoard[k] {
			continue
		}
		df, dr := int32(e.file[k])-f, int32(e.rank[k])-rk
		d = min(d, max(df, -df, dr, -dr))
	}
	return d
}

// chains counts c's pawns on the playing area that a friendly pawn
// attacks (when every pawn type captures by the same leaps, see
// pawnCaptures; else none) and those with a friendly pawn beside them on
// the same rank.
func (e *Evaluator) chains(pos *engine.Position, c engine.Color) (supported, phalanx int32) {
	own := func(x engine.Square) bool {
		if !e.onBoard[x] {
			return false
		}
		pc := pos.At(x)
		return pc != engine.Empty && pc.Color() == c && e.types[pc.Type()].pawn
	}
	for _, s := range e.pawnSq[c][:e.npawn[c]] {
		if !e.onBoard[s] {
			continue
		}
		if own(s-1) || own(s+1) {
			phalanx++
		}
		for _, d := range e.pawnCap[c][:e.npawnCap] {
			if own(s - engine.Square(d)) {
				supported++
				break
			}
		}
	}
	return supported, phalanx
}
