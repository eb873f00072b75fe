package engine

import (
	"testing"
)

// The cross-check of the set queries (rays.go) against the square-by-square
// walkers they replace (attack_ref_test.go).

// seeTables returns value tables for LeastAttacker and SEE: one by piece
// type, one that ties every piece (the lowest square decides), and one
// that ties pairs of types.
func seeTables(v *Variant) [][]int32 {
	n := len(v.Pieces)
	byType, flat, pairs := make([]int32, n), make([]int32, n), make([]int32, n)
	for t := 1; t < n; t++ {
		byType[t] = int32(100 + 37*t)
		flat[t] = 300
		pairs[t] = int32(100 * ((t + 1) / 2))
	}
	return [][]int32{byType, flat, pairs}
}

// crossCheckAttacks compares Attacked and LeastAttacker on every square for
// both sides, Mobility of every piece with four avoid sets, and SEE on
// every legal move, with the reference walkers; it
// returns the number of queries compared.
func crossCheckAttacks(t *testing.T, p *Position, tables [][]int32) int {
	t.Helper()
	v := p.Variant()
	n := 0
	var squares []Square
	squares = append(squares, v.c.onBoard...)
	for _, ct := range v.Citadels {
		squares = append(squares, ct.Square)
	}
	for _, s := range squares {
		for by := White; by <= Black; by++ {
			if got, want := p.Attacked(s, by), p.refAttacked(s, by); got != want {
				t.Fatalf("%s: %s: Attacked(%v, %v) = %v, reference %v", v.Name, p.FEN(), s, by, got, want)
			}
			for _, val := range tables {
				gs, gok := p.LeastAttacker(s, by, val)
				ws, wok := p.refLeastAttacker(s, by, val)
				if gs != ws || gok != wok {
					t.Fatalf("%s: %s: LeastAttacker(%v, %v, %v) = %v %v, reference %v %v", v.Name, p.FEN(), s, by, val, gs, gok, ws, wok)
				}
			}
			n++
		}
	}
	for k := range 4 {
		avoid := v.Board()
		if k > 0 {
			avoid = Bitboard{uint64(k) * 0x9e3779b97f4a7c15, uint64(k) * 0xc2b2ae3d27d4eb4f}.And(v.Board())
		}
		for by := White; by <= Black; by++ {
			for _, s := range p.Pieces(by) {
				ga, gn, gv := p.Mobility(s, avoid)
				wa, wn, wv := p.refMobility(s, avoid)
				if ga != wa || gn != wn || gv != wv {
					t.Fatalf("%s: %s: Mobility(%v) = %v %d %d, reference %v %d %d", v.Name, p.FEN(), s, ga, gn, gv, wa, wn, wv)
				}
				n++
			}
		}
	}
	for _, m := range legalMoves(p) {
		for _, val := range tables {
			if got, want := p.SEE(m, val), p.refSEE(m, val); got != want {
				t.Fatalf("%s: %s: SEE(%v) = %d, reference %d", v.Name, p.FEN(), m, got, want)
			}
		}
		n++
	}
	return n
}

func TestAttackSetsMatchReference(t *testing.T) {
	games, plies := 12, 120
	if testing.Short() {
		games, plies = 3, 60
	}
	positions, queries := 0, 0
	for k, rs := range allRuleSets() {
		v := mustRuleVariant(t, rs)
		tables := seeTables(v)
		starts := targeted(v)
		for range games {
			starts = append(starts, v.StartFEN)
		}
		for g, fen := range starts {
			p := mustValidFEN(t, v, fen)
			playout(newRNG(uint64(1000*k+g)), p, plies, func(p *Position) bool {
				queries += crossCheckAttacks(t, p, tables)
				positions++
				return true
			})
		}
	}
	if positions < 1000 {
		t.Fatalf("only %d positions compared", positions)
	}
	t.Logf("%d positions, %d queries", positions, queries)
}

// TestAttackQueriesDoNotAllocate checks that the set queries of the hot
// paths allocate nothing.
func TestAttackQueriesDoNotAllocate(t *testing.T) {
	for _, name := range VariantNames() {
		v := mustRuleVariant(t, ruleSet{name, ""})
		p := NewPosition(v)
		moves := legalMoves(p)
		val := seeTables(v)[0]
		s := p.Pieces(White)[0]
		n := testing.AllocsPerRun(10, func() {
			p.Attacked(s, Black)
			p.LeastAttacker(s, Black, val)
			p.Mobility(s, Bitboard{})
			for _, m := range moves {
				p.SEE(m, val)
			}
		})
		if n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}
