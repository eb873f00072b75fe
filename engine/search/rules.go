package search

import "tamerlane/engine"

// noMoves is the score of a side to move with no legal move (docs/rules.md
// 2.5, 3.6, 5): checkmated, or stalemated where stalemate loses, is a loss
// at this ply; otherwise stalemate draws.
func (s *Searcher) noMoves(ply int, inCheck bool) int {
	if inCheck || s.v.Stalemate == engine.StalemateLoses {
		return -MateScore + ply
	}
	return 0
}

// ruleEnd reports the end of the game by a rule other than the lack of
// moves at a node below the root, with the score for the side to move.
// Repetition: a position seen before (Repetitions() >= 2) is a draw.
func (s *Searcher) ruleEnd(ply int) (int, bool) {
	pos := s.pos
	if pos.CitadelDraw() {
		return 0, true
	}
	us := pos.SideToMove()
	if len(pos.Royals(us)) == 0 {
		return -MateScore + ply, true // all royals captured (docs/rules.md 3.5)
	}
	if s.v.BareKingLoses && (pos.Bare(us) || pos.Bare(us.Other())) {
		// Rare: let the rules decide (docs/rules.md 5.2).
		switch r, _ := pos.Outcome(); r {
		case engine.Draw:
			return 0, true
		case engine.WhiteWins, engine.BlackWins:
			if (r == engine.WhiteWins) == (us == engine.White) {
				return MateScore - ply, true
			}
			return -MateScore + ply, true
		}
	}
	if mr := s.v.MoveRule; mr > 0 && pos.HalfmoveClock() >= mr {
		ml := &s.moves[ply]
		pos.GenerateLegal(ml)
		if ml.N == 0 {
			return s.noMoves(ply, pos.InCheck()), true
		}
		return 0, true
	}
	if pos.InsufficientMaterial() {
		return 0, true
	}
	if pos.Repetitions() >= 2 {
		return 0, true
	}
	return 0, false
}

// evalCacheSize is the number of entries of the evaluation cache.
const evalCacheSize = 1 << 16

type evalEntry struct {
	key   uint64
	score int32
}

// evaluate returns the static evaluation (side to move), through a cache
// indexed by the position's hash.
func (s *Searcher) evaluate() int {
	key := s.pos.Hash()
	ce := &s.evalCache[key&(evalCacheSize-1)]
	if ce.key == key && key != 0 {
		return int(ce.score)
	}
	e := s.ev.Evaluate(s.pos)
	if e > evalLimit {
		e = evalLimit
	}
	if e < -evalLimit {
		e = -evalLimit
	}
	ce.key, ce.score = key, int32(e)
	return e
}
