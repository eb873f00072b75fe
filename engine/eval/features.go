package eval

import (
	"math/bits"
	"slices"

	"tamerlane/engine"
)

// This file holds the terms that carry strength beyond material,
// mobility and placement: attacks on the enemy royal's neighbourhood by attacker type,
// passed pawns by distance to promotion, piece pairs of colour-bound
// types, rook-like pieces on open and half-open files, and pieces attacked
// by a cheaper piece. Like every other term they are generated from the
// piece table alone.

// passedBuckets maps a passed pawn's distance to promotion (ranks to go,
// 1 = one step from its last rank) to its bucket: 1, 2, 3, 4-5 and 6 or
// more. Buckets count from the promotion rank, where the value of a passed
// pawn changes fastest, so one table serves boards of 8 to 11 ranks.
var passedBucketNames = [...]string{"passed.go1", "passed.go2", "passed.go3", "passed.go4", "passed.go6"}

// passedPathWeight is the weight of a passed pawn with d ranks to go in
// the passed-path terms: 4 a rank from promotion, down to 0 from 5 ranks
// on, where the royals' distances matter little.
func passedPathWeight(d int32) int32 { return max(0, 5-d) }

// passedBucket returns the bucket of a passed pawn with d ranks to go.
func passedBucket(d int32) int32 {
	switch {
	case d <= 3:
		return max(d, 1) - 1
	case d <= 5:
		return 3
	default:
		return 4
	}
}

// dangerCap bounds the danger units of royal.danger before squaring, so
// that a swarm on a large board does not outweigh the material.
const dangerCap = 48

// dangerValue is the royal.danger feature of a royal whose neighbourhood
// k enemy non-pawn pieces attack on a squares in all (counted once per
// attacker): nothing for a lone attacker, then growing with the square of
// the attack, as the king-safety tables of classical engines do.
func dangerValue(k, a int32) int32 {
	if k < 2 {
		return 0
	}
	d := min(a*min(k-1, 3), dangerCap)
	return d * d / 16
}

// royalValue is the threat rank of a royal: never a cheaper attacker.
const royalValue = 1 << 20

// rookLike reports whether d slides forward along its file and captures
// that way (a rook, a queen), so that an open file is worth something to
// it.
func rookLike(d *engine.PieceDef) bool {
	for _, m := range d.Moves {
		if m.Kind == engine.Slide && m.DF == 0 && m.DR > 0 && m.Mode != engine.MoveOnly && (m.Max == 0 || m.Max >= 3) {
			return true
		}
	}
	return false
}

