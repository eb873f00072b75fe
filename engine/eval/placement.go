package eval

import (
	"strconv"

	"tamerlane/engine"
)

// This file holds the placement tables: for every piece type, one term per
// file (counted from the nearer edge, so the table is mirrored left to
// right) and one per rank (counted from the piece's own side). The edge
// file and the first rank are the baseline and have no term, so the
// tables are not collinear with the material count. Together they are a
// piece-square table with file and rank effects added (a full table would
// need files×ranks/2 weights per type; the two tables need files/2+ranks),
// generated from the piece table like every other term. Pieces in a
// citadel have no placement term.

// addPlacementTerms appends the placement tables of v to r (after every
// older term, so that older weight indexes do not move).
func (r *Registry) addPlacementTerms(v *engine.Variant, add func(kind termKind, name, doc string) int32) {
	n := v.NumTypes()
	r.placeStart = int32(len(r.terms))
	for t := 1; t <= n; t++ {
		r.types[t].fileTab, r.types[t].rankTab = -1, -1
	}
	// Every pawn type moves alike, so the pawns share their tables (as
	// they share zone.pawns).
	label := func(d *engine.PieceDef) (token, name string) {
		if d.Pawn {
			return "pawns", "Pawns"
		}
		return d.Token, d.Name
	}
	table := func(kind termKind, count int, name func(token, pname string, k int) (string, string), slot func(tt *typeTerms) *int32) {
		pawns := int32(-1)
		for t := 1; t <= n; t++ {
			d := v.Def(engine.PieceType(t))
			tt := &r.types[t]
			if d.Pawn && pawns >= 0 {
				*slot(tt) = pawns
				continue
			}
			token, pname := label(d)
			for k := 1; k < count; k++ {
				nm, doc := name(token, pname, k)
				if x := add(kind, nm, doc); k == 1 {
					*slot(tt) = x - 1 // the term of index k is the slot plus k
				}
			}
			if d.Pawn {
				pawns = *slot(tt)
			}
		}
	}
	table(kFileTable, (v.Files+1)/2, func(token, pname string, k int) (string, string) {
		f := string(rune('a' + k))
		return "file." + token + "." + f, pname + ": per piece on the " + f + "-file or its mirror image (the " + ordinal(k+1) + " file from the nearer edge)"
	}, func(tt *typeTerms) *int32 { return &tt.fileTab })
	table(kRankTable, v.Ranks, func(token, pname string, k int) (string, string) {
		return "rank." + token + "." + strconv.Itoa(k+1), pname + ": per piece on its own " + ordinal(k+1) + " rank"
	}, func(tt *typeTerms) *int32 { return &tt.rankTab })
}

// ordinal writes n as "1st", "2nd", "3rd", "4th", ...
func ordinal(n int) string {
	s := strconv.Itoa(n)
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return s + "th"
	case n%10 == 1:
		return s + "st"
	case n%10 == 2:
		return s + "nd"
	case n%10 == 3:
		return s + "rd"
	}
	return s + "th"
}

// place adds the placement terms of a piece of type tt on s (rel: its rank
// from its own side) to the fixed-point sums, and to the raw terms when
// all is set (Features needs them; Evaluate needs only the sums).
func (e *Evaluator) place(tt *typeTerms, s engine.Square, rel, sgn int32, all bool) {
	if !e.onBoard[s] {
		return
	}
	if k := e.fileFromEdge[s]; k > 0 && tt.fileTab >= 0 {
		i := tt.fileTab + k
		e.placeMG += int64(sgn) * e.wmg[i]
		e.placeEG += int64(sgn) * e.weg[i]
		if all {
			e.raw[i&(maxTerms-1)] += sgn
		}
	}
	if rel > 0 && tt.rankTab >= 0 {
		i := tt.rankTab + rel
		e.placeMG += int64(sgn) * e.wmg[i]
		e.placeEG += int64(sgn) * e.weg[i]
		if all {
			e.raw[i&(maxTerms-1)] += sgn
		}
	}
}

// pieceSum is the weighted sum, in fixed point, of the terms that a
// piece's code and square alone decide: its material, centrality, advance
// and placement tables, negative for Black.
type pieceSum struct{ mg, eg int64 }

// buildPieceSums returns the pieceSum of every piece code of the variant
// on every index of its board (at code*engine.MaxIndex+index). Evaluate
// adds a piece's entry where Features counts the terms one by one; the
// sums are exact integers, so the evaluation is the same.
func (e *Evaluator) buildPieceSums() []pieceSum {
	ncodes := int(engine.MakePiece(engine.PieceType(e.v.NumTypes()), engine.Black)) + 1
	sums := make([]pieceSum, ncodes*engine.MaxIndex)
	term := func(k, x int32) pieceSum {
		if k < 0 {
			return pieceSum{}
		}
		return pieceSum{int64(x) * e.wmg[k], int64(x) * e.weg[k]}
	}
	for t := 1; t <= e.v.NumTypes(); t++ {
		tt := &e.types[t]
		for c := engine.White; c <= engine.Black; c++ {
			sgn := int32(1 - 2*int(c))
			for i := range engine.MaxIndex {
				s := e.v.SquareOf(i)
				if s == engine.NoSquare {
					continue
				}
				rel := e.rel[c][s]
				e.placeMG, e.placeEG = 0, 0
				e.place(tt, s, rel, sgn, false)
				m, cn, a := term(tt.material, sgn), term(tt.center, sgn*e.cent[s]), term(tt.advance, sgn*rel)
				sums[int(engine.MakePiece(engine.PieceType(t), c))*engine.MaxIndex+i] = pieceSum{
					mg: m.mg + cn.mg + a.mg + e.placeMG,
					eg: m.eg + cn.eg + a.eg + e.placeEG,
				}
			}
		}
	}
	e.placeMG, e.placeEG = 0, 0
	return sums
}
