package engine

import (
	"fmt"
	"strings"
)

// DescribeMoves returns a short human-readable description of how piece
// type t moves, derived from its movement components.
func DescribeMoves(v *Variant, t PieceType) string {
	d := v.Def(t)
	var parts []string
	leaps := map[string][]string{}
	var leapOrder []string
	for _, c := range d.Moves {
		mode := ""
		switch c.Mode {
		case MoveOnly:
			mode = " (move only)"
		case CaptureOnly:
			mode = " (capture only)"
		}
		switch c.Kind {
		case Leap:
			a, b := abs8(c.DF), abs8(c.DR)
			if a > b {
				a, b = b, a
			}
			key := fmt.Sprintf("leap (%d,%d)%s", a, b, mode)
			if c.DF == 0 || c.DF == 1 || c.DF == -1 {
				if d.Pawn {
					key = fmt.Sprintf("step %s%s", dirName(c.DF, c.DR), mode)
				}
			}
			if _, ok := leaps[key]; !ok {
				leapOrder = append(leapOrder, key)
			}
			leaps[key] = append(leaps[key], "")
		case Slide:
			s := "slide " + lineName(c.DF, c.DR)
			if c.Min > 1 {
				s += fmt.Sprintf(" at least %d", c.Min)
			}
			addOnce(&parts, s+mode)
		case Hop:
			addOnce(&parts, "hop over one screen "+lineName(c.DF, c.DR)+mode)
		case Bent:
			dir := "vertically"
			if c.TR == 0 {
				dir = "horizontally"
			}
			addOnce(&parts, fmt.Sprintf("step diagonally to an empty square, then %s at least %d", dir, c.Min))
		case DoubleStep:
			s := "double step forward"
			if c.NeedsRight {
				s += " on its first move"
			}
			if c.EnPassant {
				s += " (en passant)"
			}
			addOnce(&parts, s)
		}
	}
	for i := len(leapOrder) - 1; i >= 0; i-- {
		parts = append([]string{leapOrder[i]}, parts...)
	}
	switch d.Promo {
	case PromoteOnLastRank:
		parts = append(parts, "promotes on the last rank to "+strings.Join(d.To, "/"))
	case PromoteOnFarCorners:
		parts = append(parts, "promotes on the far corners to "+strings.Join(d.To, "/"))
	case PromoteInZone:
		which := ""
		if d.OnlyCaptured {
			which = "a piece already captured among "
		}
		parts = append(parts, fmt.Sprintf("promotes in its last %d ranks (on the last it must) to %s%s", max(d.Zone, 1), which, strings.Join(d.To, "/")))
	case PromotePawnOfPawns:
		parts = append(parts, "pawn of pawns: waits, relocates, then promotes to "+strings.Join(d.To, "/"))
	}
	if d.Royal {
		parts = append(parts, "royal")
	}
	return strings.Join(parts, "; ")
}

func addOnce(parts *[]string, s string) {
	for _, p := range *parts {
		if p == s {
			return
		}
	}
	*parts = append(*parts, s)
}

func abs8(x int8) int8 {
	if x < 0 {
		return -x
	}
	return x
}

func lineName(df, dr int8) string {
	if df == 0 || dr == 0 {
		return "orthogonally"
	}
	return "diagonally"
}

func dirName(df, dr int8) string {
	switch {
	case df == 0:
		return "forward"
	default:
		return "diagonally forward"
	}
}
