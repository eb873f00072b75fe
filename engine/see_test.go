package engine

import (
	"math/rand/v2"
	"testing"
)

// bruteExchange resolves the exchange on to by playing it out with the
// move generator and Make/Unmake: the side to move may capture on to with
// its least valuable piece (ties: lowest square) or stop. It returns the
// side to move's gain (>= 0), and false if the exchange reaches a capture
// SEE does not model (a promotion, a pawn of pawns' arrival, en passant).
func bruteExchange(p *Position, to Square, value []int32, depth int) (int32, bool) {
	if depth > 40 {
		return 0, false
	}
	var ml MoveList
	p.GeneratePseudo(&ml)
	best := NullMove
	for _, m := range ml.Slice() {
		if m.To() != to || !p.IsCapture(m) {
			continue
		}
		if m.Kind() != KindNormal {
			return 0, false
		}
		if best == NullMove {
			best = m
			continue
		}
		vm, vb := value[p.At(m.From()).Type()], value[p.At(best.From()).Type()]
		if vm < vb || vm == vb && m.From() < best.From() {
			best = m
		}
	}
	if best == NullMove {
		return 0, true
	}
	victim := value[p.At(to).Type()]
	p.Make(best)
	rest, ok := bruteExchange(p, to, value, depth+1)
	p.Unmake()
	return max(0, victim-rest), ok
}

// TestSEEMatchesBruteForce: on random positions of every variant and rule
// set, SEE of every plain capture equals the exchange played out with the
// move generator (which knows every movement kind: leapers, sliders with
// minimum distances, bent riders, cannons, citadel steps), with random
// piece values so that the choice of the least valuable attacker matters.
func TestSEEMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	games := 12
	if testing.Short() {
		games = 4
	}
	for _, rs := range allRuleSets() {
		v := mustRuleVariant(t, rs)
		value := make([]int32, v.NumTypes()+1)
		checked := 0
		for g := 0; g < games; g++ {
			for i := range value {
				value[i] = 1 + rng.Int32N(1000)
				if i > 0 && v.Def(PieceType(i)).Royal {
					value[i] = 100000
				}
			}
			p := NewPosition(v)
			var ml MoveList
			for ply := 0; ply < 160; ply++ {
				p.GenerateLegal(&ml)
				if ml.N == 0 {
					break
				}
				if ply >= 6 {
					for _, m := range ml.Slice() {
						if m.Kind() != KindNormal || !p.IsCapture(m) {
							continue
						}
						to := m.To()
						if to == p.WaitingPawnOfPawns(White) || to == p.WaitingPawnOfPawns(Black) {
							continue
						}
						fen := p.FEN()
						victim := value[p.At(to).Type()]
						p.Make(m)
						rest, ok := bruteExchange(p, to, value, 0)
						p.Unmake()
						if !ok {
							continue
						}
						want := victim - rest
						if got := p.SEE(m, value); got != want {
							t.Fatalf("%s: %s SEE(%s) = %d, exchange played out = %d", rs, fen, p.Coord(m), got, want)
						}
						if p.FEN() != fen {
							t.Fatalf("%s: SEE changed the position: %s -> %s", rs, fen, p.FEN())
						}
						checked++
					}
				}
				// Prefer captures so that the board empties and lines open.
				m := ml.Moves[rng.IntN(ml.N)]
				for try := 0; try < 3 && !p.IsCapture(m); try++ {
					m = ml.Moves[rng.IntN(ml.N)]
				}
				p.Make(m)
			}
		}
		if checked < 50 {
			t.Errorf("%s: only %d captures checked", rs, checked)
		}
	}
}

// TestSEEExamples checks hand-made exchanges of docs/rules.md 5.1 chess,
// including an x-ray through the capturer.
func TestSEEExamples(t *testing.T) {
	v := MustVariant("chess", nil)
	val := make([]int32, v.NumTypes()+1)
	for i := 1; i <= v.NumTypes(); i++ {
		switch v.Pieces[i].Token {
		case "P":
			val[i] = 100
		case "N", "B":
			val[i] = 300
		case "R":
			val[i] = 500
		case "Q":
			val[i] = 900
		default:
			val[i] = 20000
		}
	}
	for _, c := range []struct {
		fen, move string
		want      int32
	}{
		{"4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 100},       // free pawn
		{"4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", -400},    // defended pawn
		{"4k3/8/4p3/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", -300},  // doubled rooks, defended by a pawn: R takes, P retakes, R retakes
		{"3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},    // x-ray: R takes, R retakes, R retakes
		{"3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", -400}, // two defenders behind each other
		{"4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 300},      // pawn takes knight
		{"4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 200},    // defended knight
		{"4k3/8/8/8/8/8/3q4/3QK3 w - - 0 1", "d1d2", 900},       // an undefended queen
	} {
		p := mustFEN(t, v, c.fen)
		m, err := p.ParseCoord(c.move)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.SEE(m, val); got != c.want {
			t.Errorf("%s %s: SEE %d, want %d", c.fen, c.move, got, c.want)
		}
	}
}
