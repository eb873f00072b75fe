package engine

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// NewPosition returns the variant's start position.
func NewPosition(v *Variant) *Position {
	p, err := ParseFEN(v, v.StartFEN)
	if err != nil {
		panic(fmt.Sprintf("variant %s: bad start FEN: %v", v.Name, err))
	}
	return p
}

// FENError is a malformed FEN: it names the field and, where it applies,
// the character position within the FEN.
type FENError struct {
	FEN   string
	Field string
	Pos   int // byte offset in FEN, -1 if not applicable; Error counts characters
	Msg   string
}

// maxEcho bounds how much of an input (a FEN, a rules string, a variant
// name) an error message repeats.
const maxEcho = 120

// Error formats the mistake; a FEN longer than maxEcho bytes is cut,
// with its length given, so that a huge input does not flood the message.
func (e *FENError) Error() string {
	fen := quoteClipped(e.FEN, maxEcho)
	if e.Pos >= 0 && e.Pos <= len(e.FEN) {
		// The position a reader counts: characters, not bytes (♚ is three).
		return fmt.Sprintf("fen %s: %s field, at character %d: %s", fen, e.Field, utf8.RuneCountInString(e.FEN[:e.Pos])+1, e.Msg)
	}
	return fmt.Sprintf("fen %s: %s field: %s", fen, e.Field, e.Msg)
}

// quoteClipped quotes s for an error message. A string longer than max
// bytes is cut, at a character boundary, and its length in bytes given,
// so that a huge input does not flood the message.
func quoteClipped(s string, max int) string {
	if len(s) <= max {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%q... (%d bytes)", s[:cutAt(s, max)], len(s))
}

// clipped is quoteClipped without the quotes, for a value written as it
// was given (an option's k=v).
func clipped(s string, max int) string {
	if len(s) <= max {
		return s
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:cutAt(s, max)], len(s))
}

// cutAt returns the largest length of at most max bytes at which s can
// be cut between two characters.
func cutAt(s string, max int) int {
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return cut
}

// maxFENCounter bounds the halfmove and fullmove fields so that the clocks
// cannot overflow (and FEN() gives back what was parsed).
const maxFENCounter = 1 << 30

// ParseFEN parses a FEN in the variant's notation (docs/rules.md 2.6, 3.1, 3.7,
// 5). The halfmove and fullmove fields may be omitted. A position that no
// game can reach is refused with the field and the reason: a side without
// a royal piece, two Kings where the variant has one, a piece on the
// square where it must have promoted, a right whose pieces have moved, a
// waiting pawn of pawns that the arrivals field contradicts, the side not
// to move in check.
func ParseFEN(v *Variant, fen string) (*Position, error) {
	return parseFEN(v, fen, true)
}

