// Package texel fits the weights of a linear evaluation function to game
// results ("Texel tuning").
//
// # Model
//
// The engine's static evaluation is linear in its weights:
//
//	eval(x) = Σ_j w_j · x_j
//
// where x is a sparse feature vector (game-phase tapering is already folded
// into the feature values) and eval is in centipawns from White's point of
// view. An evaluation is turned into an expected score for White with the
// Texel sigmoid
//
//	σ_K(e) = 1 / (1 + 10^(−K·e/400))
//
// so that with K = 1 an advantage of 400 cp corresponds to odds of 10:1, the
// Elo convention. K is a free scale parameter.
//
// # Loss
//
// For N samples with results r_i ∈ {0, ½, 1} (White's view), search scores
// s_i (cp, White's view) and sample weights c_i (1 unless bootstrapping), the
// loss is the weighted mean squared error plus an optional ridge prior:
//
//	t_i  = (1−λ)·r_i + λ·σ_K(s_i)                 (λ = Config.Lambda, default 0)
//	L(w) = (1/C)·Σ_i c_i·(t_i − σ_K(e_i))²  +  (P/C)·Σ_j s_j²·(w_j − μ_j)²
//
// with C = Σ_i c_i, P = Config.Prior, μ = Config.Center (zero when nil)
// and s = Config.PriorScale (all 1 when nil).
// Dividing the prior by C makes P a pseudo-count: the prior weighs as much
// as P samples whose residual moves by one unit per unit of weight, so its
// influence fades as the data set grows, as a Bayesian prior's should.
//
// # Identifiability
//
// K and the overall value scale are not separately identifiable: only the
// products K·w_j enter the model. The intended workflow is to fix K first
// (Evaluator.FitK with the engine's current weights, so that a centipawn
// keeps its meaning) and then fit the weights with K held fixed
// (Evaluator.Fit). Alternatively one weight (say the pawn) can be frozen
// with Options.Frozen and K fitted afterwards; freezing a weight and fixing
// K at the same time over-constrains the problem.
//
// # Uncertainty
//
// Evaluator.StdErrors gives standard errors from the Gauss–Newton
// approximation A = Σ c_i p'_i² x_i x_iᵀ (+ P·S², S = diag(PriorScale)) of the Hessian of the
// summed loss, either with the classical least-squares estimate
// σ̂²·A⁻¹ or with the game-clustered sandwich A⁻¹·B·A⁻¹ (see SEMethod).
// Evaluator.Bootstrap resamples whole games with replacement instead. In
// both cases the 95 % interval is w ± 1.96·SE.
package texel
