package variantfile

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"tamerlane/engine"
)

// moveSet is the set of components of a movement, order ignored.
func moveSet(cs []engine.Component) map[engine.Component]int {
	m := map[engine.Component]int{}
	for _, c := range cs {
		m[c]++
	}
	return m
}

func sameMoves(a, b []engine.Component) bool {
	ma, mb := moveSet(a), moveSet(b)
	if len(ma) != len(mb) {
		return false
	}
	for k, n := range ma {
		if mb[k] != n {
			return false
		}
	}
	return true
}

// TestParseBetzaCounts checks the number of steps and their kinds for
// the notations the built-in and example pieces use.
func TestParseBetzaCounts(t *testing.T) {
	for _, tc := range []struct {
		betza              string
		leaps, slides, hop int
		bent               int
	}{
		{"K", 8, 0, 0, 0}, {"WF", 8, 0, 0, 0}, {"N", 8, 0, 0, 0}, {"Q", 0, 8, 0, 0},
		{"RN", 8, 4, 0, 0}, {"BN", 8, 4, 0, 0}, {"NN", 0, 8, 0, 0}, {"WAD", 12, 0, 0, 0},
		{"CF", 12, 0, 0, 0}, {"G", 4, 0, 0, 0}, {"H", 4, 0, 0, 0}, {"Z", 8, 0, 0, 0},
		{"mRcpR", 0, 4, 4, 0}, {"pQ", 0, 0, 8, 0}, {"fmWfcF", 3, 0, 0, 0}, {"fN", 4, 0, 0, 0},
		{"ffN", 2, 0, 0, 0}, {"fsN", 2, 0, 0, 0}, {"flN", 2, 0, 0, 0}, {"vN", 4, 0, 0, 0},
		{"flF", 1, 0, 0, 0}, {"fF", 2, 0, 0, 0}, {"fsW", 3, 0, 0, 0}, {"vR", 0, 2, 0, 0},
		{"FyR", 0, 0, 0, 8}, {"FyvR", 0, 0, 0, 4}, {"FFyvR", 4, 0, 0, 4}, {"FyR[3-]", 0, 0, 0, 8},
		{"B[2-]", 0, 4, 0, 0}, {"R4", 0, 4, 0, 0}, {"R[2-4]", 0, 4, 0, 0}, {"mWcF", 8, 0, 0, 0},
	} {
		cs, err := ParseBetza(tc.betza)
		if err != nil {
			t.Errorf("%s: %v", tc.betza, err)
			continue
		}
		var n [5]int
		for _, c := range cs {
			n[c.Kind]++
		}
		if n[engine.Leap] != tc.leaps || n[engine.Slide] != tc.slides || n[engine.Hop] != tc.hop || n[engine.Bent] != tc.bent {
			t.Errorf("%s: leaps %d slides %d hops %d bent %d, want %d %d %d %d", tc.betza,
				n[engine.Leap], n[engine.Slide], n[engine.Hop], n[engine.Bent], tc.leaps, tc.slides, tc.hop, tc.bent)
		}
	}
}

// TestParseBetzaDetails checks a few components exactly.
func TestParseBetzaDetails(t *testing.T) {
	cs, err := ParseBetza("fmWfcF")
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.Component{{Kind: engine.Leap, DR: 1, Mode: engine.MoveOnly},
		{Kind: engine.Leap, DF: 1, DR: 1, Mode: engine.CaptureOnly}, {Kind: engine.Leap, DF: -1, DR: 1, Mode: engine.CaptureOnly}}
	if !sameMoves(cs, want) {
		t.Errorf("fmWfcF: %+v", cs)
	}
	cs, _ = ParseBetza("R[2-4]")
	if cs[0].Min != 2 || cs[0].Max != 4 {
		t.Errorf("R[2-4]: %+v", cs[0])
	}
	cs, _ = ParseBetza("FyvR")
	for _, c := range cs {
		if c.TF != 0 || c.TR != c.DR {
			t.Errorf("FyvR: %+v does not continue vertically", c)
		}
	}
}

// TestParseBetzaRefuses: every unsupported or malformed notation is an
// error that names the problem.
func TestParseBetzaRefuses(t *testing.T) {
	for _, tc := range []struct{ betza, want string }{
		{"X", "unknown atom 'X'"}, {"O", "unknown atom"}, {"gQ", "grasshoppers"}, {"nN", "lame"},
		{"ifmnD", "initial moves"}, {"afsF", "multi-leg"}, {"", "empty"}, {"fm", "without an atom"},
		{"pN", "p needs a rider"}, {"N3", "a range needs a rider"}, {"pR3", "not a hopper"},
		{"WyR", "only the diagonal step F bends"}, {"FyB", "want R after y"}, {"R[3-2]", "empty"},
		{"R[0-]", "distance from 1"}, {"R[2", "want - in a range"}, {"R[2-", "want ] to close"},
		{"vF", "selects no move"}, {"WK", "given twice"}, {"R99", "distance from 1"}, {"é", "unknown atom"},
	} {
		_, err := ParseBetza(tc.betza)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error containing %q", tc.betza, err, tc.want)
		}
	}
}

// TestFormatBetzaRandom: random subsets of every atom's steps, in every
// kind and mode, written and read back, give the same components.
func TestFormatBetzaRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	modes := []engine.Mode{engine.MoveOrCapture, engine.MoveOnly, engine.CaptureOnly}
	written := 0
	for i := 0; i < 2000; i++ {
		var cs []engine.Component
		for _, a := range atoms {
			if rng.IntN(3) != 0 {
				continue
			}
			kind := []engine.ComponentKind{engine.Leap, engine.Slide, engine.Hop}[rng.IntN(3)]
			mode := modes[rng.IntN(3)]
			for _, s := range engine.SymmetricSteps(a.df, a.dr) {
				if rng.IntN(2) == 0 {
					c := engine.Component{Kind: kind, DF: s[0], DR: s[1], Mode: mode}
					if kind == engine.Slide {
						c.Min = 1
					}
					cs = append(cs, c)
				}
			}
		}
		if len(cs) == 0 {
			continue
		}
		s, err := FormatBetza(cs)
		if err != nil {
			// only sets no direction tokens describe may fail
			if !strings.Contains(err.Error(), "cannot be written") {
				t.Fatalf("%+v: %v", cs, err)
			}
			continue
		}
		back, err := ParseBetza(s)
		if err != nil {
			t.Fatalf("%q (from %+v): %v", s, cs, err)
		}
		if !sameMoves(cs, back) {
			t.Fatalf("%q reads back as %+v, want %+v", s, back, cs)
		}
		written++
	}
	if written < 100 {
		t.Errorf("only %d of 2000 random movements could be written", written)
	}
	t.Logf("%d of 2000 random movements written and read back", written)
}

// TestFormatBetzaBuiltins: every piece of every built-in variant is
// written and read back to the same components.
func TestFormatBetzaBuiltins(t *testing.T) {
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		for pt := 1; pt <= v.NumTypes(); pt++ {
			d := v.Def(engine.PieceType(pt))
			moves := slices.DeleteFunc(slices.Clone(d.Moves), func(c engine.Component) bool { return c.Kind == engine.DoubleStep })
			s, err := FormatBetza(moves)
			if err != nil {
				t.Fatalf("%s %s: %v", name, d.Name, err)
			}
			back, err := ParseBetza(s)
			if err != nil || !sameMoves(back, moves) {
				t.Errorf("%s %s: %q reads back as %+v (%v)", name, d.Name, s, back, err)
			}
		}
	}
}