// parseFEN parses a FEN; checked adds the setup checks of ParseFEN (the
// rules tests set up single pieces on empty boards without them).
func parseFEN(v *Variant, fen string, checked bool) (*Position, error) {
	p := &Position{v: v, st: make([]state, 1, 256)}
	p.board = v.c.empty
	fail := func(field string, pos int, format string, a ...any) (*Position, error) {
		return nil, &FENError{FEN: fen, Field: field, Pos: pos, Msg: fmt.Sprintf(format, a...)}
	}
	fields := strings.Fields(fen)
	if len(fields) < 4 {
		return fail("fen", -1, "want at least 4 fields (placement, side, %s, %s), got %d", rightsName(v), fourthName(v), len(fields))
	}
	if len(fields) > 6 {
		return fail("fen", -1, "want at most 6 fields, got %d", len(fields))
	}
	// Offsets of the fields for error positions.
	offs := make([]int, len(fields))
	at := 0
	for i, f := range fields {
		at += strings.Index(fen[at:], f)
		offs[i] = at
		at += len(f)
	}
	if err := p.parsePlacement(fields[0], func(pos int, msg string) error {
		return &FENError{FEN: fen, Field: "placement", Pos: pos, Msg: msg}
	}); err != nil {
		return nil, err
	}
	switch fields[1] {
	case "w":
		p.side = White
	case "b":
		p.side = Black
	default:
		return fail("side", offs[1], "want w or b, got %q", fields[1])
	}
	st := p.cur()
	if fields[2] != "-" {
		for i := 0; i < len(fields[2]); i++ {
			ch := fields[2][i]
			bit := -1
			for j, r := range v.Rights {
				if r.Char == ch {
					bit = j
				}
			}
			if bit < 0 {
				return fail(rightsName(v), offs[2]+i, "unexpected %s", charAt(fields[2], i))
			}
			if st.rights&(1<<bit) != 0 {
				return fail(rightsName(v), offs[2]+i, "%q given twice", ch)
			}
			st.rights |= 1 << bit
		}
	}
	if v.PawnOfPawns {
		f := fields[3]
		if len(f) != 2 || f[0] < '0' || f[0] > '2' || f[1] < '0' || f[1] > '2' {
			return fail("pawnofpawns", offs[3], "want two digits 0-2, got %q", f)
		}
		st.pp = [2]uint8{f[0] - '0', f[1] - '0'}
	} else if fields[3] != "-" {
		s, err := v.ParseSquare(fields[3])
		if err != nil || !v.OnBoard(s) {
			return fail("en passant", offs[3], "bad square %q", fields[3])
		}
		if p.board[s] != Empty {
			return fail("en passant", offs[3], "square %s is occupied", fields[3])
		}
		if !p.doubleSteppedPast(s, p.side.Other()) {
			return fail("en passant", offs[3], "no %s pawn has just double-stepped past %s", p.side.Other(), fields[3])
		}
		// As after Make, the square counts only while a pawn can capture
		// there; otherwise the position equals the one without it (same
		// hash, FEN "-").
		if p.epCapturable(s, p.side) {
			st.ep = s
		}
	}
	st.rule50, p.ply = 0, 0
	if len(fields) > 4 {
		n, err := strconv.Atoi(fields[4])
		if err != nil || n < 0 || n > maxFENCounter {
			return fail("halfmove", offs[4], "want an integer from 0 to %d, got %q", maxFENCounter, fields[4])
		}
		st.rule50 = int32(n)
	}
	full := 1
	if len(fields) > 5 {
		n, err := strconv.Atoi(fields[5])
		if err != nil || n < 0 || n > maxFENCounter {
			return fail("fullmove", offs[5], "want an integer from 0 to %d, got %q", maxFENCounter, fields[5])
		}
		full = n
	}
	if full < 1 {
		full = 1
	}
	p.ply = 2*(full-1) + int(p.side)
	// Waiting pawns of pawns (docs/rules.md 3.4.1) and citadel entries.
	for col := White; col <= Black; col++ {
		if st.pp[col] == 1 {
			for _, s := range p.Pieces(col) {
				if g := &v.c.gen[p.board[s]&0x7f]; g.promo == PromotePawnOfPawns && v.c.lastRank[col][s] {
					st.waiting[col] = s
				}
			}
		}
		for _, s := range p.Royals(col) {
			if v.c.citBit[s] != 0 && v.c.citOwner[s] != col {
				st.citadel = true
			}
		}
	}
	if e := p.validateSetup(); checked && e != nil {
		return fail(e.field, -1, "%s", e.msg)
	}
	// Refuse material whose moves could overflow a MoveList, now or after
	// any sequence of moves (material only shrinks or promotes).
	for col := White; col <= Black; col++ {
		n := len(v.Castling) + 2 + p.count[col] // castling, en passant, exchanges
		if v.PawnOfPawns {
			n += len(v.c.onBoard) // lifts
		}
		for _, s := range p.Pieces(col) {
			n += v.c.moveBound[p.board[s]&0x7f]
		}
		if n > MaxMoves {
			return fail("placement", -1, "%s's pieces could have up to %d moves, more than the engine's limit of %d", col, n, MaxMoves)
		}
	}
	st.hash = p.computeHash()
	return p, nil
}

// doubleSteppedPast reports whether a pawn of side c stands just beyond the
// en passant square s, having come by an en passant double step from the
// empty square on the other side of s.
func (p *Position) doubleSteppedPast(s Square, c Color) bool {
	pc, origin := p.board[s+forward(c)], s-forward(c)
	if pc == Empty || pc&0x80 != 0 || pc.Color() != c || p.board[origin] != Empty {
		return false
	}
	for _, d := range p.v.c.gen[pc].doubles {
		if d.ep && d.fromRank == origin.Rank() {
			return true
		}
	}
	return false
}

func rightsName(v *Variant) string {
	switch v.RightsField {
	case RightsCastling:
		return "castling"
	case RightsPrinces:
		return "princes"
	case RightsSwaps:
		return "swaps"
	}
	return "rights"
}

func fourthName(v *Variant) string {
	if v.PawnOfPawns {
		return "pawnofpawns"
	}
	return "en passant"
}

