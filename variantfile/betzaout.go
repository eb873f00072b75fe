package variantfile

import (
	"fmt"
	"strconv"
	"strings"

	"tamerlane/engine"
)

// groupKey gathers the components one Betza term can write: the same
// kind, shape, mode, range and bent continuation.
type groupKey struct {
	kind     engine.ComponentKind
	df, dr   int8 // the base step: absolute values, df <= dr
	mode     engine.Mode
	min, max int8
	cont     byte // bent: 'v' or 's'
}

type group struct {
	key   groupKey
	steps [][2]int8
}

// FormatBetza writes movement components (no double steps) in the Betza
// notation ParseBetza reads; parsing the result gives the same moves.
// Components it cannot write (a bent move that is not FyR) are an error.
func FormatBetza(cs []engine.Component) (string, error) {
	var groups []*group
	find := func(k groupKey) *group {
		for _, g := range groups {
			if g.key == k {
				return g
			}
		}
		g := &group{key: k}
		groups = append(groups, g)
		return g
	}
	for _, c := range cs {
		k := groupKey{kind: c.Kind, mode: c.Mode, min: c.Min, max: c.Max}
		a, b := abs(c.DF), abs(c.DR)
		if a > b {
			a, b = b, a
		}
		k.df, k.dr = a, b
		switch c.Kind {
		case engine.DoubleStep:
			return "", fmt.Errorf("a double step is not Betza: write it as double_step")
		case engine.Bent:
			switch {
			case a != 1 || b != 1:
				return "", fmt.Errorf("bent move from step (%d,%d): only FyR can be written", c.DF, c.DR)
			case c.TF == 0 && c.TR == c.DR:
				k.cont = 'v'
			case c.TR == 0 && c.TF == c.DF:
				k.cont = 's'
			default:
				return "", fmt.Errorf("bent move (%d,%d) then (%d,%d): only FyR can be written", c.DF, c.DR, c.TF, c.TR)
			}
		case engine.Leap:
			k.min, k.max = 0, 0
			if c.Min != 0 || c.Max != 0 {
				return "", fmt.Errorf("a leap with a range")
			}
		case engine.Hop:
			if c.Min != 0 || c.Max != 0 {
				return "", fmt.Errorf("a hopper with a range cannot be written")
			}
		case engine.Slide:
			if c.Min < 1 {
				return "", fmt.Errorf("a rider with minimum distance %d", c.Min)
			}
		}
		g := find(k)
		g.steps = append(g.steps, [2]int8{c.DF, c.DR})
	}
	mergeBent(&groups)
	var b strings.Builder
	for _, g := range groups {
		if err := g.write(&b); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// mergeBent joins the vertical and the sideways continuations of the
// same bent rider into one FyR group.
func mergeBent(groups *[]*group) {
	gs := *groups
	for i := 0; i < len(gs); i++ {
		if gs[i].key.kind != engine.Bent || gs[i].key.cont != 'v' {
			continue
		}
		for j := 0; j < len(gs); j++ {
			other := gs[i].key
			other.cont = 's'
			if gs[j].key == other && sameSteps(gs[i].steps, gs[j].steps) {
				gs[i].key.cont = 0
				gs = append(gs[:j], gs[j+1:]...)
				break
			}
		}
	}
	*groups = gs
}

func sameSteps(a, b [][2]int8) bool {
	if len(a) != len(b) {
		return false
	}
	for _, s := range a {
		if !hasStep(b, s) {
			return false
		}
	}
	return true
}

func hasStep(steps [][2]int8, s [2]int8) bool {
	for _, o := range steps {
		if o == s {
			return true
		}
	}
	return false
}

// dirCandidates are the direction tokens tried, largest first, when a
// group's steps are not all of its atom's steps.
var dirCandidates = []string{"v", "s", "f", "b", "l", "r", "fl", "fr", "bl", "br", "ff", "bb", "ll", "rr", "fs", "bs", "lv", "rv"}

// write writes the group as one term per disjoint direction token.
func (g *group) write(b *strings.Builder) error {
	k := g.key
	all := engine.SymmetricSteps(k.df, k.dr)
	atom := ""
	for _, a := range atoms {
		if a.df == k.df && a.dr == k.dr {
			atom = string(a.letter)
		}
	}
	if atom == "" {
		return fmt.Errorf("step (%d,%d) is no Betza atom", k.df, k.dr)
	}
	body := atom
	switch k.kind {
	case engine.Slide, engine.Hop:
		switch atom {
		case "W":
			body = "R"
		case "F":
			body = "B"
		default:
			body = atom + atom
		}
		if k.kind == engine.Hop {
			body = "p" + body
		}
	case engine.Bent:
		body = "FyR"
		if k.cont != 0 {
			body = "Fy" + string(k.cont) + "R"
		}
	}
	if k.kind == engine.Slide || k.kind == engine.Bent {
		body += formatRange(k.min, k.max)
	}
	mode := map[engine.Mode]string{engine.MoveOrCapture: "", engine.MoveOnly: "m", engine.CaptureOnly: "c"}[k.mode]
	if len(g.steps) == len(all) {
		b.WriteString(mode + body)
		return nil
	}
	covered := map[[2]int8]bool{}
	for _, tok := range dirCandidates {
		sel, err := selectSteps(tok, k.df, k.dr)
		if err != nil || len(dirTokens(tok, classOf(k.df, k.dr))) != 1 {
			continue
		}
		fits := true
		for _, s := range sel {
			fits = fits && hasStep(g.steps, s) && !covered[s]
		}
		if !fits {
			continue
		}
		for _, s := range sel {
			covered[s] = true
		}
		b.WriteString(tok + mode + body)
	}
	if len(covered) != len(g.steps) {
		return fmt.Errorf("the steps %v of %s cannot be written with Betza directions", g.steps, atom)
	}
	return nil
}

// formatRange writes a rider's range as ParseBetza reads it.
func formatRange(min, max int8) string {
	switch {
	case min == 1 && max == 0:
		return ""
	case min == 1:
		return strconv.Itoa(int(max))
	case max == 0:
		return fmt.Sprintf("[%d-]", min)
	}
	return fmt.Sprintf("[%d-%d]", min, max)
}
