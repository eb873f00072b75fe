package variantfile

import (
	"fmt"
	"strconv"
	"strings"

	"tamerlane/engine"
)

// atoms are the Betza leapers the parser knows, by their step (df <= dr
// in absolute value); every one fits the engine's three-square padding.
var atoms = []struct {
	letter byte
	df, dr int8
}{
	{'W', 0, 1}, {'F', 1, 1}, {'D', 0, 2}, {'N', 1, 2}, {'A', 2, 2},
	{'H', 0, 3}, {'C', 1, 3}, {'Z', 2, 3}, {'G', 3, 3},
}

// unsupported says why each refused Betza modifier is refused.
var unsupported = map[byte]string{
	'i': "initial moves: give the piece a double_step instead",
	'e': "en passant captures: set takes_en_passant instead",
	'n': "lame (blockable) leapers are not in the engine",
	'j': "jumping-only moves are not in the engine",
	'g': "grasshoppers (landing just beyond the screen) are not in the engine; p hops to any square beyond it",
	'a': "multi-leg moves: only the bent rider FyR is in the engine",
	'h': "half-board directions are not supported",
	'o': "cylinder moves are not in the engine",
	'z': "crooked (zigzag) moves are not in the engine",
	'q': "circular moves are not in the engine",
	'x': "XBetza extensions other than y are not supported",
	'u': "XBetza extensions other than y are not supported",
	'k': "XBetza extensions other than y are not supported",
	't': "XBetza extensions other than y are not supported",
	'd': "XBetza extensions other than y are not supported",
}

// stepClass classifies a step by its shape.
type stepClass uint8

const (
	orthogonal stepClass = iota
	diagonal
	oblique
)

func classOf(df, dr int8) stepClass {
	a, b := abs(df), abs(dr)
	switch {
	case a == 0 || b == 0:
		return orthogonal
	case a == b:
		return diagonal
	}
	return oblique
}

func abs(x int8) int8 {
	if x < 0 {
		return -x
	}
	return x
}

// dirTest reports whether the direction letter c selects step (df, dr).
// narrow marks the second letter of a pair: a repeated letter (ff, ll)
// selects the narrow moves of an oblique atom in that direction.
func dirTest(c byte, df, dr int8) bool {
	switch c {
	case 'f':
		return dr > 0
	case 'b':
		return dr < 0
	case 'l':
		return df < 0
	case 'r':
		return df > 0
	case 'v':
		return abs(dr) > abs(df)
	case 's':
		return abs(df) > abs(dr)
	}
	return false
}

// pairSecond turns the second letter of a pair into the test it adds: a
// repeated f or b narrows to the vertical moves, a repeated l or r to the
// sideways ones.
func pairSecond(first, second byte) byte {
	if first == second {
		if first == 'f' || first == 'b' {
			return 'v'
		}
		return 's'
	}
	return second
}

// dirTokens splits direction letters into tokens for an atom of class
// cl: one letter, or two letters that select their intersection (fl on
// a diagonal atom, fs or ff on an oblique one).
func dirTokens(letters string, cl stepClass) []string {
	var toks []string
	for i := 0; i < len(letters); i++ {
		if i+1 < len(letters) && pairs(letters[i], letters[i+1], cl) {
			toks = append(toks, letters[i:i+2])
			i++
			continue
		}
		toks = append(toks, letters[i:i+1])
	}
	return toks
}

// pairs reports whether two direction letters form one token.
func pairs(a, b byte, cl stepClass) bool {
	fb := func(c byte) bool { return c == 'f' || c == 'b' }
	lr := func(c byte) bool { return c == 'l' || c == 'r' }
	switch cl {
	case diagonal:
		return fb(a) && lr(b) || lr(a) && fb(b)
	case oblique:
		return (fb(a) || lr(a)) && strings.IndexByte("fblrvs", b) >= 0
	}
	return false
}

// tokenSelects reports whether a direction token selects (df, dr).
func tokenSelects(tok string, df, dr int8) bool {
	if len(tok) == 1 {
		return dirTest(tok[0], df, dr)
	}
	return dirTest(tok[0], df, dr) && dirTest(pairSecond(tok[0], tok[1]), df, dr)
}

