package engine

import (
	"slices"
	"testing"
)

// TestColourBound lists, per variant, the piece types every move of which
// keeps them on one colour of squares (docs/rules.md 5.1, 5.2: their moves):
// the bishop; shatranj's ferz and alfil; and no other chess or shatranj
// piece (the knight, rook, queen and king change colour).
func TestColourBound(t *testing.T) {
	for _, tc := range []struct {
		variant string
		want    []string
	}{
		{"chess", []string{"Bishop"}},
		{"shatranj", []string{"Ferz", "Alfil"}},
	} {
		v := MustVariant(tc.variant, nil)
		var got []string
		for ty := 1; ty <= v.NumTypes(); ty++ {
			if d := v.Def(PieceType(ty)); d.ColourBound() {
				got = append(got, d.Name)
			}
		}
		slices.Sort(got)
		slices.Sort(tc.want)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: colour-bound %v, want %v", tc.variant, got, tc.want)
		}
	}
}
