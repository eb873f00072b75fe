package xboard

import (
	"fmt"
	"sort"
	"strings"

	"tamerlane/engine"
)

// pieceCommands returns XBoard's "piece" commands that teach it how every
// piece of the variant moves (Betza notation as XBoard reads it), so that
// XBoard can test the legality of moves and highlight targets. It
// returns nil if some piece cannot be written that way: XBoard's Betza
// has no slides with a minimum distance (the Picket) and no bent slides
// (the Giraffe, Ship and Eagle), and a partial description would make
// XBoard reject legal moves; nor are citadel steps, King swaps,
// successions and pawn-of-pawns lifts. Such variants need XBoard's
// legality testing off (-testLegality false).
func pieceCommands(b *board) []string {
	v := b.v
	if len(v.Citadels) > 0 || v.Exchange != nil || v.PawnOfPawns {
		return nil // citadel steps, swaps and lifts are not Betza moves
	}
	var out []string
	for t := engine.PieceType(1); int(t) <= v.NumTypes(); t++ {
		if b.shared && v.Def(t).Pawn && b.byChar['P'] != t {
			continue
		}
		s, ok := betza(v, v.Def(t))
		if !ok {
			return nil
		}
		out = append(out, fmt.Sprintf("piece %c& %s", b.char[t], s))
	}
	return out
}

// betza writes one piece's movement in Betza notation.
func betza(v *engine.Variant, d *engine.PieceDef) (string, bool) {
	type key struct {
		kind     engine.ComponentKind
		mode     engine.Mode
		ax, ay   int8
		min, max int8
		from     int8
	}
	groups := map[key][]engine.Component{}
	var order []key
	for _, c := range d.Moves {
		ax, ay := abs8(c.DF), abs8(c.DR)
		if ax > ay {
			ax, ay = ay, ax
		}
		k := key{c.Kind, c.Mode, ax, ay, c.Min, c.Max, c.FromRank}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], c)
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].kind < order[j].kind })
	var sb strings.Builder
	for _, k := range order {
		cs := groups[k]
		atom, ok := atoms[[2]int8{k.ax, k.ay}]
		if !ok {
			return "", false
		}
		dirs := symmetric(k.ax, k.ay)
		forward := 0
		for _, c := range cs {
			if c.DR > 0 {
				forward++
			}
		}
		dir := ""
		switch {
		case len(cs) == dirs:
		case forward == len(cs) && len(cs) == forwardDirs(k.ax, k.ay):
			dir = "f"
		default:
			return "", false
		}
		mode := ""
		switch k.mode {
		case engine.MoveOnly:
			mode = "m"
		case engine.CaptureOnly:
			mode = "c"
			if d.EPCapture {
				mode = "ce"
			}
		}
		switch k.kind {
		case engine.Leap:
			sb.WriteString(dir + mode + atom)
		case engine.Slide:
			if k.min > 1 || k.max != 0 {
				return "", false
			}
			sb.WriteString(dir + mode + atom + atom)
		case engine.Hop:
			if k.mode != engine.CaptureOnly {
				return "", false
			}
			sb.WriteString(dir + "cp" + atom + atom)
		case engine.DoubleStep:
			sb.WriteString("i" + dir + "mn" + doubled[atom])
		default:
			return "", false
		}
	}
	s := sb.String()
	// Riders of W and F are written R and B.
	s = strings.NewReplacer("WW", "R", "FF", "B").Replace(s)
	if d.King {
		for _, cr := range v.Castling {
			s += fmt.Sprintf("O%d", abs8(int8(cr.KingTo.File()-cr.KingFrom.File())))
			break
		}
	}
	return s, true
}

// atoms are Betza's leaps by their two distances.
var atoms = map[[2]int8]string{
	{0, 1}: "W", {1, 1}: "F", {0, 2}: "D", {2, 2}: "A", {1, 2}: "N",
	{1, 3}: "C", {0, 3}: "H", {2, 3}: "Z", {3, 3}: "G",
}

// doubled is the atom of a double step of an atom.
var doubled = map[string]string{"W": "D", "F": "A"}

// symmetric counts the directions of a leap (ax <= ay).
func symmetric(ax, ay int8) int {
	if ax == 0 || ax == ay {
		return 4
	}
	return 8
}

// forwardDirs counts the forward directions of a leap (ax <= ay).
func forwardDirs(ax, ay int8) int {
	switch {
	case ax == 0:
		return 1
	case ax == ay:
		return 2
	}
	return 4 // (±ax, +ay) and (±ay, +ax)
}

func abs8(x int8) int8 {
	if x < 0 {
		return -x
	}
	return x
}
