package search

import "tamerlane/engine"

// Pruning margins (centipawns) and limits.
const (
	rfpMargin      = 90  // reverse futility: per ply of depth
	rfpDepth       = 6   // reverse futility up to this depth
	futilityBase   = 100 // futility: static + base + margin*depth <= alpha
	futilityMargin = 100
	futilityDepth  = 6
	lmpDepth       = 6   // late-move pruning up to this depth
	seeQuietMargin = -60 // quiet moves losing more than this per ply of depth are pruned
	seeCapMargin   = -100
	deltaMargin    = 200 // quiescence delta pruning
	nullDepth      = 3
	razorDepth     = 3
	razorMargin    = 250
	iirDepth       = 4
)

// search is the principal variation search at a node below the root.
func (s *Searcher) search(depth, ply int, alpha, beta int, pvNode bool) int {
	s.pvLen[ply] = ply
	s.selDepth = max(s.selDepth, ply)
	if score, over := s.ruleEnd(ply); over {
		return score
	}
	if depth <= 0 {
		return s.quiesce(ply, alpha, beta)
	}
	if s.stop {
		return 0
	}
	pos := s.pos
	if ply >= MaxPly {
		return s.evaluate()
	}
	// Mate distance pruning.
	if a := -MateScore + ply; alpha < a {
		alpha = a
	}
	if b := MateScore - ply - 1; beta > b {
		beta = b
	}
	if alpha >= beta {
		return alpha
	}

	key := pos.Hash()
	inCheck := pos.InCheck()
	s.plies[ply].inCheck = inCheck
	var ttMove engine.Move
	ttHit := false
	ttScore, ttDepth, ttBound := 0, 0, boundNone
	if e := s.tt.probe(key); e != nil {
		ttHit = true
		ttMove = e.move
		ttScore, ttDepth, ttBound = scoreFromTT(int(e.score), ply), int(e.depth), e.flags&3
		if !pvNode && ttDepth >= depth && cuts(ttScore, ttBound, alpha, beta) {
			if ttMove != engine.NullMove && !pos.IsCapture(ttMove) && ttMove.Kind() != engine.KindPromotion {
				if ttScore >= beta {
					s.updateQuietStats(ply, ttMove, statBonus(depth))
					if s.plies[ply-1].moveCount <= 2 {
						s.updatePrior(ply, -statBonus(depth+1))
					}
				} else {
					s.penaliseQuiet(ply, ttMove, statBonus(depth))
				}
			}
			return ttScore
		}
	}
	s.plies[ply].ttHit = ttHit
	static := -infinity
	improving := false
	if !inCheck {
		static = s.evaluate()
		s.staticAt[ply] = static
		// The table's bound refines the static evaluation.
		if ttHit && abs(ttScore) < MateBound &&
			(ttBound == boundLower && ttScore > static || ttBound == boundUpper && ttScore < static) {
			static = ttScore
		}
		improving = ply < 2 || s.staticAt[ply-2] == -infinity || s.staticAt[ply] > s.staticAt[ply-2]
	} else {
		s.staticAt[ply] = -infinity
	}
	s.killers[ply+1] = [2]engine.Move{}
	us := pos.SideToMove()
	if !pvNode && !inCheck && abs(beta) < MateBound {
		// Reverse futility pruning (static null move).
		if depth <= rfpDepth {
			margin := rfpMargin * depth
			if improving {
				margin -= rfpMargin / 2
			}
			if static-margin >= beta {
				return static
			}
		}
		// Razoring: far below alpha at shallow depth, only captures can
		// help; ask the quiescence search.
		if depth <= razorDepth && static+razorMargin*depth <= alpha {
			if v := s.quiesce(ply, alpha-1, alpha); v < alpha || s.stop {
				return v
			}
		}
		// Null-move pruning: not right after a null move, with a single
		// royal (docs/rules.md 3.5: with several, passing can leave a royal to
		// be taken), and enough non-pawn pieces (nullMin: more where
		// stalemate loses, since zugzwang is real there). Deep null
		// moves that fail high are verified by a reduced search without
		// null moves at this ply.
		if depth >= nullDepth && static >= beta && !s.nullAt[ply-1] && !s.verifying[ply] && len(pos.Royals(us)) == 1 &&
			pos.NonPawnCount(us) >= s.nullMin {
			r := 3 + depth/4 + min(3, (static-beta)/200)
			pos.MakeNull()
			s.plies[ply].played(noKey, engine.NullMove, false, 0)
			s.nullAt[ply] = true
			score := -s.search(depth-1-r, ply+1, -beta, -beta+1, false)
			s.nullAt[ply] = false
			pos.UnmakeNull()
			if s.stop {
				return 0
			}
			if score >= beta {
				if score >= MateBound {
					score = beta
				}
				if depth < 10 && !s.verifyNull {
					return score
				}
				s.verifying[ply] = true // no null move at this node in the verification
				v := s.search(depth-1-r, ply, beta-1, beta, false)
				s.verifying[ply] = false
				if s.stop {
					return 0
				}
				if v >= beta {
					return score
				}
			}
		}
	}
	// Internal iterative reduction: a node without a hash move is
	// searched one ply shallower.
	if depth >= iirDepth && ttMove == engine.NullMove {
		depth--
	}

	ml := &s.moves[ply]
	full := inCheck // GenerateLegal: exact moves, exchanges included
	if full {
		pos.GenerateLegal(ml)
	} else {
		ml.N = 0 // GeneratePseudo appends
		pos.GeneratePseudo(ml)
	}
	counter := s.counterMove()
	s.scoreMoves(ml, ply, ttMove)
	qt := s.quietTables(ply)
	origAlpha := alpha
	best := -infinity
	bestMove := engine.NullMove
	legal := 0
	quietsTried := s.quietsTried[ply][:0]
	capturesTried := s.capturesTried[ply][:0]
	lmpLimit := (3 + depth*depth) / 2
	if improving {
		lmpLimit = 3 + depth*depth
	}
	skipQuiets := false
	// pins prove most moves legal without Make; computed from the
	// second move on (one test after Make costs about as much)
	var pins engine.Pins
	pinsDone := false
	var filter engine.CheckFilter
	filterDone := false
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < ml.N; i++ {
			m := s.pick(ml, ply, i)
			capture := pos.IsCapture(m)
			quiet := !capture && m.Kind() != engine.KindPromotion
			mkey := s.moveKey(m)
			// The shallow pruning of quiet moves (late-move, continuation
			// history and exchange pruning) spares checks: a pruned quiet
			// move is made, and searched after all if it gives check, so
			// that a mating check late in the move list is not lost.
			// (Stockfish spares checks from the last two only.) Killers
			// and the counter move are never pruned.
			killer := quiet && s.isKiller(ply, m, counter)
			pruneUnlessCheck := quiet && skipQuiets && !killer
			// Shallow pruning of moves that cannot raise alpha, once a
			// move is in (never at PV nodes, in check or near mates).
			if !pruneUnlessCheck && !pvNode && !inCheck && legal > 0 && best > -MateBound && alpha < MateBound {
				if quiet && !killer {
					if depth <= lmpDepth && legal >= lmpLimit {
						skipQuiets = true
						pruneUnlessCheck = true
					} else {
						lmrDepth := max(depth-1-int(s.lmr[min(depth, 63)][min(legal+1, 63)]), 0)
						pruneUnlessCheck = lmrDepth < contPruneDepth && qt.c1[mkey] < 0 && qt.c2[mkey] < 0 ||
							depth <= 6 && int(pos.SEE(m, s.seeVal)) < seeQuietMargin*depth*depth
					}
				}
				if capture && depth <= 4 && s.scores[ply][i] < 0 && int(pos.SEE(m, s.seeVal)) < seeCapMargin*depth {
					continue
				}
			}
			// The history of a searched quiet move adjusts its reduction.
			var stat int32
			if quiet && !pruneUnlessCheck {
				stat = qt.stat(&s.hist, m, mkey)
			}
			// A pruned move is searched only if it gives check: that is
			// asked first (without making the move when the check filter
			// rules a check out), and its legality only then.
			if pruneUnlessCheck {
				if !filterDone {
					filter, filterDone = s.zones.Filter(pos), true
				}
				if !filter.MayGiveCheck(m) {
					continue
				}
			}
			safe := full
			if !safe && i > 0 && !pruneUnlessCheck {
				if !pinsDone {
					pins, pinsDone = pos.Pins(), true
				}
				safe = pins.Safe(pos, m)
			}
			pos.Make(m)
			givesCheck := pos.InCheck()
			if pruneUnlessCheck && !givesCheck || !safe && pos.LastMoveLeftRoyalAttacked() {
				pos.Unmake()
				continue
			}
			legal++
			s.plies[ply].played(mkey, m, !quiet, legal)
			// Futility pruning of quiet moves at shallow depth.
			if quiet && !pvNode && !inCheck && !givesCheck && legal > 1 && depth <= futilityDepth &&
				best > -MateBound && alpha < MateBound && static+futilityBase+futilityMargin*depth <= alpha {
				pos.Unmake()
				skipQuiets = true
				continue
			}
			s.tick()
			newDepth := depth - 1
			if givesCheck && ply < 2*s.rootDepth {
				newDepth++
			}
			if quiet {
				quietsTried = append(quietsTried, m)
			} else if capture {
				capturesTried = append(capturesTried, m)
			}
			var score int
			if legal == 1 {
				score = -s.search(newDepth, ply+1, -beta, -alpha, pvNode)
			} else {
				r := 0
				if depth >= 3 && legal > 1+b2i(pvNode) && !givesCheck {
					if quiet {
						r = int(s.lmr[min(depth, 63)][min(legal, 63)])
						if !improving {
							r++
						}
						if pvNode {
							r--
						}
						if killer {
							r--
						}
						if !inCheck {
							r -= int(stat) / statPerPly
						}
					} else if s.scores[ply][i] < 0 { // bad capture
						r = 1
					}
					r = max(0, min(r, newDepth-1))
				}
				score = -s.search(newDepth-r, ply+1, -alpha-1, -alpha, false)
				if score > alpha && r > 0 && !s.stop {
					score = -s.search(newDepth, ply+1, -alpha-1, -alpha, false)
					if quiet && !s.stop {
						b := statBonus(newDepth)
						if score <= alpha {
							b = -b
						}
						s.updateCont(ply, mkey, b)
					}
				}
				if score > alpha && score < beta && pvNode && !s.stop {
					score = -s.search(newDepth, ply+1, -beta, -alpha, true)
				}
			}
			pos.Unmake()
			if s.stop {
				return 0
			}
			if score > best {
				best, bestMove = score, m
				if score > alpha {
					alpha = score
					if pvNode {
						s.updatePV(ply, m)
					}
					if alpha >= beta {
						break
					}
				}
			}
		}
		// Without another legal move, a swap may still be legal
		// (docs/rules.md 3.5): GenerateLegal adds the exchanges.
		if legal > 0 || full || !s.exchange {
			break
		}
		pos.GenerateLegal(ml)
		full = true
		s.scoreMoves(ml, ply, engine.NullMove)
	}
	s.quietsTried[ply], s.capturesTried[ply] = quietsTried[:0], capturesTried[:0]
	if legal == 0 {
		return s.noMoves(ply, inCheck)
	}
	if best > origAlpha {
		s.updateAllStats(ply, bestMove, best, beta, depth, quietsTried, capturesTried)
	} else if depth >= 3 || pvNode {
		s.updatePrior(ply, statBonus(depth))
	}
	bound := boundOf(best, origAlpha, beta)
	if bound == boundUpper {
		bestMove = engine.NullMove
	}
	s.tt.store(key, bestMove, scoreToTT(best, ply), depth, bound)
	return best
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// quiesce searches captures and promotions until the position is quiet;
// in check it searches every legal move (exchanges included). Captures
// that lose material by static exchange, and captures that cannot lift
// the score near alpha (delta pruning), are skipped.
func (s *Searcher) quiesce(ply int, alpha, beta int) int {
	s.pvLen[ply] = ply
	s.selDepth = max(s.selDepth, ply)
	if s.stop {
		return 0
	}
	pos := s.pos
	if pos.CitadelDraw() {
		return 0
	}
	if len(pos.Royals(pos.SideToMove())) == 0 {
		return -MateScore + ply
	}
	if ply >= MaxPly {
		return s.evaluate()
	}
	key := pos.Hash()
	// No table cutoffs for QuiescenceLine, whose line must stay whole.
	if e := s.tt.probe(key); e != nil && !s.lineOnly {
		if sc := scoreFromTT(int(e.score), ply); cuts(sc, e.flags&3, alpha, beta) {
			return sc
		}
	}
	origAlpha := alpha
	ml := &s.moves[ply]
	// In check every legal move is searched; otherwise the side may stand
	// pat, and only captures and promotions (pseudo-legal, checked after
	// Make) are searched.
	var best, stand int
	pseudo := !pos.InCheck()
	if !pseudo {
		pos.GenerateLegal(ml)
		if ml.N == 0 {
			return -MateScore + ply
		}
		best = -infinity
	} else {
		stand = s.evaluate()
		if stand >= beta {
			s.tt.store(key, engine.NullMove, scoreToTT(stand, ply), 0, boundLower)
			return stand
		}
		if stand > alpha {
			alpha = stand
		}
		best = stand
		ml.N = 0 // GenerateCaptures appends
		pos.GenerateCaptures(ml)
	}
	s.scoreMoves(ml, ply, engine.NullMove)
	var pins engine.Pins
	pinsDone := false
	for i := 0; i < ml.N; i++ {
		m := s.pick(ml, ply, i)
		if pseudo {
			if s.scores[ply][i] < 0 {
				continue // loses material by static exchange
			}
			if m.Kind() != engine.KindPromotion && stand+int(s.victimValue(m))+deltaMargin <= alpha {
				continue
			}
		}
		// Record the move for the continuation history that orders the
		// evasions of a check it gives.
		s.plies[ply].played(s.moveKey(m), m, pseudo || pos.IsCapture(m) || m.Kind() == engine.KindPromotion, i+1)
		safe := !pseudo
		if !safe && i > 0 {
			if !pinsDone {
				pins, pinsDone = pos.Pins(), true
			}
			safe = pins.Safe(pos, m)
		}
		pos.Make(m)
		if !safe && pos.LastMoveLeftRoyalAttacked() {
			pos.Unmake()
			continue
		}
		s.tick()
		score := -s.quiesce(ply+1, -beta, -alpha)
		pos.Unmake()
		if s.stop {
			return 0
		}
		if score > best {
			best = score
			if score > alpha {
				alpha = score
				s.updatePV(ply, m)
				if alpha >= beta {
					break
				}
			}
		}
	}
	s.tt.store(key, engine.NullMove, scoreToTT(best, ply), 0, boundOf(best, origAlpha, beta))
	return best
}