func (p *Position) parsePlacement(s string, errAt func(int, string) error) error {
	v := p.v
	ranks := strings.Split(s, "/")
	if len(ranks) != v.Ranks {
		return errAt(0, fmt.Sprintf("want %d ranks, got %d", v.Ranks, len(ranks)))
	}
	off := 0
	for ri, rs := range ranks {
		rank := v.Ranks - 1 - ri
		file := 0
		for i := 0; i < len(rs); {
			ch := rs[i]
			pos := off + i
			switch {
			case ch >= '0' && ch <= '9':
				// Count digit by digit and stop as soon as the count runs
				// past the rank: a huge count must not wrap around and
				// stack the pieces that follow on squares already used.
				j, n := i, 0
				for ; j < len(rs) && rs[j] >= '0' && rs[j] <= '9'; j++ {
					if n <= v.Files {
						n = 10*n + int(rs[j]-'0')
					}
				}
				switch {
				case n == 0:
					return errAt(pos, "empty-square count 0")
				case n > v.Files-file:
					return errAt(pos, fmt.Sprintf("empty-square count %s runs past rank %d's %d files (%d left)", quoteClipped(rs[i:j], 24), rank+1, v.Files, v.Files-file))
				}
				file += n
				i = j
			case ch == '[':
				end := strings.IndexByte(rs[i:], ']')
				if end < 0 {
					return errAt(pos, "unclosed '['")
				}
				tok := rs[i+1 : i+end]
				cf := file
				if file == 0 && i == 0 {
					cf = -1
				}
				sq := SquareAt(cf, rank)
				if cf >= 0 && cf != v.Files || !v.IsCitadel(sq) {
					return errAt(pos, fmt.Sprintf("no citadel at %s", sq))
				}
				pc, ok := p.pieceOfToken(tok)
				if !ok {
					return errAt(pos+1, fmt.Sprintf("unknown piece %q", tok))
				}
				if !v.c.gen[pc].royal {
					return errAt(pos+1, fmt.Sprintf("only a royal piece may stand in a citadel, not %q", tok))
				}
				if v.CitadelOwner(sq) == pc.Color() && !v.c.gen[pc].ownCit {
					return errAt(pos+1, fmt.Sprintf("only an Adventitious King may stand in its own citadel, not %q", tok))
				}
				if p.board[sq] != Offboard {
					return errAt(pos, "citadel given twice")
				}
				if err := p.putChecked(sq, pc); err != nil {
					return errAt(pos, err.Error())
				}
				i += end + 1
			default:
				n := 0
				var pc Piece
				for l := 2; l >= 1; l-- {
					if i+l <= len(rs) {
						if q, ok := p.pieceOfToken(rs[i : i+l]); ok {
							pc, n = q, l
							break
						}
					}
				}
				if n == 0 {
					return errAt(pos, "unknown piece "+charAt(rs, i))
				}
				if file >= v.Files {
					return errAt(pos, fmt.Sprintf("rank %d has more than %d files", rank+1, v.Files))
				}
				if err := p.putChecked(SquareAt(file, rank), pc); err != nil {
					return errAt(pos, err.Error())
				}
				file++
				i += n
			}
		}
		if file != v.Files {
			return errAt(off, fmt.Sprintf("rank %d has %d files, want %d", rank+1, file, v.Files))
		}
		off += len(rs) + 1
	}
	return nil
}

// charAt quotes the character that starts at byte i of s, whole (a
// multi-byte character such as ♚ is one character), or the byte if it
// starts no valid UTF-8 character.
func charAt(s string, i int) string {
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("byte 0x%02x", s[i])
	}
	return strconv.QuoteRune(r)
}

func (p *Position) putChecked(s Square, pc Piece) error {
	if p.count[pc.Color()] >= maxPieces {
		return fmt.Errorf("more than %d %s pieces", maxPieces, pc.Color())
	}
	if p.v.c.gen[pc].royal && p.nroyal[pc.Color()] >= len(p.royals[0]) {
		return fmt.Errorf("too many %s royal pieces", pc.Color())
	}
	p.put(s, pc)
	return nil
}

// pieceOfToken maps a FEN token in either case (both letters in one case)
// to a piece.
func (p *Position) pieceOfToken(tok string) (Piece, bool) {
	up, low := strings.ToUpper(tok), strings.ToLower(tok)
	var c Color
	switch tok {
	case up:
		c = White
	case low:
		c = Black
	default:
		return 0, false
	}
	t, ok := p.v.c.tokens[up]
	if !ok {
		return 0, false
	}
	return MakePiece(t, c), true
}

func (p *Position) computeHash() uint64 {
	st := p.cur()
	var h uint64
	for col := White; col <= Black; col++ {
		for _, s := range p.Pieces(col) {
			h ^= zobrist.piece[p.board[s]&0x7f][s]
		}
	}
	if p.side == Black {
		h ^= zobrist.side
	}
	if st.ep != NoSquare {
		h ^= zobrist.ep[st.ep]
	}
	return h ^ zobrist.rights(st.rights) ^ zobrist.ppKey(st.pp)
}

// FEN formats the position in the variant's notation.
func (p *Position) FEN() string {
	st := p.cur()
	return formatFEN(p.v, &p.board, p.side, st.rights, st.pp, st.ep, int(st.rule50), p.ply/2+1)
}

// formatFEN writes the FEN fields in the variant's notation: placement,
// side, rights (or "-"), pawn-of-pawns arrivals or en passant square,
// halfmove and fullmove.
func formatFEN(v *Variant, board *[NumSquares]Piece, side Color, rights uint32, pp [2]uint8, ep Square, rule50, fullmove int) string {
	var b strings.Builder
	b.WriteString(placement(v, board))
	b.WriteByte(' ')
	b.WriteByte("wb"[side])
	b.WriteByte(' ')
	n := 0
	for i, r := range v.Rights {
		if rights&(1<<i) != 0 {
			b.WriteByte(r.Char)
			n++
		}
	}
	if n == 0 {
		b.WriteByte('-')
	}
	b.WriteByte(' ')
	if v.PawnOfPawns {
		b.WriteByte('0' + pp[White])
		b.WriteByte('0' + pp[Black])
	} else {
		b.WriteString(ep.String())
	}
	fmt.Fprintf(&b, " %d %d", rule50, fullmove)
	return b.String()
}