// addFeatureTerms appends these terms of v to r (after every older
// term, so that older weight indexes do not move).
func (r *Registry) addFeatureTerms(v *engine.Variant, add func(kind termKind, name, doc string) int32) {
	n := v.NumTypes()
	hasPawn := false
	for t := 1; t <= n; t++ {
		tt := &r.types[t]
		tt.zone, tt.pair, tt.open, tt.half, tt.unsafe = -1, -1, -1, -1, -1
		hasPawn = hasPawn || tt.pawn
	}
	// Attacks on the enemy royal's neighbourhood, by attacker type; every
	// pawn type moves alike, so the pawns share one term.
	pawnZone := int32(-1)
	for t := 1; t <= n; t++ {
		d := v.Def(engine.PieceType(t))
		tt := &r.types[t]
		switch {
		case d.Royal:
		case d.Pawn:
			if pawnZone < 0 {
				pawnZone = add(kZone, "zone.pawns", "per square of an enemy royal's 3x3 neighbourhood (its own square included) that a pawn attacks")
			}
			tt.zone = pawnZone
		default:
			tt.zone = add(kZone, "zone."+d.Token, d.Name+": per square of an enemy royal's 3x3 neighbourhood (its own square included) it attacks")
		}
	}
	r.passedGo = -1
	if hasPawn {
		docs := [...]string{"1 rank", "2 ranks", "3 ranks", "4 or 5 ranks", "6 or more ranks"}
		for i, name := range passedBucketNames {
			x := add(kPassedGo, name, "per passed pawn "+docs[i]+" from promotion")
			if i == 0 {
				r.passedGo = x
			}
		}
	}
	slot := int8(0)
	for t := 1; t <= n; t++ {
		d := v.Def(engine.PieceType(t))
		if !d.Pawn && !d.Royal && d.ColourBound() && slot < 32 {
			r.types[t].pair = add(kPair, "pair."+d.Token, d.Name+": owning pieces of this colour-bound type on both colours of squares")
			r.types[t].pairSlot = slot
			r.pairTypes = append(r.pairTypes, int32(t))
			slot++
		}
	}
	if hasPawn {
		for t := 1; t <= n; t++ {
			d := v.Def(engine.PieceType(t))
			if !d.Pawn && !d.Royal && rookLike(d) {
				r.types[t].open = add(kOpenFile, "file.open."+d.Token, d.Name+": on a file with no pawn")
				r.types[t].half = add(kOpenFile, "file.half."+d.Token, d.Name+": on a file with no friendly pawn but an enemy one")
			}
		}
	}
	r.threat = add(kThreat, "threats.cheaper", "per non-royal non-pawn piece attacked by an enemy piece of lower threat rank "+
		"(pawns lowest, then by moves from the centre of the empty board)")
	r.danger = -1
	if r.attacked >= 0 { // the variant has royals
		r.danger = add(kDanger, "royal.danger", "per unit of a royal's danger, min(a*min(k-1, 3), 48)^2/16 when k >= 2 enemy non-pawn pieces "+
			"attack a squares of its 3x3 neighbourhood in all (0 for k < 2)")
	}
	r.cramped = add(kCramped, "mobility.cramped", "per square a non-pawn non-royal piece's mobility falls short of a quarter "+
		"of its moves from the centre of the empty board (at least 2), as for a trapped or buried piece")
	for t := 1; t <= n; t++ {
		d := v.Def(engine.PieceType(t))
		if !d.Pawn && !d.Royal {
			r.types[t].crampedBelow = int32(max(2, emptyBoardMoves(d, v.Files, v.Ranks)/4))
		}
	}
	r.shield, r.royalFiles = -1, -1
	if hasPawn && r.danger >= 0 {
		r.shield = add(kShield, "royal.shield", "per friendly pawn one or two ranks in front of a royal, on its file or a neighbouring one")
		r.royalFiles = add(kShield, "royal.files", "per file, of a royal's own and its neighbours, without a friendly pawn")
	}
	// A passed pawn's path, weighted by its closeness to promotion
	// (passedPathWeight): the royals' distances to the square in front of
	// it and whether that square is empty.
	r.passedRoyal, r.passedFree = -1, -1
	if hasPawn {
		if r.danger >= 0 {
			r.passedRoyal = add(kPassedPath, "passed.royal.them", "per passed pawn, max(0, 5 - ranks to go) times the distance (king moves, at most 5) "+
				"from the nearest enemy royal to the square in front of it")
			add(kPassedPath, "passed.royal.us", "per passed pawn, max(0, 5 - ranks to go) times the distance (king moves, at most 5) "+
				"from the nearest friendly royal to the square in front of it")
		}
		r.passedFree = add(kPassedPath, "passed.free", "per passed pawn, max(0, 5 - ranks to go) if the square in front of it is empty")
	}
	r.pawnChain = -1
	if hasPawn {
		r.pawnChain = add(kPawnChain, "pawns.supported", "per pawn that a friendly pawn attacks (defends)")
		add(kPawnChain, "pawns.phalanx", "per pawn with a friendly pawn beside it on the same rank")
	}
	r.checks = -1
	if r.danger >= 0 {
		r.checks = add(kChecks, "royal.checks", "per safe check, a square and a non-pawn non-royal piece type such that a piece of the type "+
			"attacks the square and would attack an enemy royal from it, the square neither held by the piece's side nor attacked by the enemy")
	}
	// Mobility onto squares an enemy pawn attacks (Stockfish leaves them
	// out of its mobility area): only where every pawn type captures alike.
	if caps := pawnCaptures(v); len(caps) > 0 && len(caps) <= maxPawnCaps {
		for t := 1; t <= n; t++ {
			d := v.Def(engine.PieceType(t))
			if !d.Pawn && !d.Royal {
				r.types[t].unsafe = add(kUnsafe, "mobility.unsafe."+d.Token, d.Name+": per square of its mobility that an enemy pawn attacks")
				r.hasUnsafe = true
			}
		}
	}
	// Threat ranks: pawns 0, royals never cheaper, other pieces their
	// number of moves from the centre of the empty board (at least 1).
	r.threatValue = make([]int32, n+1)
	for t := 1; t <= n; t++ {
		d := v.Def(engine.PieceType(t))
		switch {
		case d.Pawn:
			r.threatValue[t] = 0
		case d.Royal:
			r.threatValue[t] = royalValue
		default:
			r.threatValue[t] = int32(max(1, emptyBoardMoves(d, v.Files, v.Ranks)))
		}
	}
}

