// Package search is the game-tree search of every variant: iterative
// deepening over a principal variation search (alpha-beta with null
// windows) and a quiescence search, with the evaluation of package
// engine/eval.
//
// # Search
//
//   - Iterative deepening; each iteration searches every root move with a
//     full window for the first and null windows (re-searched on a fail
//     high) for the others. A stopped iteration counts only where a root
//     move beat the previous best line in full.
//   - Quiescence search: captures and promotions (and pawn-of-pawns lifts
//     onto enemy pieces) with a stand-pat; in check, every legal move
//     (swaps and successions included) and mate detection.
//   - Transposition table: a fixed number of 64-byte buckets of four
//     16-byte entries, a power of two; replace the same position, else the
//     least worth keeping (depth minus four per search of age); mate scores
//     stored relative to the node. No allocation per probe or store.
//   - Move ordering: hash move, captures by MVV-LVA with the eval table's
//     material weights (a royal capture, where several royals make it
//     legal, is valued at least royal.extra), promotions, two killers per
//     ply, history of quiet cutoffs. Ties are broken by the move code, so
//     the search does not depend on the order of move generation.
//   - Pruning and reductions: mate distance pruning, reverse futility
//     pruning at depth <= 3, late move reductions of quiet moves, and
//     null-move pruning (R = 3 + depth/6) only where it is safe: not in
//     check, not right after another null move, not at PV nodes, only if
//     the side to move has exactly one royal (with several, RULES.md 3.5,
//     royals may stand attacked and passing can lose one), and only with at
//     least one non-pawn, non-royal piece, or three in the variants where
//     stalemate loses (Tamerlane, shatranj: running out of moves is a loss
//     there, so zugzwang is real deep into the endgame).
//   - Check extension of one ply for moves that give check (while the path
//     is shorter than twice the iteration depth).
//   - An evaluation cache of 65536 entries indexed by the position hash.
//
// Moves are generated pseudo-legally (engine.Position.GeneratePseudo) and
// tested for legality only when tried (LastMoveLeftRoyalAttacked), except
// in check, where GenerateLegal gives the exact moves and the exchanges
// (RULES.md 2.4, 3.5). A node without any legal pseudo-legal move asks
// GenerateLegal again, which adds a swap where the rules allow one.
//
// # Game ends inside the tree
//
// Scores are centipawns for the side to move; MateScore-n is a forced win
// in n plies by any rule: checkmate, a stalemate where stalemate loses
// (RULES.md 3.6, 5.2), shatranj's bare King (decided by
// engine.Position.Outcome, only when a side is bare), the capture of a
// side's last royal. Draws score 0: a stalemate where it draws, a citadel
// entry (Position.CitadelDraw, RULES.md 3.1), the move-count rule (with
// mate taking precedence), orthodox insufficient material (at most one
// minor piece; the rarer same-coloured-bishops draw is left to the search),
// and any repetition of an earlier position of the game or the tree
// (Repetitions() >= 2 below the root).
//
// # Determinism and limits
//
// A Searcher is single-threaded and meant to be reused for the moves of one
// game. With Limits.Nodes and/or Limits.Depth only, the clock is never read
// for decisions, so a fresh searcher (or one after Clear) returns the same
// move, score and node count on any hardware. The searcher always returns
// a legal move if there is one, whatever the limits: before the first
// iteration completes, the best-ordered root move.
package search
