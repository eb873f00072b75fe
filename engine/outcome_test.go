package engine

import "testing"

// TestInsufficientMaterial checks the one definition of a dead position
// (docs/rules.md 5.1) that Outcome and the search share, and that it does not
// allocate.
func TestInsufficientMaterial(t *testing.T) {
	for _, c := range []struct {
		variant, fen string
		want         bool
	}{
		{"chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
		{"chess", "4k3/8/8/8/8/8/8/3NK3 w - - 0 1", true},
		{"chess", "4k3/8/8/8/8/8/8/3BK3 w - - 0 1", true},
		{"chess", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},   // bishops on dark squares only
		{"chess", "4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false}, // opposite colours
		{"chess", "4kn2/8/8/8/8/8/8/2B1K3 w - - 0 1", false},  // bishop and knight
		{"chess", "4k3/8/8/8/8/8/8/3RK3 w - - 0 1", false},
		{"chess", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
		{"shatranj", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", false}, // no such rule: bare Kings are 5.2's
	} {
		p, err := ParseFEN(MustVariant(c.variant, nil), c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.InsufficientMaterial(); got != c.want {
			t.Errorf("%s %s: %v, want %v", c.variant, c.fen, got, c.want)
		}
		if n := testing.AllocsPerRun(10, func() { p.InsufficientMaterial() }); n != 0 {
			t.Errorf("%s: %v allocations", c.fen, n)
		}
	}
}