// zoneOf returns the squares of the 3x3 neighbourhoods of c's royals on
// the playing area (a royal in a citadel has none), which c's enemy
// attacks.
func (e *Evaluator) zoneOf(pos *engine.Position, c engine.Color) engine.Bitboard {
	var zone engine.Bitboard
	for _, s := range pos.Royals(c) {
		if e.onBoard[s] {
			zone = zone.Or(e.zone9[e.v.Index(s)])
		}
	}
	return zone
}

// pawnAttacks fills e.pawnAtt[c] with the squares of the playing area c's
// pawns attack (their capture leaps; e.npawnCap is not 0 when the
// unsafe-mobility terms exist).
func (e *Evaluator) pawnAttacks(pos *engine.Position) {
	for c := engine.White; c <= engine.Black; c++ {
		var att engine.Bitboard
		for _, s := range pos.Pieces(c) {
			if !e.types[pos.At(s).Type()].pawn {
				continue
			}
			for _, d := range e.pawnCap[c][:e.npawnCap] {
				if t := s + engine.Square(d); e.onBoard[t] {
					att = att.Or(engine.BitAt(e.v.Index(t)))
				}
			}
		}
		e.pawnAtt[c] = att
	}
}

// fileTerms adds the open and half-open file terms of the rook-like pieces
// recorded in e.rookSq (the files with pawns, fileMask, are filled).
func (e *Evaluator) fileTerms(pos *engine.Position) {
	raw := &e.raw
	for c := 0; c < 2; c++ {
		sgn := int32(1 - 2*c)
		for _, s := range e.rookSq[c][:e.nrook[c]] {
			f := uint(e.file[s]) + 1
			if e.fileMask[c]>>f&1 != 0 {
				continue
			}
			tt := &e.types[pos.At(s).Type()]
			if e.fileMask[1-c]>>f&1 == 0 {
				raw[tt.open&(maxTerms-1)] += sgn
			} else {
				raw[tt.half&(maxTerms-1)] += sgn
			}
		}
	}
}

// royalCover counts, over c's royals on the playing area, c's pawns one
// or two ranks in front of a royal on its file or a neighbouring one, and
// the files among a royal's and its neighbours without a pawn of c (the
// files with pawns, fileMask, are filled).
func (e *Evaluator) royalCover(pos *engine.Position, c engine.Color) (shield, files int32) {
	fwd := 1
	if c == engine.Black {
		fwd = -1
	}
	for _, s := range pos.Royals(c) {
		if !e.onBoard[s] {
			continue
		}
		f, rk := int(e.file[s]), int(e.rank[s])
		for g := max(0, f-1); g <= min(e.files-1, f+1); g++ {
			if e.fileMask[c]>>uint(g+1)&1 == 0 {
				files++
				continue
			}
			for d := 1; d <= 2; d++ {
				q := rk + d*fwd
				if q < 0 || q > int(e.lastRank) {
					break
				}
				if pc := pos.At(engine.SquareAt(g, q)); pc != engine.Empty && pc.Color() == c && e.types[pc.Type()].pawn {
					shield++
				}
			}
		}
	}
	return shield, files
}

