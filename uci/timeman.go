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
// 40) keep a reserve of overhead each, less what their increments repay.
// The target is an even share of the usable time plus three quarters of
// the increment; the bound is four targets, capped at half the usable
// time (80% on the last move before a control), so that even a search
// that always ran to its bound would not lose on time.
func Budget(left, inc time.Duration, movesToGo int, overhead time.Duration) (soft, hard time.Duration) {
	const minimum = time.Millisecond
	mtg := 30
	if movesToGo > 0 {
		mtg = min(movesToGo, 40)
	}
	reserve := overhead + time.Duration(mtg-1)*max(0, overhead-inc)
	usable := left - reserve
	if usable < minimum {
		return minimum, minimum
	}
	soft = usable/time.Duration(mtg) + inc*3/4
	capped := usable / 2
	if mtg == 1 {
		capped = usable * 4 / 5
	}
	hard = min(4*soft, capped)
	soft = min(soft, hard)
	return max(soft, minimum), max(hard, minimum)
}
