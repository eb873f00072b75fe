package eval

import (
	"math"

	"tamerlane/engine"
)

// pawns adds the pawn-structure terms: doubled, isolated, supported and
// phalanx pawns, and the passed-pawn terms.
func (e *Evaluator) pawns(pos *engine.Position) {
	r := e.reg
	raw := &e.raw
	nf := e.files
	for c := 0; c < 2; c++ {
		for f := 0; f < nf+2; f++ {
			e.pawnCount[c][f] = 0
			e.minRank[c][f] = math.MaxInt32
			e.maxRank[c][f] = -1
		}
		for _, s := range e.pawnSq[c][:e.npawn[c]] {
			f := int(e.file[s]) + 1 // shifted by one: files -1 and nf are sentinels
			rk := int32(e.rank[s])
			e.pawnCount[c][f]++
			e.minRank[c][f] = min(e.minRank[c][f], rk)
			e.maxRank[c][f] = max(e.maxRank[c][f], rk)
		}
	}
	for c := 0; c < 2; c++ {
		sgn := int32(1)
		if c == 1 {
			sgn = -1
		}
		var doubled, isolated int32
		for f := 1; f <= nf; f++ {
			if n := e.pawnCount[c][f]; n > 1 {
				doubled += n - 1
			}
			if n := e.pawnCount[c][f]; n > 0 && e.pawnCount[c][f-1] == 0 && e.pawnCount[c][f+1] == 0 {
				isolated += n
			}
		}
		raw[r.doubled] += sgn * doubled
		raw[r.isolated] += sgn * isolated
		if r.pawnChain >= 0 {
			supported, phalanx := e.chains(pos, engine.Color(c))
			raw[r.pawnChain] += sgn * supported
			raw[r.pawnChain+1] += sgn * phalanx
		}
		rel := &e.rel[c]
		for _, s := range e.pawnSq[c][:e.npawn[c]] {
			rr := rel[s]
			if rr >= e.lastRank {
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
				raw[e.types[pos.At(s).Type()].passed&(maxTerms-1)] += sgn * rr * rr
				raw[e.goBucket[min(e.lastRank-rr, int32(len(e.goBucket)-1))]&(maxTerms-1)] += sgn
				if w := passedPathWeight(e.lastRank - rr); w > 0 && r.passedFree >= 0 {
					e.passedPath(pos, s, engine.Color(c), sgn*w)
				}
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
