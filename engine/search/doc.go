// Package search is the game-tree search of every variant: iterative
// deepening over a principal variation search (alpha-beta with null
// windows) and a quiescence search, with the evaluation of package
// engine/eval.
//
// # Search
//
//   - Iterative deepening; from depth 4 each iteration starts with an
//     aspiration window of ±35 around the previous score, widened by half
//     on every failure (to the full window past ±1000). Each iteration
//     searches the first root move with the window and the others with
//     null windows (re-searched on a fail high); late quiet root moves
//     are first searched slightly reduced. A stopped iteration counts only
//     where a root move beat the previous best line in full.
//   - Quiescence search: captures and promotions (and pawn-of-pawns lifts
//     onto enemy pieces) with a stand-pat, skipping captures that lose
//     material by static exchange and captures that cannot bring the
//     score within 200 cp of alpha (delta pruning); in check, every legal
//     move (swaps and successions included) and mate detection. Its
//     results go to the transposition table as depth-0 entries, which can
//     never cut a main-search node.
//   - Static exchange evaluation (engine.Position.SEE) for every movement
//     kind of the variant table: leapers, sliders with minimum distances,
//     bent riders, cannons (hoppers), steps out of citadels; the attackers
//     are recomputed from the attack tables after each capture, so x-rays
//     and appearing or vanishing cannon screens need no special case.
//     Royals count at least 20000 cp (they do not recapture into a
//     defended square).
//   - Transposition table: a fixed number of 64-byte buckets of four
//     16-byte entries, a power of two; replace the same position, else the
//     least worth keeping (depth minus four per search of age); mate scores
//     stored relative to the node. No allocation per probe or store. A
//     table bound also refines the static evaluation of a node.
//   - Move ordering: hash move, captures and promotions that do not lose
//     by static exchange (MVV-LVA with the eval table's material weights,
//     plus the capture history: by the capturing piece's type and
//     destination and the captured type, a bonus for the capture that
//     raised alpha and a malus for the other captures tried, in
//     Stockfish 14's form with gravity toward ±10692; a royal capture,
//     where several royals make it legal, is valued at least
//     royal.extra; the exchange of a capture of a cheaper piece is
//     computed only when the capture's turn comes), two killers per ply,
//     the counter move of the opponent's last move, quiet moves by
//     history (history.go, in Stockfish 14's form): the butterfly table
//     (side, origin, destination) plus the continuation history after the
//     moves 1 (counted twice), 2, 4 and 6 plies back (by the piece type
//     and destination of both moves), then losing captures. When a node finds
//     a move above alpha, a quiet best move gets a bonus of 6d²+229d−215
//     (73 above depth 14), the quiet moves tried before it the same malus,
//     and an early quiet move of the opponent that it refutes a malus; when
//     a node fails low the opponent's move that led to it gets a bonus.
//     Entries move with gravity toward ±13365 (butterfly) and ±29952.
//     Ties are broken by the move code, so the search does not depend on
//     the order of move generation.
//   - Pruning at non-PV nodes out of check (never while a shorter mate is
//     sought, alpha >= MateBound): reverse futility (static minus 90 cp
//     per ply, less when improving, at depth <= 6), razoring (depth <= 3,
//     static + 250 cp per ply below alpha: the quiescence search decides),
//     late-move pruning of quiet moves ((3+depth²)/2, twice as many when
//     improving, depth <= 6), continuation history pruning (both entries
//     after the last two moves negative, reduced depth below 5), futility
//     pruning of quiet non-checking moves (static + 100 + 100·depth <=
//     alpha, depth <= 6), and SEE pruning of quiet moves (losing more
//     than 60·depth² cp) and captures (losing more than 100·depth cp).
//     None of the quiet-move prunings skips a check: a quiet move they
//     would prune is made, and searched if it gives check (Stockfish
//     spares checks from all but late-move pruning; sparing them there
//     too finds mates in two that the late-move pruning hid at depth 7).
//     "Improving": the static evaluation rose since the side's previous
//     move.
//   - Null-move pruning (R = 3 + depth/4 + up to 3 more for a static
//     evaluation far above beta) only where it is safe: not in check, not
//     right after another null move, not at PV nodes, only if the side to
//     move has exactly one royal (with several, docs/rules.md 3.5, royals may
//     stand attacked and passing can lose one), and only with at least one
//     non-pawn, non-royal piece, or three in the variants where stalemate
//     loses (Tamerlane, shatranj: running out of moves is a loss there, so
//     zugzwang is real deep into the endgame). There, and at depth 10 or
//     more everywhere, a null-move cutoff is verified by a reduced search
//     of the node itself without a null move.
//   - Late move reductions: log formula 0.75 + ln(depth)·ln(moves)/2.25
//     for quiet moves, one ply more when not improving, one less at PV
//     nodes and for killers and the counter move, adjusted by history
//     (out of check: butterfly plus continuation 1, 2 and 4 plies back,
//     minus 4923, one ply per 14721; a reduced quiet move that fails high
//     is searched again and its continuation entries follow the result);
//     losing captures are reduced one ply. Internal
//     iterative reduction: a node of depth >= 4 without a hash move is
//     searched one ply shallower. Mate distance pruning.
//   - Check extension of one ply for moves that give check (while the path
//     is shorter than twice the iteration depth).
//   - An evaluation cache of 65536 entries indexed by the position hash.
//
// Moves are generated pseudo-legally (engine.Position.GeneratePseudo) and
// tested for legality only when tried (LastMoveLeftRoyalAttacked), except
// in check, where GenerateLegal gives the exact moves and the exchanges
// (docs/rules.md 2.4, 3.5). A node without any legal pseudo-legal move asks
// GenerateLegal again, which adds a swap where the rules allow one.
//
// # Game ends inside the tree
//
// Scores are centipawns for the side to move; MateScore-n is a forced win
// in n plies by any rule: checkmate, a stalemate where stalemate loses
// (docs/rules.md 3.6, 5.2), shatranj's bare King (decided by
// engine.Position.Outcome, only when a side is bare), the capture of a
// side's last royal. Draws score 0: a stalemate where it draws, a citadel
// entry (Position.CitadelDraw, docs/rules.md 3.1), the move-count rule (with
// mate taking precedence), orthodox insufficient material
// (engine.Position.InsufficientMaterial, the game's own definition),
// and any repetition of an earlier position of the game or the tree
// (Repetitions() >= 2 below the root).
//
// # Determinism and limits
//
// A node is a move made in the tree (at the root, in the main search once
// legal and not pruned, in the quiescence search), as Stockfish and
// Fairy-Stockfish count them, so that a node limit means the same work in
// both engines: null moves, re-searches of a move already made and
// razoring's quiescence call count nothing of their own.
//
// A Searcher is single-threaded and meant to be reused for the moves of one
// game. With Limits.Nodes and/or Limits.Depth only, the clock is never read
// for decisions, so a fresh searcher (or one after Clear) returns the same
// move, score and node count on any hardware. The searcher always returns
// a legal move if there is one, whatever the limits: before the first
// iteration completes, the best-ordered root move.
package search
