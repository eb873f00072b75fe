package search

import (
	"context"
	"testing"
	"time"

	"tamerlane/engine"
)

// TestTimingFactors checks the factors that scale the optimum: a score
// that did not fall leaves it, falls raise it up to a bound, mate scores
// count as large evaluations; a best move that stands lowers it step by
// step to a floor; best-move changes raise it.
func TestTimingFactors(t *testing.T) {
	for _, tc := range []struct {
		prev, earlier, score int
		want                 float64
	}{
		{20, 20, 20, 1},
		{0, 0, 50, 1}, // rising: no less time than a steady score
		{30, 10, 0, 1 + 40.0/fallingScale},
		{100, 100, -100, fallingMax},
		{MateScore - 5, 0, 0, fallingMax},
		{0, 0, MateScore - 5, 1},
	} {
		if got := fallingEval(tc.prev, tc.earlier, tc.score); got != tc.want {
			t.Errorf("fallingEval(%d, %d, %d) = %v, want %v", tc.prev, tc.earlier, tc.score, got, tc.want)
		}
	}
	if got := stability(0); got != stableMax {
		t.Errorf("stability(0) = %v", got)
	}
	for i := 1; i < 40; i++ {
		if a, b := stability(i-1), stability(i); b > a || b < stableMin {
			t.Fatalf("stability(%d) = %v after %v", i, b, a)
		}
	}
	if got := stability(40); got != stableMin {
		t.Errorf("stability(40) = %v", got)
	}
	if instability(0) != 1 || instability(1.5) != 2.5 {
		t.Errorf("instability: %v %v", instability(0), instability(1.5))
	}
}

// TestTimeManager runs the iteration bookkeeping on made-up iterations:
// a best move that stands lowers the start limit, a change of best move
// or a falling score raises it, the maximum and a single legal move cap
// it, and the previous move's score counts only when given.
func TestTimeManager(t *testing.T) {
	opt := 100 * time.Millisecond
	scaled := func(d time.Duration, f float64) time.Duration { return time.Duration(float64(d) * f) }
	near := func(a, b time.Duration) bool { return a > b-time.Microsecond && a < b+time.Microsecond }
	a, b := engine.Move(1), engine.Move(2)
	run := func(tm *timeManager, bests []engine.Move, scores []int) time.Duration {
		var lim time.Duration
		for i := range bests {
			lim = tm.completed(i+1, bests[i], scores[i])
		}
		return lim
	}
	steady := func(n int, m engine.Move, score int) ([]engine.Move, []int) {
		var ms []engine.Move
		var ss []int
		for range n {
			ms, ss = append(ms, m), append(ss, score)
		}
		return ms, ss
	}
	ms, ss := steady(16, a, 10)
	stable := run(newTimeManager(opt, 0, false, 10, true), ms, ss)
	if want := scaled(opt, stableMin*startFraction); !near(stable, want) {
		t.Errorf("best move stable for 15 iterations: %v, want %v", stable, want)
	}
	ms[15] = b
	changed := run(newTimeManager(opt, 0, false, 10, true), ms, ss)
	if want := scaled(opt, stableMax*2*startFraction); !near(changed, want) {
		t.Errorf("best move changed at the last iteration: %v, want %v", changed, want)
	}
	ms, _ = steady(16, a, 10)
	ss[15] = -10 // 20 below the previous move and 20 below four iterations back
	falling := run(newTimeManager(opt, 0, false, 10, true), ms, ss)
	if want := scaled(opt, stableMin*(1+40.0/fallingScale)*startFraction); !near(falling, want) {
		t.Errorf("falling score: %v, want %v", falling, want)
	}
	// Without the previous move only the fall within the search counts.
	noPrev := run(newTimeManager(opt, 0, false, 500, false), ms, ss)
	withPrev := run(newTimeManager(opt, 0, false, 500, true), ms, ss)
	if want := scaled(opt, stableMin*(1+20.0/fallingScale)*startFraction); !near(noPrev, want) || !near(withPrev, scaled(opt, stableMin*fallingMax*startFraction)) {
		t.Errorf("previous move: without %v (want %v), with a higher one %v", noPrev, want, withPrev)
	}
	ms[15] = b
	capped := run(newTimeManager(opt, 50*time.Millisecond, false, 10, true), ms, ss)
	if want := scaled(50*time.Millisecond, startFraction); !near(capped, want) {
		t.Errorf("capped by the maximum: %v, want %v", capped, want)
	}
	single := run(newTimeManager(opt, 0, true, 10, true), ms, ss)
	if want := scaled(opt, singleShare*startFraction); !near(single, want) {
		t.Errorf("single legal move: %v, want %v", single, want)
	}
}

// TestOptimum: a managed search with a tiny optimum returns quickly
// however long its maximum, and with a move from a completed iteration.
func TestOptimum(t *testing.T) {
	v := engine.MustVariant("tamerlane", nil)
	pos := engine.NewPosition(v)
	s := newSearcher(t, v)
	start := time.Now()
	res := s.Search(context.Background(), pos, Limits{MoveTime: time.Minute, Optimum: time.Millisecond})
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("optimum 1ms with a maximum of 1m took %v", el)
	}
	if res.Best == engine.NullMove || res.Depth < 1 {
		t.Errorf("managed search returned %+v", res)
	}
}
