package engine

import (
	"slices"
	"sort"
	"testing"
)

// zoneChess is chess with Grand chess's promotion: a zone of three ranks,
// optional before the last, only to a piece type its side has lost.
func zoneChess(t *testing.T) *Variant {
	t.Helper()
	chess := MustVariant("chess", nil)
	v := new(Variant)
	*v = *chess
	v.c, v.Name = compiled{}, "zonechess"
	v.Pieces = append([]PieceDef(nil), chess.Pieces...)
	for i := range v.Pieces {
		if v.Pieces[i].Pawn {
			v.Pieces[i].Promo, v.Pieces[i].Zone, v.Pieces[i].OnlyCaptured = PromoteInZone, 3, true
		}
	}
	if err := NewCustomVariant(v); err != nil {
		t.Fatal(err)
	}
	return v
}

// coordsFrom returns the coordinate moves of the piece on from, sorted.
func coordsFrom(t *testing.T, p *Position, from string) []string {
	t.Helper()
	s := sq(t, p.Variant(), from)
	var out []string
	for _, m := range legalMoves(p) {
		if m.From() == s {
			out = append(out, p.Coord(m))
		}
	}
	sort.Strings(out)
	return out
}

func TestPromotionZone(t *testing.T) {
	v := zoneChess(t)
	cases := []struct {
		name, fen, from string
		want            []string
	}{
		// nothing captured: no choice anywhere in the zone, and no move to the last rank
		{"full set, 5th to 6th", "4k3/8/8/4P3/8/8/8/RNBQKBNR w - - 0 1", "e5", []string{"e5e6"}},
		{"full set, 7th", "1k6/4P3/8/8/8/8/8/RNBQKBNR w - - 0 1", "e7", nil},
		// a Knight lost: the pawn may promote to it on the 6th and 7th, must on the 8th
		{"knight lost, 5th", "4k3/8/8/4P3/8/8/8/R1BQKBNR w - - 0 1", "e5", []string{"e5e6", "e5e6n"}},
		{"knight lost, 7th", "1k6/4P3/8/8/8/8/8/R1BQKBNR w - - 0 1", "e7", []string{"e7e8n"}},
		{"queen and rook lost, 7th, capture", "k2r4/4P3/8/8/8/8/8/1NB1KBNR w - - 0 1", "e7", []string{"e7d8q", "e7d8r", "e7e8q", "e7e8r"}},
		{"queen lost, 6th", "1k6/8/4P3/8/8/8/8/RNB1KBNR w - - 0 1", "e6", []string{"e6e7", "e6e7q"}},
		// Black, mirrored
		{"black, rook lost, 2nd", "rnbqkbn1/4p3/8/8/8/8/4p3/1K6 b - - 0 1", "e2", []string{"e2e1r"}},
		{"black, rook lost, 4th", "rnbqkbn1/8/8/8/4p3/8/8/1K6 b - - 0 1", "e4", []string{"e4e3", "e4e3r"}},
	}
	for _, c := range cases {
		p := mustValidFEN(t, v, c.fen)
		if got := coordsFrom(t, p, c.from); !slices.Equal(got, c.want) {
			t.Errorf("%s: %s moves %v, want %v", c.name, c.from, got, c.want)
		}
	}
}

// TestPromotionZoneCaptures checks that GenerateCaptures keeps exactly the
// captures and promotions of GeneratePseudo, in order, where a zone makes
// both a promotion and a plain move of one step.
func TestPromotionZoneCaptures(t *testing.T) {
	v := zoneChess(t)
	p := mustValidFEN(t, v, "k2r4/4P3/3P4/8/8/8/8/1NB1KBNR w - - 0 1")
	var all, caps MoveList
	p.GeneratePseudo(&all)
	p.GenerateCaptures(&caps)
	var want []Move
	for _, m := range all.Slice() {
		if p.IsCapture(m) || m.Kind() == KindPromotion {
			want = append(want, m)
		}
	}
	if !slices.Equal(caps.Slice(), want) {
		t.Errorf("captures %v, want %v", caps.Slice(), want)
	}
	if len(want) < 6 {
		t.Errorf("only %d captures and promotions, want the d6 and e7 promotions", len(want))
	}
}

// TestPromotionZoneNotation checks that a promotion is written with its
// letter even with a single choice (the plain move is another move), in
// coordinates and in SAN, and that the coordinates parse back.
func TestPromotionZoneNotation(t *testing.T) {
	v := zoneChess(t)
	p := mustValidFEN(t, v, "4k3/8/8/4P3/8/8/8/R1BQKBNR w - - 0 1")
	for _, s := range []string{"e5e6", "e5e6n"} {
		m, err := p.ParseCoord(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Coord(m); got != s {
			t.Errorf("%s written back as %s", s, got)
		}
		if (m.Kind() == KindPromotion) != (len(s) == 5) {
			t.Errorf("%s: kind %v", s, m.Kind())
		}
		if want := map[string]string{"e5e6": "e6", "e5e6n": "e6=N"}[s]; p.SAN(m) != want {
			t.Errorf("%s: SAN %s, want %s", s, p.SAN(m), want)
		}
	}
}

// TestPromotionZonePawnOnLastRank checks that a FEN may not leave a zone
// pawn on its last rank.
func TestPromotionZonePawnOnLastRank(t *testing.T) {
	v := zoneChess(t)
	if _, err := ParseFEN(v, "k3P3/8/8/8/8/8/8/R1BQKBNR w - - 0 1"); err == nil {
		t.Error("a white pawn on the 8th rank accepted")
	}
}

// TestPromotionZoneDoesNotAllocate checks that generating zone promotions
// (limits counted on the board) allocates nothing.
func TestPromotionZoneDoesNotAllocate(t *testing.T) {
	v := zoneChess(t)
	p := mustValidFEN(t, v, "k2r4/4P3/3P4/8/8/8/8/1NB1KBNR w - - 0 1")
	var ml MoveList
	n := testing.AllocsPerRun(10, func() {
		p.GenerateLegal(&ml)
		p.GenerateCaptures(&ml)
	})
	if n != 0 {
		t.Errorf("%v allocations", n)
	}
}
