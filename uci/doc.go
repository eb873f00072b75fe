// Package uci is the engine's UCI (Universal Chess Interface) server. It
// writes moves in the notation of package notation (Fairy-Stockfish's for
// the variants it also plays, docs/rules.md's coordinate form for the
// Tamerlane variants) and FENs as Fairy-Stockfish writes them.
//
// The server (NewServer, Server.Run) offers UCI_Variant with all eight
// variants and those of the variant files it was given (AddVariantFile,
// tamerlane uci --variant-file, or the option VariantFile, which loads a
// file and switches to its variant), Rules, Weights, Hash, Clear Hash and
// Move Overhead, and the
// commands uci, isready, ucinewgame, setoption, position, go (depth, nodes,
// movetime, clock and movestogo, infinite, mate, perft), stop, quit and d.
// The search, and a perft count, run on their own goroutine, so isready,
// stop and quit are answered while they run; the end of the input stops
// them. Bad input gets an "info string error" line and is otherwise
// ignored; a go left without a valid limit searches depth 1. The time
// on a clock comes from package timeman (the search scales its optimum,
// see search.Limits.Optimum); the server adds the clock latency its
// LagTracker learns to the move overhead.
package uci
