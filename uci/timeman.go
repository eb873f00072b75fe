package uci

import "time"

// Budget returns the time to spend on one move with left on the clock,
// an increment of inc per move and movesToGo moves until the next time
// control (0: the rest of the game). soft is the target (no new
// iteration of the search starts after it) and hard the bound at which
// the search stops; both leave overhead (process and pipe latency) and a
// reserve on the clock, so that hard never exceeds what is left.
//
// The target is an even share of the time left over the moves to go
// (assumed 30 in sudden death, at most 40 per control) plus three
// quarters of the increment; the bound is four targets, capped at half
// the usable time (80% on the last move before a control).
func Budget(left, inc time.Duration, movesToGo int, overhead time.Duration) (soft, hard time.Duration) {
	const minimum = time.Millisecond
	usable := left - overhead
	if usable < minimum {
		return minimum, minimum
	}
	mtg := 30
	if movesToGo > 0 {
		mtg = min(movesToGo, 40)
	}
	soft = usable/time.Duration(mtg) + inc*3/4
	capFrac := usable / 2
	if mtg == 1 {
		capFrac = usable * 4 / 5
	}
	hard = min(4*soft, capFrac)
	soft = min(soft, hard)
	return max(soft, minimum), max(hard, minimum)
}
