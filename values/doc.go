// Package values measures piece values from games alone, by two
// independent methods that must agree, and compares them with the
// published figures of data/published.
//
// # Regression (the prior-free estimate)
//
// Every game is replayed through the rules engine. A position is a sample
// when it is at least MinPly plies into the game, the side to move is not
// in check, and no piece is captured or promoted in the game's next
// QuietPlies plies (the material of both sides is the same QuietPlies plies
// later): the material on the board is then the material the game goes on
// with. The decision uses the game's own continuation and the rules only,
// never an evaluation table. For sample i of game g with result r_g
// (White's score: 1, ½, 0), material differences d_i (White's count minus
// Black's count of every non-royal piece class; all pawn types form the
// one class P) and game phase φ_i ∈ [0, 1] (non-pawn, non-royal pieces on
// the board divided by their number in the start position, capped at 1),
// the model is
//
//	logit E[r | i] = α + s(φ_i)·Σ_j v_j·d_ij,   s(φ) = γ0 + γ1·φ,   v_P = 1.
//
// The piece values v_j are in pawns and do not depend on the phase; the
// logistic scale s(φ) absorbs that a pawn-sized advantage converts more
// surely in the endgame than in the middle game (without it the pawn, whose
// differences occur mostly in endgames, looks too valuable and every other
// piece too cheap); α is White's first-move advantage. Each game carries
// total weight 1 (sample weight 1/n_g), so long games do not outweigh
// short ones. θ = (α, γ0, γ1, v) maximises the quasi-likelihood
// Σ w_i [r_i ln p_i + (1−r_i) ln(1−p_i)] (a draw is half a win and half a
// loss) by Fisher scoring, started from the linear logistic fit; the
// covariance is the game-clustered sandwich A⁻¹BA⁻¹·G/(G−1) with
// A = Σ w p(1−p) J Jᵀ and B = Σ_g u_g u_gᵀ, u_g = Σ_{i∈g} w (r−p) J, where J
// is the gradient of the logit in θ. Intervals are v ± 1.96·SE.
//
// Nothing but the games enters: no starting table, no prior, no published
// figure. A piece class whose difference is non-zero in fewer than
// MinGames games is not identified and is reported without a value.
//
// # Imbalance matches (H.G. Muller's method)
//
// The planner (Plan) measures every named piece in matches where one side
// lacks the piece and the other lacks the pawns, or the already measured
// piece plus pawns, nearest the piece's current estimate, so that the
// match is close to even; a pawn-odds match fixes the scale of a pawn. A
// piece the array lacks (one that appears only by promotion) is measured
// through replacements (PlanConfig.Replace): one of the first side's
// pieces Y becomes the piece X and the same side gives up pawns or pieces
// worth about X minus Y, against the second side's whole array, and Y
// keeps playing its own matches while X does.
// Matches are played in rounds of BatchPairs game pairs; after every round
// the values are refitted (package tamerlane/values/imbalance) and a piece's
// matches stop when the 95% half-width of its value is at most its target
// (HalfWidth pawns, or with RelativeHalfWidth that fraction of its value
// when it is wider), its match reached MaxPairs pairs, or, with
// StopOutOfReach (stop_out_of_reach: true), after four rounds the
// half-width projected to MaxPairs pairs (shrinking as 1/sqrt(pairs)) is
// still more than 1.25 times the target: plan.json then marks the piece
// out_of_reach, and its value keeps the wider interval it has. A plan
// concluded by the user (tamerlane measure -conclude; PlanConfig.EndRound,
// recorded in the stage's conclude.json) plays no piece's matches from
// its end round on: plan.json marks the pieces it stopped concluded.
//
// Each piece is so measured by one chain of matches, and the fit is
// exactly identified: it cannot say whether the chain holds. With
// CheckPairs the planner ends with one check match per piece that has
// another route to its value (checkOpponent: material of other pieces
// than its own matches, R vs N+P beside R vs B+P), played for CheckPairs
// pairs and fitted with the rest, so that the matches overdetermine the
// values and imbalance.Consistency tests the additive model (the
// document's imbalance_consistency).
//
// # Agreement
//
// Per piece z = (v_regression − v_imbalance)/√(SE_r² + SE_i²); the two
// disagree at 95% when |z| > 1.96. The methods use disjoint games, so the
// standard errors combine as independent. A variant tests many pieces, so
// the document also counts the flags of each comparison against the 5%
// expected by chance and names the pieces that still disagree under
// Holm's step-down correction at a family-wise 5% (Disagreements).
package values
