// Package xboard is the engine's CECP (XBoard/WinBoard protocol version
// 2) server. XBoard knows chess ("normal") and shatranj; the other
// variants are shown with the setup command: a piece-to-char table that
// puts every piece type on an XBoard piece image, the board size, and the
// position in XBoard's letters. Citadels, which XBoard does not have, are
// shown on a board two files wider whose outer files are holes ('*')
// except for the two citadel squares. XBoard numbers the ranks of 10-rank
// boards from 0; moves are translated both ways. Variants whose pieces
// XBoard's Betza notation can describe (shako) also get piece commands,
// so that XBoard can test the legality of moves; for the Tamerlane
// variants XBoard's legality testing must be off.
package xboard
