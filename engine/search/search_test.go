package search

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"tamerlane/engine"
	"tamerlane/engine/enginetest"
	"tamerlane/engine/eval"
)

// newSearcher returns a searcher that evaluates with v's hand table, so
// that the search tests (mates found at a given depth, node counts) test
// the search and do not change when tuned tables are applied. With the
// tuned tables of 2026-11-25 four of the two-move wins of TestMates were
// not found at depth 6 (the shatranj one at depth 8): the shallow pruning
// cut the mating line (TestPruningSparesMatingChecks tests the shipped
// tables since checks are spared).
func newSearcher(t testing.TB, v *engine.Variant) *Searcher {
	t.Helper()
	w, err := eval.Hand(v)
	if err != nil {
		t.Fatal(err)
	}
	return New(eval.New(w), 4)
}

func mustFEN(t testing.TB, v *engine.Variant, fen string) *engine.Position {
	t.Helper()
	p, err := engine.ParseFEN(v, fen)
	if err != nil {
		t.Fatalf("%s: %v", v.Name, err)
	}
	return p
}

// TestBestMoveLegal: on random playout positions of every variant, with
// small node limits, the best move is legal and the position is restored.
func TestBestMoveLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		s := newSearcher(t, v)
		for i := 0; i < 8; i++ {
			pos := enginetest.Playout(v, rng, rng.IntN(160))
			fen, hash := pos.FEN(), pos.Hash()
			var ml engine.MoveList
			pos.GenerateLegal(&ml)
			for _, nodes := range []int64{1, 37, 800} {
				res := s.Search(context.Background(), pos, Limits{Nodes: nodes})
				if pos.FEN() != fen || pos.Hash() != hash {
					t.Fatalf("%s: position not restored: %s -> %s", name, fen, pos.FEN())
				}
				if ml.N == 0 {
					if res.Best != engine.NullMove {
						t.Errorf("%s %s: best %v with no legal move", name, fen, res.Best)
					}
					continue
				}
				legal := false
				for _, m := range ml.Slice() {
					legal = legal || m == res.Best
				}
				if !legal {
					t.Errorf("%s %s nodes %d: best move %v is not legal", name, fen, nodes, res.Best)
				}
				if len(res.PV) == 0 || res.PV[0] != res.Best {
					t.Errorf("%s: PV %v does not start with the best move", name, res.PV)
				}
			}
		}
	}
}

// TestPseudoFilter checks the move generation shortcut the search relies
// on: out of check, GeneratePseudo filtered by LastMoveLeftRoyalAttacked
// gives the legal moves, unless it gives none (then GenerateLegal may add
// swaps).
func TestPseudoFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		for i := 0; i < 30; i++ {
			pos := enginetest.Playout(v, rng, rng.IntN(200))
			if pos.InCheck() || pos.CitadelDraw() {
				continue
			}
			var legal, pseudo engine.MoveList
			pos.GenerateLegal(&legal)
			pos.GeneratePseudo(&pseudo)
			got := map[engine.Move]bool{}
			for _, m := range pseudo.Slice() {
				pos.Make(m)
				if !pos.LastMoveLeftRoyalAttacked() {
					got[m] = true
				}
				pos.Unmake()
				if pos.LegalAfterPseudo(m) != got[m] {
					t.Errorf("%s: LegalAfterPseudo disagrees", name)
				}
			}
			if len(got) == 0 {
				continue
			}
			if len(got) != legal.N {
				t.Errorf("%s %s: %d filtered pseudo moves, %d legal", name, pos.FEN(), len(got), legal.N)
			}
			for _, m := range legal.Slice() {
				if !got[m] {
					t.Errorf("%s %s: legal %s not among filtered pseudo moves", name, pos.FEN(), pos.Coord(m))
				}
			}
		}
	}
}

