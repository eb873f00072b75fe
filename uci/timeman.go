package uci

import "time"

// Budget returns the time to spend on one move with left on the clock,
// an increment of inc per move and movesToGo moves until the next time
// control (0: the rest of the game). soft is the target (no new
// iteration of the search starts after it) and hard the bound at which
// the search stops.
//
// Every move is assumed to cost overhead more than the search (process
// and pipe latency). The moves to go (assumed 30 in sudden death, at most
// 40) keep a reserve of overhead each, less what their increments repay
// (in sudden death at most half the clock, or one overhead if more).
// The target is an even share of the usable time plus three quarters of
// the increment; the bound is three targets, capped at a fifth of the
// usable time in sudden death and otherwise at half of it (80% on the
// last move before a control), so that even a search that always ran to
// its bound would not lose on time.
func Budget(left, inc time.Duration, movesToGo int, overhead time.Duration) (soft, hard time.Duration) {
	const minimum = time.Millisecond
	mtg := 30
	if movesToGo > 0 {
		mtg = min(movesToGo, 40)
	}
	reserve := overhead + time.Duration(mtg-1)*max(0, overhead-inc)
	if movesToGo == 0 {
		// In sudden death the 30 moves are a guess: a large overhead
		// must not leave nothing to think with.
		reserve = min(reserve, max(overhead, left/2))
	}
	usable := left - reserve
	if usable < minimum {
		return minimum, minimum
	}
	soft = usable/time.Duration(mtg) + inc*3/4
	capped := usable / 2
	switch {
	case movesToGo == 0:
		// Sudden death: an iteration begun just before the target may
		// run to the bound on every move, so keep the bound a fifth of
		// what is left; with little time left the engine then lives on
		// its increment.
		capped = usable / 5
	case mtg == 1:
		capped = usable * 4 / 5
	}
	hard = min(3*soft, capped)
	soft = min(soft, hard)
	return max(soft, minimum), max(hard, minimum)
}

// lagTracker learns the latency the GUI's clock sees but the engine does
// not: the time between the GUI starting the engine's clock and the
// engine reading go, and between the engine writing bestmove and the GUI
// stopping the clock (pipes, a loaded machine's scheduler). It compares
// the clock the GUI reports with the clock expected from the previous
// move: left(previous) - time spent + increment. The estimate follows a
// larger lag at once and decays by a quarter per move otherwise.
type lagTracker struct {
	have      bool
	maxLeft   time.Duration // the largest clock seen this game
	left, inc time.Duration // the previous move's clock and increment
	spent     time.Duration // the engine's own time for it, go to bestmove
	lag       time.Duration
}

// maxLag bounds the learnt lag.
const maxLag = 2 * time.Second

// observe is called at a go with a clock: left and inc for the side to
// move. It returns the lag to add to the move overhead.
func (l *lagTracker) observe(left, inc time.Duration) time.Duration {
	if l.have {
		missing := l.left - l.spent + l.inc - left
		// A time control that adds time, or another game, gives a
		// negative or absurd figure: ignore it.
		if missing >= 0 && missing <= maxLag {
			l.lag = max(l.lag*3/4, missing)
		}
	}
	l.have, l.left, l.inc, l.spent = true, left, inc, 0
	l.maxLeft = max(l.maxLeft, left)
	return l.lag
}

// floor is the part of the clock sudden death never plans to spend: a
// tenth of the largest clock seen this game, at most a second. A stall of
// the machine at the end of a long game then costs time, not the game.
func (l *lagTracker) floor() time.Duration { return min(time.Second, l.maxLeft/10) }

// moved records the engine's own time for the move observed last.
func (l *lagTracker) moved(spent time.Duration) { l.spent = spent }

// reset forgets the previous move and clock (a new game); the lag is kept.
func (l *lagTracker) reset() { l.have, l.maxLeft = false, 0 }
