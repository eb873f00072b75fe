package eval

import (
	"math"
	"slices"

	"tamerlane/engine"
)

// The derived hand table: the table of a variant that has none of its own
// (a variant read from a file), computed from its piece table alone.
//
// Material. A piece's value is H. G. Muller's short-range leaper formula,
// (30 + 5/8·n)·n centipawns for a piece with n move targets, applied to
// the piece's expected targets n on a board a third full:
//
//   - n is averaged over every square of the board (an edge costs a piece
//     its moves there);
//   - a leap's target counts 1; the k-th square of a slide counts
//     (1−ρ)^(k−1), the chance that the k−1 squares before it are empty,
//     with ρ = 1/3 (Muller's formula is fitted on unblockable leapers: the
//     blocking discount is what makes it fit sliders); a bent rider's
//     first step must be empty too; a hopper's k-th square counts the
//     chance that exactly one of the squares before it holds a screen and
//     the square itself a piece to capture;
//   - a move-only move counts 1/3 and a capture-only move 2/3 of a move
//     that does both (Muller's measured split, chessvariants.com comment
//     of 2020-11-07);
//
// and the whole is multiplied by 1.85, the scale that brings orthodox
// chess's Knight, Bishop, Rook and Queen closest (in ratio) to Kaufman's
// 325, 325, 500 and 975 (TestDerivedMaterialChess: 325, 355, 495, 950).
// Pawns are the anchor, 100; royals are 0, as in every hand table.
// Positional weights are the hand tables' (handPositional).
const (
	derivedDensity = 1.0 / 3
	derivedScale   = 1.85
	moveOnlyShare  = 1.0 / 3
	captureShare   = 2.0 / 3
	// derivedDate dates the formula in the derived table's provenance.
	derivedDate = "2026-12-02"
)

// derivedNotes is the provenance note of a derived table.
const derivedNotes = "Material DERIVED FROM THE PIECES' MOBILITY, not measured: H.G. Muller's short-range\n" +
	"leaper formula 1.85 x (30 + 5/8 n) n cp, n a piece's targets averaged over the board's\n" +
	"squares, a slide's k-th square counted (2/3)^(k-1) (a third of the board full), move-only\n" +
	"moves 1/3 and capture-only moves 2/3 (package eval, derived.go). Pawns 100, royals 0.\n" +
	"Positional weights are the hand tables' round numbers, by piece role: mobility 2 cp per\n" +
	"square (royals 0 mg / 2 eg); centrality 2/1 (pawns 2/0, royals -4/+4); advancement 1/0\n" +
	"(pawns 3/5, royals -8/0); passed pawns 0.5/2 x (relative rank)^2; doubled -10/-15,\n" +
	"isolated -8/-8; royal.attacked -6/-2, royal.shelter 6/0, royal.extra 400/400; tempo 12/6;\n" +
	"threats.hanging -20/-10; every other term 0, for tuning to fit."

// isBuiltin reports whether v is one of the engine's built-in variants,
// whose tables are embedded under its name.
func isBuiltin(v *engine.Variant) bool { return slices.Contains(engine.VariantNames(), v.Name) }

// Derived returns the derived hand table of v: material from each
// piece's mobility (DerivedMaterial) and the hand tables' positional
// weights. It is the default and the hand table of every variant that is
// not built in.
func Derived(v *engine.Variant) *Weights {
	w := NewWeights(v)
	r := w.reg
	for t := 1; t < len(r.types); t++ {
		x := DerivedMaterial(r.base, engine.PieceType(t))
		i := 2 * int(r.types[t].material)
		w.Values[i], w.Values[i+1] = x, x
	}
	handPositional(w)
	w.Provenance = Provenance{Source: "derived hand values", Date: derivedDate, Notes: derivedNotes}
	return w
}