// selectSteps returns the steps of atom (df, dr) the direction letters
// select, in SymmetricSteps order (all of them without letters).
func selectSteps(letters string, df, dr int8) ([][2]int8, error) {
	all := engine.SymmetricSteps(df, dr)
	if letters == "" {
		return all, nil
	}
	toks := dirTokens(letters, classOf(df, dr))
	var out [][2]int8
	for _, s := range all {
		for _, t := range toks {
			if tokenSelects(t, s[0], s[1]) {
				out = append(out, s)
				break
			}
		}
	}
	for _, t := range toks {
		any := false
		for _, s := range all {
			any = any || tokenSelects(t, s[0], s[1])
		}
		if !any {
			return nil, fmt.Errorf("direction %q selects no move of this atom", t)
		}
	}
	return out, nil
}

// term is one parsed Betza term before expansion.
type term struct {
	mode        engine.Mode
	dirs        string
	hop         bool
	steps       [][2]int8 // the atoms' base steps (K and Q have two)
	rider, bent bool
	cont        byte // bent continuation: 'v', 's' or 0 for both
	min, max    int8
}

// ParseBetza turns a piece's movement in Betza notation into the
// engine's movement components, in White's orientation. It knows the
// leapers W F D N A H C Z G, K (WF), the riders R B Q and any doubled
// leaper (NN, the nightrider), a range after a rider (R4: at most four
// squares; B[2-]: at least two; R[2-4]), the modifiers m (move only), c
// (capture only), p (a hopper: a rider that passes exactly one piece and
// moves to any empty square beyond it or captures the first piece there),
// the directions f b l r v s and their pairs (fl, ff, fs ...), and one
// bent rider written FyR: a diagonal step to an empty square, then a
// rook's ride outward along either straight part of that step (FyvR
// only vertically, FysR only sideways), with a range as for riders.
// Everything else is refused with an error that says why.
func ParseBetza(s string) ([]engine.Component, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty movement")
	}
	var out []engine.Component
	for i := 0; i < len(s); {
		t, next, err := parseTerm(s, i)
		if err != nil {
			return nil, err
		}
		cs, err := t.expand()
		if err != nil {
			return nil, fmt.Errorf("%q: %w", s[i:next], err)
		}
		for _, c := range cs {
			if err := addOnce(&out, c); err != nil {
				return nil, fmt.Errorf("%q: %w", s[i:next], err)
			}
		}
		i = next
	}
	return out, nil
}

// addOnce appends c unless the same move is already there; a move-only
// and a capture-only component of the same move together are allowed.
func addOnce(cs *[]engine.Component, c engine.Component) error {
	for _, o := range *cs {
		m := o
		m.Mode = c.Mode
		if m == c && (o.Mode == engine.MoveOrCapture || c.Mode == engine.MoveOrCapture || o.Mode == c.Mode) {
			return fmt.Errorf("the step (%d,%d) is given twice", c.DF, c.DR)
		}
	}
	*cs = append(*cs, c)
	return nil
}

