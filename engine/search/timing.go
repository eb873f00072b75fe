package search

import (
	"time"

	"tamerlane/engine"
)

// Time management within one search (Limits.Optimum). After every
// completed iteration the optimum is scaled by what the iterations show,
// as Stockfish does: up when the score falls (against the previous
// move's search and against the iteration four back, which has the same
// parity), up when the best move changed in recent iterations, down when
// it has stood for many; the scaled target never exceeds the maximum
// (Limits.MoveTime). No new iteration starts once the search has used
// startFraction of the target: an iteration takes about as long as all
// before it together, so one begun later would end past the target.
const (
	startFraction = 0.6
	// fallingScale: each fallingScale centipawns of the two falls added
	// together add the optimum once more, up to fallingMax times it.
	fallingScale = 40
	fallingMax   = 2.5
	// stableStep: each iteration the best move has stood takes stableStep
	// of the optimum off, from stableMax down to stableMin.
	stableMax  = 1.1
	stableMin  = 0.6
	stableStep = 0.05
	// singleShare: with a single legal move there is nothing to decide;
	// the search only looks far enough to report a score.
	singleShare = 0.25
)

// timeManager is the state of a managed search's iterations.
type timeManager struct {
	optimum, maximum time.Duration
	single           bool // one legal move
	prevMove         int  // the final score of the same side's previous search
	havePrevMove     bool
	iterScores       [4]int // the last four iterations' scores, by depth mod 4
	changes          float64
	best             engine.Move
	bestSince        int // the iteration whose best move is best still
}

// newTimeManager starts managing a search of optimum and maximum (0: no
// maximum). prevMove, when havePrev, is the final score of the same
// side's previous search in the game.
func newTimeManager(optimum, maximum time.Duration, single bool, prevMove int, havePrev bool) *timeManager {
	return &timeManager{optimum: optimum, maximum: maximum, single: single, prevMove: prevMove, havePrevMove: havePrev}
}

// completed records iteration depth's best move and score (depths
// counted from 1) and returns the time after which no new iteration
// should start.
func (t *timeManager) completed(depth int, best engine.Move, score int) time.Duration {
	prev := score // without a previous move its term is 0
	if t.havePrevMove {
		prev = t.prevMove
	}
	if depth == 1 {
		t.iterScores = [4]int{prev, prev, prev, prev}
		t.best, t.bestSince = best, 1
	}
	t.changes /= 2
	if best != t.best {
		t.changes++
		t.best, t.bestSince = best, depth
	}
	earlier := t.iterScores[depth%4] // four iterations back
	t.iterScores[depth%4] = score
	f := fallingEval(prev, earlier, score) * stability(depth-t.bestSince) * instability(t.changes)
	target := time.Duration(float64(t.optimum) * f)
	if t.single {
		target = min(target, time.Duration(float64(t.optimum)*singleShare))
	}
	if t.maximum > 0 {
		target = min(target, t.maximum)
	}
	return time.Duration(float64(target) * startFraction)
}

// fallingEval is the factor for a score that fell from prevMove (the
// previous move's search) and from earlier (four iterations back): 1 if
// it did not fall, growing with the falls to fallingMax. Mate scores
// count as evalLimit.
func fallingEval(prevMove, earlier, score int) float64 {
	clip := func(x int) int { return max(-evalLimit, min(x, evalLimit)) }
	fall := clip(prevMove) - clip(score) + clip(earlier) - clip(score)
	return max(1, min(1+float64(fall)/fallingScale, fallingMax))
}

// stability is the factor for a best move that has stood for the given
// number of iterations after the one that found it: stableMax down to
// stableMin.
func stability(iterations int) float64 {
	return max(stableMin, stableMax-stableStep*float64(iterations))
}

// instability is the factor for changes, the best-move changes of recent
// iterations (each iteration halves the count): 1 plus the count.
func instability(changes float64) float64 { return 1 + changes }
