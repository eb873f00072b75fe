// Package engine holds the rules of every variant of the Tamerlane family and
// of the calibration variants (chess, shatranj, shako): a data-driven variant
// table, the position with make/unmake and an incremental Zobrist hash, legal
// move generation, FEN and move notation, game results and perft.
//
// The rules follow the project's docs/rules.md; tests cite its sections.
//
// Board geometry is a padded mailbox: every variant lives on a 17x17 array
// with three files and ranks of padding on every side, so that leaps of up
// to three squares never leave the array. Tamerlane's citadels are two of the
// padding squares (l2 and z9); they are reached only by royal king steps.
package engine
