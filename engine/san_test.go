package engine

import (
	"strings"
	"testing"
)

// TestNotationRoundTrip: on random playout positions of every variant and
// rule option, the SAN and the coordinate text (docs/rules.md, "Coordinates") of
// every legal move are unique within the position and parse back to the
// move; '+' and '#' mark check and mate.
func TestNotationRoundTrip(t *testing.T) {
	plies, tplies, sets := 200, 60, allRuleSets()
	if testing.Short() || raceOn {
		// Notation does not depend on options that only change how
		// pieces move: the defaults, with every targeted position.
		plies, tplies, sets = 30, 4, sets[:len(VariantNames())]
	}
	for _, rs := range sets {
		v := mustRuleVariant(t, rs)
		for si, start := range append([]string{v.StartFEN}, targeted(v)...) {
			n := plies
			if si > 0 {
				n = tplies
			}
			p := mustFEN(t, v, start)
			playout(newRNG(uint64(si*13+3)), p, n, func(p *Position) bool {
				return checkNotation(t, rs, p)
			})
		}
	}
}

func checkNotation(t *testing.T, rs ruleSet, p *Position) bool {
	t.Helper()
	// Every text (SAN without check marks, or coordinates) names one move.
	names := map[string]Move{}
	stride := 1
	if testing.Short() || raceOn {
		stride = 3 // ParseMove generates the legal moves: sample it
	}
	for i, m := range legalMoves(p) {
		san, crd := p.SAN(m), p.Coord(m)
		body := strings.TrimRight(san, "+#")
		for _, text := range []string{body, crd} {
			if o, dup := names[text]; dup && o != m || body == crd {
				t.Errorf("%s %s: %q names %s and %s", rs, p.FEN(), text, engineKey(p, o), engineKey(p, m))
				return false
			}
			names[text] = m
		}
		if i%stride != 0 {
			continue
		}
		for _, c := range []struct{ kind, text string }{{"SAN", san}, {"coordinate", crd}} {
			if got, err := p.ParseMove(c.text); err != nil || got != m {
				t.Errorf("%s %s: ParseMove(%s %q) = %v, %v; want %s", rs, p.FEN(), c.kind, c.text, got, err, engineKey(p, m))
				return false
			}
		}
		if got, err := p.ParseCoord(crd); err != nil || got != m {
			t.Errorf("%s %s: ParseCoord(%q) = %v, %v", rs, p.FEN(), crd, got, err)
			return false
		}
		p.Make(m)
		mark := ""
		if p.InCheck() {
			mark = "+"
			if len(legalMoves(p)) == 0 {
				mark = "#"
			}
		}
		p.Unmake()
		if san != body+mark {
			t.Errorf("%s %s: SAN %q, want mark %q", rs, p.FEN(), san, mark)
			return false
		}
	}
	return true
}

// TestSANForms spot-checks the notation of docs/rules.md's special moves.
func TestSANForms(t *testing.T) {
	for _, c := range []struct {
		variant, fen, coord, san string
	}{
		{"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4", "e4"},
		{"chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3", "Nf3"},
		{"chess", "R7/8/7k/8/8/8/8/R5K1 w - - 0 1", "a1a4", "R1a4"},
		{"chess", "7k/8/8/8/8/8/8/R3R1K1 w - - 0 1", "a1c1", "Rac1"},
		{"chess", "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1", "e5d6", "exd6"},
		{"chess", "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1", "b7a8n", "bxa8=N"},
		{"chess", "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1", "e1c1", "O-O-O"},
		{"chess", "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1", "a1a8", "Rxa8+"},
		{"tamerlane", "e4PP5/6g1t2/2pr4k3/2r1n6/3N7/8d1c/9K1/11/11/11 w Ss 10 0 1", "f10d6", "PP@d6"},
		{"tamerlane", "5k5/11/11/11/11/11/11/11/5r5/4NK1R3 w Ss 00 0 1", "f1e1", "K~e1"},
		{"tamerlane", "11/K10/11/11/11/11/11/11/11/5k4r w - 00 0 1", "a9z9", "Kz9"},
		{"tamerlane", "11/3PR1PK5/10k/11/11/11/11/11/11/K10 w - 00 0 1", "d9d10", "d10=R"},
		{"tamerlane", "11/3PR1PK5/10k/11/11/11/11/11/11/K10 w - 00 0 1", "f9f10", "f10=I"},
		{"tamerlane2", "5k5/11/5r1r3/11/6r4/11/11/11/11/4M1K4/11 w E - 0 1", "g2e2", "K~e2"},
		{"tamerlane2", "5k5/11/11/1S9/11/11/11/11/11/11/5K5 w - - 0 1", "b8a11", "Sa11=A"},
		{"shako", "k9/10/10/10/10/10/10/10/1R3K2R1/10 w KQ - 0 1", "f2h2", "O-O"},
	} {
		p := mustFEN(t, MustVariant(c.variant, nil), c.fen)
		m := moveByCoord(t, p, c.coord)
		if got := p.SAN(m); got != c.san {
			t.Errorf("%s %s: SAN(%s) = %q, want %q", c.variant, c.fen, c.coord, got, c.san)
		}
	}
}