// pairTerms adds the pair terms from the colour masks gathered in the
// piece loop: bit 2*slot+colour of squares per side.
func (e *Evaluator) pairTerms() {
	raw := &e.raw
	for c := 0; c < 2; c++ {
		m := e.pairMask[c]
		if m == 0 {
			continue
		}
		sgn := int32(1 - 2*c)
		for _, t := range e.reg.pairTypes {
			tt := &e.types[t]
			if m>>(2*uint(tt.pairSlot))&3 == 3 {
				raw[tt.pair&(maxTerms-1)] += sgn
			}
		}
	}
}

// maxTypes bounds the piece types of a variant.
const maxTypes = 256

// threats counts c's non-royal non-pawn pieces attacked by an enemy piece
// of lower threat rank (the covers and the attacks by type are complete).
func (e *Evaluator) threats(pos *engine.Position, c engine.Color) int32 {
	them := c.Other()
	var n int32
	for m := e.typesSeen[c]; m != 0; m &= m - 1 {
		t := bits.TrailingZeros64(m)
		v := e.tval[t]
		if v == 0 || v >= royalValue {
			continue
		}
		targets := pos.PiecesOf(engine.PieceType(t), c).And(e.cover[them])
		if targets.Empty() {
			continue
		}
		var cheaper engine.Bitboard
		for o := e.typesSeen[them]; o != 0; o &= o - 1 {
			if u := bits.TrailingZeros64(o); e.tval[u] < v {
				cheaper = cheaper.Or(e.attBy[them][u])
			}
		}
		n += int32(targets.And(cheaper).Count())
	}
	return n
}

// pawnCaptures returns the capture-only leaps (file, rank; White's
// orientation) that every pawn type of v shares, or nil if the pawn types
// capture differently or capture otherwise.
func pawnCaptures(v *engine.Variant) [][2]int {
	var caps [][2]int
	first := true
	for t := 1; t <= v.NumTypes(); t++ {
		d := v.Def(engine.PieceType(t))
		if !d.Pawn {
			continue
		}
		var mine [][2]int
		for _, m := range d.Moves {
			switch {
			case m.Kind == engine.Leap && m.Mode == engine.CaptureOnly:
				mine = append(mine, [2]int{int(m.DF), int(m.DR)})
			case m.Mode != engine.MoveOnly && m.Kind != engine.DoubleStep:
				return nil // captures some other way
			}
		}
		if first {
			caps, first = mine, false
		} else if !slices.Equal(caps, mine) {
			return nil
		}
	}
	return caps
}

// safeChecks counts the safe checks of side by against the enemy royals
// on the playing area (the covers are complete): pairs of a square and a
// non-pawn non-royal type of by such that a piece of the type attacks the
// square (by its capture moves, so a piece whose moves differ from its
// captures is an approximation), a piece of the type on it would attack
// the royal (engine.CheckSquares: hops left out), and the square is not
// held by by and not attacked by the enemy. A square is counted once per
// type and royal.
func (e *Evaluator) safeChecks(pos *engine.Position, by engine.Color) int32 {
	var codes uint64
	for _, t := range e.checkers {
		if pos.Count(t, by) > 0 {
			codes |= 1 << engine.MakePiece(t, by)
		}
	}
	if codes == 0 {
		return 0
	}
	safe := e.cover[by].AndNot(e.cover[by.Other()])
	var n int32
	for _, k := range pos.Royals(by.Other()) {
		if !e.onBoard[k] {
			continue
		}
		e.checkBuf = pos.CheckSquares(k, by, codes, e.checkBuf[:0])
		for _, cs := range e.checkBuf {
			q := cs.Square
			i := e.v.Index(q)
			if !safe.Has(i) {
				continue
			}
			m := cs.Codes &^ e.checkSeen[q]
			for ; m != 0; m &= m - 1 {
				code := bits.TrailingZeros64(m)
				if e.attBy[by][code>>1].Has(i) {
					e.checkSeen[q] |= 1 << code
					n++
				}
			}
		}
		for _, cs := range e.checkBuf {
			e.checkSeen[cs.Square] = 0
		}
	}
	return n
}
