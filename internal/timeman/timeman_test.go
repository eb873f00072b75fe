package timeman

import (
	"testing"
	"time"
)

// TestBudgetBounds checks the budget over many clocks: the optimum is at
// most the maximum, both at least a millisecond, and the maximum never
// exceeds the clock less the overhead.
func TestBudgetBounds(t *testing.T) {
	for _, left := range []time.Duration{0, time.Millisecond, 60 * time.Millisecond, 300 * time.Millisecond, 2 * time.Second, 10 * time.Second, time.Hour} {
		for _, inc := range []time.Duration{0, 10 * time.Millisecond, 100 * time.Millisecond, 2 * time.Second} {
			for _, mtg := range []int{0, 1, 2, 10, 40, 200} {
				for _, oh := range []time.Duration{0, 50 * time.Millisecond, 2 * time.Second} {
					for _, ply := range []int{0, 40, 400} {
						c := Clock{Left: left, Inc: inc, MovesToGo: mtg, Overhead: oh, Ply: ply}
						opt, mx := Budget(c)
						if opt < time.Millisecond || opt > mx {
							t.Fatalf("%+v: optimum %v, maximum %v", c, opt, mx)
						}
						if mx > max(time.Millisecond, left-oh) {
							t.Fatalf("%+v: maximum %v beyond the clock less the overhead", c, mx)
						}
					}
				}
			}
		}
	}
}

// TestBudgetGames plays the budget out over 300 moves of simulated games
// in which every move costs the overhead besides its search (80 in
// sudden death without increment, where the budget keeps an overhead for
// each move of its horizon only). Searches that always run to their maximum never
// lose on time when an increment or a new time control repays the
// overheads; searches that take twice their optimum (an iteration
// overrun) never do. A game at 10+0.1 whose searches
// take their optimum spends most of its clock: after 40 moves less than
// a quarter of the time it allowed (the clock plus the increments) is
// left, yet never less than the increment.
func TestBudgetGames(t *testing.T) {
	const overhead = 50 * time.Millisecond
	for _, tc := range []struct {
		base, inc  time.Duration
		mtg, moves int
	}{
		{10 * time.Second, 100 * time.Millisecond, 0, 300},
		{10 * time.Second, 0, 0, 80},
		{10 * time.Second, 0, 40, 300},
		{2 * time.Second, 0, 10, 300},
		{60 * time.Second, time.Second, 0, 300},
		{time.Second, 100 * time.Millisecond, 0, 300},
	} {
		for _, cost := range []string{"maximum", "2 optimums"} {
			if cost == "maximum" && tc.mtg == 0 && tc.inc < overhead {
				// Nothing repays the overheads: the budget keeps one
				// for each move of its horizon, not for 80 moves that
				// all run to their maximum.
				continue
			}
			left := tc.base
			for move := 0; move < tc.moves; move++ {
				mtg := 0
				if tc.mtg > 0 {
					mtg = tc.mtg - move%tc.mtg
				}
				opt, mx := Budget(Clock{Left: left, Inc: tc.inc, MovesToGo: mtg, Overhead: overhead, Ply: 2 * move})
				spent := mx
				if cost != "maximum" {
					spent = min(mx, 2*opt)
				}
				left -= spent + overhead
				if left <= 0 {
					t.Fatalf("%+v, searches to the %s: lost on time at move %d (optimum %v, maximum %v)", tc, cost, move, opt, mx)
				}
				left += tc.inc
				if tc.mtg > 0 && mtg == 1 {
					left += tc.base
				}
			}
		}
	}
	left, allowed := 10*time.Second, 10*time.Second
	for move := 0; move < 40; move++ {
		opt, _ := Budget(Clock{Left: left, Inc: 100 * time.Millisecond, Overhead: overhead, Ply: 16 + 2*move})
		left += 100*time.Millisecond - opt - overhead
		allowed += 100 * time.Millisecond
	}
	if left > allowed/4 || left < 100*time.Millisecond {
		t.Errorf("10+0.1, 40 moves of optimum length: %v left of %v", left, allowed)
	}
}

// TestBudgetShape checks how the optimum moves with the clock: at 10+0.1
// early in a game it is about a thirtieth of the clock; a larger
// increment, a later ply in sudden death and a smaller overhead each give
// more; fewer moves to go give more; the maximum is a few optimums.
func TestBudgetShape(t *testing.T) {
	c := Clock{Left: 10 * time.Second, Inc: 100 * time.Millisecond, Overhead: 50 * time.Millisecond, Ply: 16}
	opt, mx := Budget(c)
	if opt < 250*time.Millisecond || opt > 450*time.Millisecond || mx < 3*opt || mx > 7*opt {
		t.Errorf("10+0.1 at ply 16: optimum %v, maximum %v", opt, mx)
	}
	more := func(what string, a, b Clock) {
		t.Helper()
		oa, _ := Budget(a)
		ob, _ := Budget(b)
		if ob <= oa {
			t.Errorf("%s: optimum %v, not more than %v", what, ob, oa)
		}
	}
	big := c
	big.Inc = time.Second
	more("increment 1s", c, big)
	late := c
	late.Ply = 60
	more("ply 60", c, late)
	light := c
	light.Overhead = 10 * time.Millisecond
	more("overhead 10ms", c, light)
	mtg := Clock{Left: 10 * time.Second, MovesToGo: 40, Overhead: 50 * time.Millisecond}
	fewer := mtg
	fewer.MovesToGo = 10
	more("10 moves to go", mtg, fewer)
	// The last move before a control may use most of the clock.
	last := mtg
	last.MovesToGo = 1
	if opt, mx := Budget(last); opt < 5*time.Second || mx > 8*time.Second {
		t.Errorf("last move before the control: optimum %v, maximum %v", opt, mx)
	}
}

// TestLagTracker checks the learning of the clock latency the engine
// cannot see: a GUI clock that runs 300 ms more per move than the
// engine's own time raises the lag to 300 ms, a single stall does not
// move it, a larger time control (time added) is ignored, and the
// estimate goes back to 0 when the latency goes away.
func TestLagTracker(t *testing.T) {
	var l LagTracker
	inc := 100 * time.Millisecond
	spent := 400 * time.Millisecond
	left := 10 * time.Second
	if got := l.Observe(left, inc); got != 0 {
		t.Fatalf("first move: lag %v", got)
	}
	step := func(extra time.Duration) time.Duration {
		l.Moved(spent)
		left = left - spent - extra + inc
		return l.Observe(left, inc)
	}
	var got time.Duration
	for range 3 {
		got = step(300 * time.Millisecond)
	}
	if got != 300*time.Millisecond {
		t.Fatalf("lag %v, want 300ms", got)
	}
	l.Moved(spent)
	left = left - spent + inc + 40*time.Second // a new time control
	if got := l.Observe(left, inc); got != 300*time.Millisecond {
		t.Fatalf("after a time control: lag %v, want it kept at 300ms", got)
	}
	for range lagWindow {
		got = step(0)
	}
	if got != 0 {
		t.Errorf("lag %v after %d moves without latency", got, lagWindow)
	}
	step(time.Second) // one stall
	if got = step(0); got != 0 {
		t.Errorf("lag %v after a single stall", got)
	}
	// The floor: a tenth of the largest clock seen, at most a second.
	if f := l.Floor(); f != time.Second {
		t.Errorf("floor %v after a 50 s clock, want 1s", f)
	}
	l.Reset()
	l.Observe(2*time.Second, 0)
	if f := l.Floor(); f != 200*time.Millisecond {
		t.Errorf("floor %v with a 2 s clock, want 200ms", f)
	}
}
