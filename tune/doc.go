// Package tune fits evaluation weights to self-play results. It reads the
// position data sets of one or more self-play run directories (package
// selfplay), turns every position into the engine's own feature vector
// (package engine/eval, so tuner and engine cannot drift), fits the
// weights by Texel's method (package tune/texel) or by the moves played
// (package tune/choice), reports the fit (tune.json) and exports eval
// tables the engine loads. Piece values, the tuned table's material
// weights among them, are package values' product.
//
// The prior that holds the fit near its starting table is either fixed
// (Config.PriorSD) or chosen by the held-out games (Config.Regularise, the
// default when the configuration sets neither):
// one fit per prior of a grid, from strong to none, each warm-started from
// the previous, scored by the validation error against the game results
// (see RegPoint). The sigmoid scale K is always fitted against the game
// results, so that lambda (the search-score blend) changes the target,
// not the scale.
//
// With MoveOptions (Config.Moves) the weights are fitted instead to the
// moves played in the games, with their results as a second term
// (package tune/choice, FitMoves): each legal move's child is resolved by
// the quiescence line and evaluated with the same feature code.
//
// A tuning run directory holds tune.json (every fit with its standard
// errors) and tables/<variant>.yaml (the fitted eval tables).
package tune
