package engine

import "testing"

// TestBitboardOps checks the set operations against a map of indexes.
func TestBitboardOps(t *testing.T) {
	rng := newRNG(5)
	random := func() (Bitboard, map[int]bool) {
		var b Bitboard
		m := map[int]bool{}
		for range rng.IntN(20) {
			i := rng.IntN(MaxIndex)
			b = b.Or(BitAt(i))
			m[i] = true
		}
		return b, m
	}
	for range 500 {
		a, am := random()
		b, bm := random()
		for i := range MaxIndex {
			if a.Has(i) != am[i] {
				t.Fatalf("Has(%d) = %v, want %v", i, a.Has(i), am[i])
			}
			if a.Or(b).Has(i) != (am[i] || bm[i]) || a.And(b).Has(i) != (am[i] && bm[i]) ||
				a.AndNot(b).Has(i) != (am[i] && !bm[i]) || a.Xor(b).Has(i) != (am[i] != bm[i]) {
				t.Fatalf("set operations wrong at %d", i)
			}
		}
		if a.Count() != len(am) || a.Empty() != (len(am) == 0) || a.Any() == a.Empty() {
			t.Fatalf("Count %d, want %d", a.Count(), len(am))
		}
		lo, hi := MaxIndex, -1
		for i := range am {
			lo, hi = min(lo, i), max(hi, i)
		}
		if a.First() != lo || a.Last() != hi {
			t.Fatalf("First/Last %d/%d, want %d/%d", a.First(), a.Last(), lo, hi)
		}
		n := 0
		prev := -1
		for c := a; c.Any(); n++ {
			i := c.PopFirst()
			if i <= prev || !am[i] {
				t.Fatalf("PopFirst gave %d after %d", i, prev)
			}
			prev = i
		}
		if n != len(am) {
			t.Fatalf("PopFirst gave %d squares, want %d", n, len(am))
		}
	}
}

// TestIndexRoundTrip checks that every square of the playing area and
// every citadel has a distinct index and maps back.
func TestIndexRoundTrip(t *testing.T) {
	for _, name := range VariantNames() {
		v := MustVariant(name, nil)
		seen := map[int]bool{}
		for s := Square(0); s < NumSquares; s++ {
			i := v.Index(s)
			if on := v.OnBoard(s) || v.IsCitadel(s); on != (i >= 0) {
				t.Fatalf("%s: %v index %d", name, s, i)
			}
			if i < 0 {
				continue
			}
			if seen[i] || v.SquareOf(i) != s || v.Board().Has(i) != v.OnBoard(s) {
				t.Fatalf("%s: %v index %d maps back to %v", name, s, i, v.SquareOf(i))
			}
			seen[i] = true
		}
	}
}
