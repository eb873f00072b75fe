package selfplay

import (
	"tamerlane/engine"
	"tamerlane/selfplay/elo"
)

// WhiteScore returns White's score of a game result as PGN writes it:
// 1 for "1-0", 0 for "0-1", 0.5 for "1/2-1/2", and false for any other
// (an unfinished game, "*"). It is the one reader of result strings: the
// journals, PGN files and data sets all go through it.
func WhiteScore(result string) (float64, bool) {
	switch result {
	case "1-0":
		return 1, true
	case "0-1":
		return 0, true
	case "1/2-1/2":
		return 0.5, true
	}
	return 0, false
}

// outcomeFor returns the outcome of a finished game's result for the
// given colour; a result that is not one (WhiteScore) counts as White's
// loss.
func outcomeFor(result string, c engine.Color) elo.Outcome {
	s, _ := WhiteScore(result)
	if c != engine.White {
		s = 1 - s
	}
	return elo.Outcome(2 * s)
}
