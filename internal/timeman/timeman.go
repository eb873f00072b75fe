// Package timeman is the engine's time management, shared by the UCI and
// CECP servers: Budget turns a clock into the time one move should take
// and the most it may take (the search scales the first, see
// search.Limits.Optimum), and LagTracker learns the latency a GUI's clock
// sees beyond the engine's own time, to add to the move overhead.
package timeman

import (
	"math"
	"time"
)

// Clock is what the time manager knows when a move is to be played on
// a clock.
type Clock struct {
	Left      time.Duration // on the clock of the side to move
	Inc       time.Duration // added after each move
	MovesToGo int           // moves until the next time control; 0: the rest of the game
	// Overhead is what every move costs beyond the search: the Move
	// Overhead option and the latency the server has learnt.
	Overhead time.Duration
	Ply      int // the game's ply (half-moves since its start)
}

// The time manager's constants. Stockfish's time manager (timeman.cpp)
// has the same shape; these are the engine's own figures.
const (
	// horizon is the most moves planned for: the number of moves in
	// sudden death, a cap on the moves to go otherwise.
	horizon = 50
	// In sudden death the share of the pool for one move grows with the
	// game (fewer moves are likely left): shareBase + shareGrowth *
	// sqrt(ply+3), about 1/60 at the start, 1/35 after 20 plies and 1/22
	// after 80. It is capped at suddenDeathCap of the clock.
	shareBase      = 0.009
	shareGrowth    = 0.004
	suddenDeathCap = 0.2
	// With moves to go each gets controlShare of an even share of the
	// pool, capped at controlCap of the clock.
	controlShare = 0.9
	controlCap   = 0.8
	// maxShare of the clock (less the overhead) is the most one move
	// may take: a search that always ran to its maximum would still not
	// lose on time.
	maxShare = 0.8
)

// Budget returns the time to spend on one move: optimum, the time it
// should take when the search sees nothing special (the search scales it
// by the stability of its best move and the trend of its score), and
// maximum, the bound at which it stops.
//
// The pool is the clock plus the increments of the moves to go (horizon
// in sudden death, at most horizon otherwise) less an overhead for each
// of them and two more. In sudden death the optimum is a share of the
// pool that grows with the game's length, at most a fifth of the clock,
// and the maximum 4 to 6.5 optimums (more as the game goes on); with
// moves to go it is 90% of an even share, at most 80% of the clock, and
// the maximum 1.5 optimums plus a tenth of one per move to go. The
// maximum never exceeds 80% of the clock less the overhead. A large
// increment makes the pool larger than the clock, so more of the clock
// is spent: the increment repays it.
func Budget(c Clock) (optimum, maximum time.Duration) {
	const minimum = time.Millisecond
	mtg := horizon
	if c.MovesToGo > 0 {
		mtg = min(c.MovesToGo, horizon)
	}
	pool := max(minimum, c.Left+c.Inc*time.Duration(mtg-1)-c.Overhead*time.Duration(mtg+2))
	ply := float64(max(c.Ply, 0))
	left := float64(c.Left)
	var share, ratio float64
	if c.MovesToGo == 0 {
		share = min(shareBase+shareGrowth*math.Sqrt(ply+3), suddenDeathCap*left/float64(pool))
		ratio = min(6.5, 4+ply/12)
	} else {
		share = min(controlShare/float64(mtg), controlCap*left/float64(pool))
		ratio = min(6, 1.5+0.1*float64(mtg))
	}
	optimum = time.Duration(share * float64(pool))
	maximum = min(time.Duration(maxShare*left)-c.Overhead, time.Duration(ratio*float64(optimum)))
	maximum = max(maximum, minimum)
	return max(min(optimum, maximum), minimum), maximum
}

// LagTracker learns the latency the GUI's clock sees but the engine does
// not: the time between the GUI starting the engine's clock and the
// engine reading go, and between the engine writing bestmove and the GUI
// stopping the clock (pipes, a loaded machine's scheduler). It compares
// the clock the GUI reports with the clock expected from the previous
// move: left(previous) - time spent + increment. The estimate is the
// mean of the last lagWindow moves' latencies without the largest: it
// follows a latency that every move pays (which the budget must reserve
// for each move to go) but not a single stall (which the maximum's
// margin and the floor absorb).
type LagTracker struct {
	have      bool
	maxLeft   time.Duration // the largest clock seen this game
	left, inc time.Duration // the previous move's clock and increment
	spent     time.Duration // the engine's own time for it, go to bestmove
	seen      [lagWindow]time.Duration
	n         int // latencies seen (the last lagWindow are kept)
}

// lagWindow is the number of moves the lag estimate looks back on;
// maxLag bounds one move's latency.
const (
	lagWindow = 8
	maxLag    = 2 * time.Second
)

// Observe is called when a search on the clock starts, with left and
// inc for the side to move. It returns the lag to add to the move
// overhead.
func (l *LagTracker) Observe(left, inc time.Duration) time.Duration {
	if l.have {
		missing := l.left - l.spent + l.inc - left
		// A time control that adds time, or another game, gives a
		// negative or absurd figure: ignore it.
		if missing >= 0 && missing <= maxLag {
			l.seen[l.n%lagWindow] = missing
			l.n++
		}
	}
	l.have, l.left, l.inc, l.spent = true, left, inc, 0
	l.maxLeft = max(l.maxLeft, left)
	return l.lag()
}

// lag is the mean of the latencies kept, the largest left out; 0 until
// two are known.
func (l *LagTracker) lag() time.Duration {
	k := min(l.n, lagWindow)
	if k < 2 {
		return 0
	}
	var sum, top time.Duration
	for _, d := range l.seen[:k] {
		sum += d
		top = max(top, d)
	}
	return (sum - top) / time.Duration(k-1)
}

// Floor is the part of the clock sudden death never plans to spend: a
// tenth of the largest clock seen this game, at most a second. A stall of
// the machine at the end of a long game then costs time, not the game.
func (l *LagTracker) Floor() time.Duration { return min(time.Second, l.maxLeft/10) }

// Moved records the engine's own time for the move observed last.
func (l *LagTracker) Moved(spent time.Duration) { l.spent = spent }

// Reset forgets the previous move and clock (a new game); the latencies
// are kept.
func (l *LagTracker) Reset() { l.have, l.maxLeft = false, 0 }