// TestDeterministic: a fixed node limit gives the same result from two
// fresh searchers.
// TestNoStaleScratch: what a search reads of its per-ply bookkeeping (the
// moves made at each ply, for the continuation history; the static
// evaluation at each ply, for "improving") it has written in the same
// search, so leftovers of earlier searches, which Clear does not erase,
// change nothing: a searcher whose per-ply records are filled with
// garbage searches exactly as a fresh one. (The quiescence search once
// ordered check evasions by the continuation entries of whatever move
// an earlier search had made at its ply, and the second ply's
// "improving" compared with a root evaluation that was never stored, so
// a searcher after Clear, as in a new game of the UCI server or a reused
// self-play player, did not play as a new one.)
func TestNoStaleScratch(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	positions, nodes := 12, int64(20000)
	if testing.Short() {
		positions, nodes = 2, 6000
	}
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		for i := 0; i < positions; i++ {
			pos := enginetest.Playout(v, rng, 10+rng.IntN(40))
			fresh := newSearcher(t, v).Search(context.Background(), pos, Limits{Nodes: nodes})
			s := newSearcher(t, v)
			s.setup(v)
			for p := range s.plies {
				s.plies[p] = plyInfo{key: int32(rng.IntN(int(s.hist.keys))), move: engine.Move(rng.Uint32()), moveCount: rng.IntN(40), capture: rng.IntN(2) == 0, inCheck: rng.IntN(2) == 0, ttHit: rng.IntN(2) == 0}
				s.staticAt[p] = rng.IntN(2001) - 1000
			}
			got := s.Search(context.Background(), pos, Limits{Nodes: nodes})
			if got.Best != fresh.Best || got.Score != fresh.Score || got.Nodes != fresh.Nodes || got.Depth != fresh.Depth || !slices.Equal(got.PV, fresh.PV) {
				t.Errorf("%s %s: with leftovers %v/%d/%d/d%d %v, fresh %v/%d/%d/d%d %v", name, pos.FEN(),
					got.Best, got.Score, got.Nodes, got.Depth, got.PV, fresh.Best, fresh.Score, fresh.Nodes, fresh.Depth, fresh.PV)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		pos := enginetest.Playout(v, rng, 10+rng.IntN(30))
		a := newSearcher(t, v).Search(context.Background(), pos, Limits{Nodes: 6000})
		b := newSearcher(t, v).Search(context.Background(), pos, Limits{Nodes: 6000})
		if a.Best != b.Best || a.Score != b.Score || a.Nodes != b.Nodes || a.Depth != b.Depth {
			t.Errorf("%s: %v/%d/%d/%d vs %v/%d/%d/%d", name, a.Best, a.Score, a.Nodes, a.Depth, b.Best, b.Score, b.Nodes, b.Depth)
		}
		// Only a forced result found early ends the search before its
		// node limit.
		if a.Nodes != 6000 && a.Mate == 0 {
			t.Errorf("%s: searched %d nodes, limit 6000, no forced result", name, a.Nodes)
		}
		// Clear gives a fresh searcher back.
		s := newSearcher(t, v)
		s.Search(context.Background(), pos, Limits{Nodes: 3000})
		s.Clear()
		c := s.Search(context.Background(), pos, Limits{Nodes: 6000})
		if c.Best != a.Best || c.Score != a.Score || c.Nodes != a.Nodes {
			t.Errorf("%s: after Clear %v/%d/%d, fresh %v/%d/%d", name, c.Best, c.Score, c.Nodes, a.Best, a.Score, a.Nodes)
		}
	}
}

func TestLimits(t *testing.T) {
	v := engine.MustVariant("tamerlane", nil)
	pos := engine.NewPosition(v)
	s := newSearcher(t, v)
	res := s.Search(context.Background(), pos, Limits{Depth: 3})
	if res.Depth != 3 {
		t.Errorf("depth limit 3: reached %d", res.Depth)
	}
	start := time.Now()
	res = s.Search(context.Background(), pos, Limits{MoveTime: 100 * time.Millisecond})
	if el := time.Since(start); el > time.Second {
		t.Errorf("move time 100ms took %v", el)
	}
	if res.Best == engine.NullMove {
		t.Error("no move within the time limit")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res = s.Search(ctx, pos, Limits{})
	if res.Best == engine.NullMove {
		t.Error("no move from a cancelled search")
	}
}

// TestNodesAreMovesMade: a node is a move made in the tree, as Stockfish
// counts them (so that "equal nodes" against it means the same work), not
// a call of the search: a one-ply search from a start position where no
// reply can capture makes each legal root move once and nothing else,
// although later root moves that beat the first are searched twice. A
// node limit stops the search at exactly that many nodes.
func TestNodesAreMovesMade(t *testing.T) {
	checked := 0
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		pos := engine.NewPosition(v)
		var ml, replies engine.MoveList
		pos.GenerateLegal(&ml)
		quiet := true
		for _, m := range ml.Slice() {
			pos.Make(m)
			replies.N = 0
			pos.GeneratePseudo(&replies)
			for _, r := range replies.Slice() {
				quiet = quiet && !pos.IsCapture(r) && r.Kind() != engine.KindPromotion
			}
			inCheck := pos.InCheck()
			pos.Unmake()
			quiet = quiet && !inCheck
		}
		if !quiet {
			continue
		}
		checked++
		res := newSearcher(t, v).Search(context.Background(), pos, Limits{Depth: 1})
		if res.Nodes != int64(ml.N) {
			t.Errorf("%s: depth 1 from the start counted %d nodes, want its %d legal moves", name, res.Nodes, ml.N)
		}
		for _, n := range []int64{1, 7, 1000} {
			if res := newSearcher(t, v).Search(context.Background(), pos, Limits{Nodes: n}); res.Nodes != n {
				t.Errorf("%s: node limit %d: searched %d", name, n, res.Nodes)
			}
		}
	}
	if checked < 2 {
		t.Errorf("only %d start positions without a capturing reply; the test needs at least chess and one more", checked)
	}
}
func TestSearchAllocs(t *testing.T) {
	for _, name := range []string{"chess", "tamerlane"} {
		v := engine.MustVariant(name, nil)
		s := newSearcher(t, v)
		pos := engine.NewPosition(v)
		s.Search(context.Background(), pos, Limits{Nodes: 2000})
		n := testing.AllocsPerRun(2, func() {
			s.Search(context.Background(), pos, Limits{Nodes: 4000})
		})
		// The result's PV is the only allocation; the tree search allocates
		// nothing.
		if n > 1 {
			t.Errorf("%s: %.0f allocations per search", name, n)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	for _, name := range engine.VariantNames() {
		b.Run(name, func(b *testing.B) {
			v := engine.MustVariant(name, nil)
			rng := rand.New(rand.NewPCG(6, 6))
			var ps []*engine.Position
			for i := 0; i < 8; i++ {
				ps = append(ps, enginetest.Playout(v, rng, 6+rng.IntN(30)))
			}
			s := newSearcher(b, v)
			var nodes int64
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				s.Clear()
				res := s.Search(context.Background(), ps[i%len(ps)], Limits{Nodes: 50000})
				nodes += res.Nodes
			}
			b.ReportMetric(float64(nodes)/time.Since(start).Seconds(), "nodes/s")
		})
	}
}

// TestInfoPerIteration: Info is called once per completed iteration, in
// order, with a legal first PV move, nodes that grow and a seldepth at
// least the depth; the final result matches the last call.
func TestInfoPerIteration(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	pos := engine.NewPosition(v)
	s := newSearcher(t, v)
	var got []Result
	res := s.Search(context.Background(), pos, Limits{Depth: 4, Info: func(r Result) {
		r.PV = append([]engine.Move(nil), r.PV...)
		got = append(got, r)
	}})
	if len(got) != 4 {
		t.Fatalf("Info called %d times for depth 4, want 4", len(got))
	}
	for i, r := range got {
		if r.Depth != i+1 {
			t.Errorf("call %d: depth %d", i, r.Depth)
		}
		if r.SelDepth < r.Depth {
			t.Errorf("call %d: seldepth %d < depth %d", i, r.SelDepth, r.Depth)
		}
		if len(r.PV) == 0 || !legal(pos, r.PV[0]) {
			t.Errorf("call %d: PV %v does not start with a legal move", i, r.PV)
		}
		if i > 0 && r.Nodes < got[i-1].Nodes {
			t.Errorf("call %d: nodes went down %d -> %d", i, got[i-1].Nodes, r.Nodes)
		}
	}
	last := got[len(got)-1]
	if last.Best != res.Best || last.Score != res.Score || res.SelDepth < last.SelDepth {
		t.Errorf("final %+v differs from the last info %+v", res, last)
	}
}

func legal(pos *engine.Position, m engine.Move) bool {
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	for i := 0; i < ml.N; i++ {
		if ml.Moves[i] == m {
			return true
		}
	}
	return false
}

// TestQuiescenceLineIgnoresTable: a searcher whose table is full of the
// entries of earlier searches (the quiescence search stores its results)
// finds a quiescence line exactly where a fresh searcher does (a table
// cutoff must not cut the line short: whether some capture beats the
// stand-pat does not depend on move order), and the line is legal.
func TestQuiescenceLineIgnoresTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		used := newSearcher(t, v)
		lines := 0
		for i := 0; i < 6; i++ {
			pos := enginetest.Playout(v, rng, 12+6*i)
			used.Search(context.Background(), pos, Limits{Nodes: 1000})
			got := used.QuiescenceLine(pos)
			want := newSearcher(t, v).QuiescenceLine(pos)
			if (len(got) == 0) != (len(want) == 0) {
				t.Fatalf("%s %s: line after a search %v, fresh %v", name, pos.FEN(), coords(t, v, pos.FEN(), got), coords(t, v, pos.FEN(), want))
			}
			if len(got) > 0 {
				lines++
			}
			for _, m := range got {
				if !legal(pos, m) {
					t.Fatalf("%s %s: illegal move in the quiescence line", name, pos.FEN())
				}
				pos.Make(m)
			}
			for range got {
				pos.Unmake()
			}
		}
		if lines == 0 {
			t.Errorf("%s: no position had a quiescence line", name)
		}
	}
}
