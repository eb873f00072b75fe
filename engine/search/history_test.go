package search

import (
	"testing"

	"tamerlane/engine"
)

// TestGravityBound: however many bonuses or maluses an entry receives, it
// stays within its table's limit, and a run of bonuses brings it near.
func TestGravityBound(t *testing.T) {
	for _, limit := range []int32{butterflyMax, contMax, captureMax} {
		var e int16
		for range 1000 {
			gravity(&e, statBonus(14), limit)
			if int32(e) > limit {
				t.Fatalf("limit %d: entry %d after bonuses", limit, e)
			}
		}
		if int32(e) < limit*9/10 {
			t.Errorf("limit %d: entry %d after 1000 bonuses, want near the limit", limit, e)
		}
		for range 1000 {
			gravity(&e, -statBonus(14), limit)
			if int32(e) < -limit {
				t.Fatalf("limit %d: entry %d after maluses", limit, e)
			}
		}
	}
}

// contAt is the continuation entry of key after prev (0 without prev).
func contAt(h *histories, prev, key int32) int32 {
	if prev < 0 {
		return 0
	}
	return int32(h.cont[prev*h.keys+key])
}

// quietScore is the ordering score of a quiet move with key at ply, as
// scoreMoves computes it.
func (s *Searcher) quietScore(ply int, m engine.Move, key int32) int32 {
	q := s.quietTables(ply)
	return q.score(&s.hist, m, key)
}

// TestUpdateContPlies: a move's continuation entries change after the
// moves 1, 2, 4 and 6 plies back and no other, and only after 1 and 2
// when the side to move is in check.
func TestUpdateContPlies(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	s := newSearcher(t, v)
	s.setup(v)
	const ply = 7
	for i := 0; i < ply; i++ {
		s.plies[i] = plyInfo{key: int32(10 + i)}
	}
	key := int32(100)
	for _, inCheck := range []bool{false, true} {
		s.hist.clear()
		s.plies[ply].inCheck = inCheck
		s.updateCont(ply, key, 500)
		for back := 1; back <= ply; back++ {
			got := contAt(&s.hist, s.prevKey(ply, back), key)
			want := back == 1 || back == 2 || !inCheck && (back == 4 || back == 6)
			if (got > 0) != want {
				t.Errorf("in check %v: entry after the move %d plies back = %d, want changed %v", inCheck, back, got, want)
			}
		}
	}
	// A null move (noKey) before the node changes nothing and reads as 0.
	s.hist.clear()
	s.plies[ply-1].key = noKey
	s.plies[ply].inCheck = false
	s.updateCont(ply, key, 500)
	if got := contAt(&s.hist, s.prevKey(ply, 1), key); got != 0 {
		t.Errorf("entry after a null move = %d, want 0", got)
	}
	if got := contAt(&s.hist, s.prevKey(ply, 2), key); got == 0 {
		t.Error("entry 2 plies back unchanged behind a null move")
	}
}

// TestQuietStatsOrder: a quiet move rewarded after the opponent's reply
// scores above the same move after another reply, and above a move the
// same node punished.
func TestQuietStatsOrder(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	s := newSearcher(t, v)
	pos := mustFEN(t, v, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
	s.setup(v)
	s.pos = pos
	good, err := pos.ParseMove("f1b5")
	if err != nil {
		t.Fatal(err)
	}
	bad, err := pos.ParseMove("f1c4")
	if err != nil {
		t.Fatal(err)
	}
	const ply = 3
	s.plies[ply-1] = plyInfo{key: s.hist.key(2, 42)}
	s.updateAllStats(ply, good, 50, 40, 8, []engine.Move{bad, good}, nil)
	g, b := s.quietScore(ply, good, s.moveKey(good)), s.quietScore(ply, bad, s.moveKey(bad))
	if g <= 0 || b >= 0 {
		t.Errorf("after the cutoff: rewarded %d, punished %d", g, b)
	}
	if s.killers[ply][0] != good {
		t.Errorf("killer %v, want %v", s.killers[ply][0], good)
	}
	// After another reply only the butterfly part remains.
	s.plies[ply-1].key = s.hist.key(3, 43)
	if g2 := s.quietScore(ply, good, s.moveKey(good)); g2 >= g {
		t.Errorf("after another reply %d, want less than %d", g2, g)
	}
}

// TestCaptureHistoryOrder: captures are ordered by the victim's value
// until the capture history says otherwise. A capture that keeps
// refuting (rewarded) while a bigger one is tried and fails (punished)
// comes first after enough such nodes.
func TestCaptureHistoryOrder(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	s := newSearcher(t, v)
	// White can take the knight on a5 with the rook or the pawn on d5
	// with the e-pawn; neither loses by static exchange.
	pos := mustFEN(t, v, "4k3/8/8/n2p4/4P3/8/8/R3K3 w - - 0 1")
	s.setup(v)
	s.pos = pos
	knight, err := pos.ParseMove("a1a5")
	if err != nil {
		t.Fatal(err)
	}
	pawn, err := pos.ParseMove("e4d5")
	if err != nil {
		t.Fatal(err)
	}
	order := func() (engine.Move, engine.Move) {
		ml := &engine.MoveList{}
		pos.GeneratePseudo(ml)
		s.scoreMoves(ml, 1, engine.NullMove)
		return s.pick(ml, 1, 0), s.pick(ml, 1, 1)
	}
	if a, b := order(); a != knight || b != pawn {
		t.Fatalf("order %v, %v before any history, want %v, %v", a, b, knight, pawn)
	}
	for range 20 {
		s.updateAllStats(1, pawn, 50, 40, 8, nil, []engine.Move{knight, pawn})
	}
	if p, k := s.captureScore(pawn), s.captureScore(knight); p <= 0 || k >= 0 {
		t.Errorf("capture history: rewarded %d, punished %d", p, k)
	}
	if a, b := order(); a != pawn || b != knight {
		t.Errorf("order %v, %v after the history, want %v, %v", a, b, pawn, knight)
	}
}
