// Package elo computes match statistics for chess-engine testing the way the
// usual reference tools do.
//
// Two kinds of sample are supported:
//
//   - [Trinomial]: win/draw/loss counts of individual games. Its [Trinomial.Elo]
//     reproduces cutechess-cli's "Elo difference: X +/- Y, LOS: Z %" line and
//     its [Trinomial.NormalizedElo] reproduces fastchess's trinomial nElo.
//   - [Pentanomial]: counts of game-pair scores, for matches played as pairs
//     of games with the same opening and colours reversed. Its
//     [Pentanomial.Elo] and [Pentanomial.NormalizedElo] reproduce fastchess's
//     "Elo:" and "nElo:" lines.
//
// [SPRT] implements the sequential probability ratio test with three models:
// fastchess's normalized-Elo and logistic-Elo generalized log-likelihood
// ratios (for both kinds of sample) and cutechess-cli's BayesElo model
// (trinomial samples only).
//
// Scores are always taken from the first player's point of view, and Elo
// differences are positive when the first player is stronger.
package elo