// DerivedMaterial returns the derived material value of piece type t of
// v, in centipawns rounded to 5: 100 for a pawn, 0 for a royal, else
// 1.85·(30 + 5/8·n)·n for n = expectedTargets.
func DerivedMaterial(v *engine.Variant, t engine.PieceType) float64 {
	d := v.Def(t)
	switch {
	case d.Royal:
		return 0
	case d.Pawn:
		return 100
	}
	n := expectedTargets(d, v.Files, v.Ranks)
	x := derivedScale * (30 + 5.0/8*n) * n
	return math.Min(5*math.Round(x/5), MaxWeight)
}

// expectedTargets returns the piece's move targets averaged over every
// square of a files x ranks board a third full (see the derived table's
// comment); double steps are left out.
func expectedTargets(d *engine.PieceDef, files, ranks int) float64 {
	in := func(f, r int) bool { return f >= 0 && f < files && r >= 0 && r < ranks }
	open := 1 - derivedDensity
	var sum float64
	for f0 := 0; f0 < files; f0++ {
		for r0 := 0; r0 < ranks; r0++ {
			for _, m := range d.Moves {
				share := 1.0
				switch m.Mode {
				case engine.MoveOnly:
					share = moveOnlyShare
				case engine.CaptureOnly:
					share = captureShare
				}
				df, dr := int(m.DF), int(m.DR)
				switch m.Kind {
				case engine.Leap:
					if in(f0+df, r0+dr) {
						sum += share
					}
				case engine.Slide:
					sum += share * rayTargets(in, f0, r0, df, dr, int(m.Min), int(m.Max), 1)
				case engine.Bent:
					if in(f0+df, r0+dr) {
						sum += share * rayTargets(in, f0+df, r0+dr, int(m.TF), int(m.TR), int(m.Min), int(m.Max), open)
					}
				case engine.Hop:
					for k := 2; in(f0+k*df, r0+k*dr); k++ {
						screen := float64(k-1) * derivedDensity * math.Pow(open, float64(k-2))
						sum += share * screen * derivedDensity
					}
				}
			}
		}
	}
	return sum / float64(files*ranks)
}

// rayTargets sums the chances that the squares of a slide from (f, r)
// along (df, dr), from its min-th to its max-th step (max 0: to the edge),
// can be reached: reach times (1−ρ) per square passed.
func rayTargets(in func(f, r int) bool, f, r, df, dr, lo, hi int, reach float64) float64 {
	open := 1 - derivedDensity
	var n float64
	for k := 1; in(f+k*df, r+k*dr) && (hi == 0 || k <= hi); k++ {
		if k >= lo {
			n += reach
		}
		reach *= open
	}
	return n
}

// handPositional sets the hand tables' positional weights in w, by each
// piece's role (royal, pawn or other) and for the variant-wide terms the
// registry has; the rest of w is left as it is.
func handPositional(w *Weights) {
	set := func(name string, mg, eg float64) {
		if i, ok := w.reg.index[name+".mg"]; ok {
			w.Values[i], w.Values[i+1] = mg, eg
		}
	}
	for t := 1; t < len(w.reg.types); t++ {
		d := w.reg.base.Def(engine.PieceType(t))
		switch {
		case d.Royal:
			set("mobility."+d.Token, 0, 2)
			set("center."+d.Token, -4, 4)
			set("advance."+d.Token, -8, 0)
		case d.Pawn:
			set("center."+d.Token, 2, 0)
			set("advance."+d.Token, 3, 5)
			set("passed."+d.Token, 0.5, 2)
		default:
			set("mobility."+d.Token, 2, 2)
			set("center."+d.Token, 2, 1)
			set("advance."+d.Token, 1, 0)
		}
	}
	set("pawns.doubled", -10, -15)
	set("pawns.isolated", -8, -8)
	set("royal.attacked", -6, -2)
	set("royal.shelter", 6, 0)
	set("tempo", 12, 6)
	set("threats.hanging", -20, -10)
	set("royal.extra", 400, 400)
}