// parseTerm reads one term (modifiers, atom, range) starting at i.
func parseTerm(s string, i int) (term, int, error) {
	t := term{min: 1}
	var m, c bool
	start := i
	for ; i < len(s) && s[i] >= 'a' && s[i] <= 'z'; i++ {
		switch ch := s[i]; {
		case ch == 'm':
			m = true
		case ch == 'c':
			c = true
		case ch == 'p':
			t.hop = true
		case strings.IndexByte("fblrvs", ch) >= 0:
			t.dirs += string(ch)
		case unsupported[ch] != "":
			return t, 0, fmt.Errorf("movement %q at %d: modifier %q is not supported: %s", s, i+1, ch, unsupported[ch])
		default:
			return t, 0, fmt.Errorf("movement %q at %d: unknown modifier %q", s, i+1, ch)
		}
	}
	switch {
	case m && !c:
		t.mode = engine.MoveOnly
	case c && !m:
		t.mode = engine.CaptureOnly
	}
	if i >= len(s) {
		return t, 0, fmt.Errorf("movement %q: modifiers %q without an atom", s, s[start:])
	}
	ch := s[i]
	i++
	switch ch {
	case 'K':
		t.steps = [][2]int8{{0, 1}, {1, 1}}
	case 'R':
		t.steps, t.rider = [][2]int8{{0, 1}}, true
	case 'B':
		t.steps, t.rider = [][2]int8{{1, 1}}, true
	case 'Q':
		t.steps, t.rider = [][2]int8{{0, 1}, {1, 1}}, true
	default:
		step, ok := atomStep(ch)
		if !ok {
			return t, 0, fmt.Errorf("movement %q at %d: unknown atom %q (known: W F D N A H C Z G K R B Q)", s, i, ch)
		}
		t.steps = [][2]int8{step}
		switch {
		case i < len(s) && s[i] == 'y':
			if ch != 'F' {
				return t, 0, fmt.Errorf("movement %q at %d: only the diagonal step F bends (FyR)", s, i+1)
			}
			i++
			if i < len(s) && (s[i] == 'v' || s[i] == 's') {
				t.cont = s[i]
				i++
			}
			if i >= len(s) || s[i] != 'R' {
				return t, 0, fmt.Errorf("movement %q at %d: want R after y (FyR, FyvR or FysR)", s, i+1)
			}
			i++
			t.bent, t.rider = true, true
		case i < len(s) && s[i] == ch && !(i+1 < len(s) && s[i+1] == 'y'):
			i++
			t.rider = true
		}
	}
	if i < len(s) && (s[i] == '[' || s[i] >= '0' && s[i] <= '9') {
		if !t.rider || t.hop {
			return t, 0, fmt.Errorf("movement %q at %d: a range needs a rider that is not a hopper (R4, NN2, B[2-])", s, i+1)
		}
		var err error
		if t.min, t.max, i, err = parseRange(s, i); err != nil {
			return t, 0, err
		}
	}
	return t, i, nil
}

// parseRange reads "4" (at most four), "[2-]" (at least two) or "[2-4]".
func parseRange(s string, i int) (min, max int8, next int, err error) {
	num := func() (int8, error) {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		n, err := strconv.Atoi(s[i:j])
		if err != nil || n < 1 || n > engine.MaxFiles {
			return 0, fmt.Errorf("movement %q at %d: want a distance from 1 to %d", s, i+1, engine.MaxFiles)
		}
		i = j
		return int8(n), nil
	}
	if s[i] != '[' {
		max, err = num()
		return 1, max, i, err
	}
	i++
	if min, err = num(); err != nil {
		return 0, 0, 0, err
	}
	if i >= len(s) || s[i] != '-' {
		return 0, 0, 0, fmt.Errorf("movement %q at %d: want - in a range [min-max]", s, i+1)
	}
	i++
	if i < len(s) && s[i] != ']' {
		if max, err = num(); err != nil {
			return 0, 0, 0, err
		}
		if max < min {
			return 0, 0, 0, fmt.Errorf("movement %q: range [%d-%d] is empty", s, min, max)
		}
	}
	if i >= len(s) || s[i] != ']' {
		return 0, 0, 0, fmt.Errorf("movement %q at %d: want ] to close the range", s, i+1)
	}
	return min, max, i + 1, nil
}

func atomStep(ch byte) ([2]int8, bool) {
	for _, a := range atoms {
		if a.letter == ch {
			return [2]int8{a.df, a.dr}, true
		}
	}
	return [2]int8{}, false
}

// expand turns a term into components.
func (t term) expand() ([]engine.Component, error) {
	if t.hop && !t.rider {
		return nil, fmt.Errorf("p needs a rider (pR, pB, pQ, pNN)")
	}
	if t.hop && t.bent {
		return nil, fmt.Errorf("a bent rider cannot hop")
	}
	var out []engine.Component
	for _, st := range t.steps {
		steps, err := selectSteps(t.dirs, st[0], st[1])
		if err != nil {
			return nil, err
		}
		for _, d := range steps {
			c := engine.Component{Kind: engine.Leap, DF: d[0], DR: d[1], Mode: t.mode}
			switch {
			case t.bent:
				c.Kind, c.Min, c.Max = engine.Bent, t.min, t.max
				if t.cont != 's' {
					v := c
					v.TF, v.TR = 0, d[1]
					out = append(out, v)
				}
				if t.cont != 'v' {
					c.TF, c.TR = d[0], 0
					out = append(out, c)
				}
				continue
			case t.hop:
				c.Kind = engine.Hop
			case t.rider:
				c.Kind, c.Min, c.Max = engine.Slide, t.min, t.max
			}
			out = append(out, c)
		}
	}
	return out, nil
}
