package xboard

import (
	"fmt"
	"strconv"
	"strings"

	"tamerlane/engine"
)

// xbSlots are XBoard's piece types in the order of its piece-to-char
// table; the image of slot i is that piece's (P a pawn, F a ferz, E an
// alfil/elephant, W a wazir, O a cannon, ... K the king).
const xbSlots = "PNBRQFEACWMOHIJGDVLSUK"

// native lists the variants XBoard knows by itself, by their XBoard
// names; the others are shown as engine-defined "fairy" variants with a
// setup command.
var native = map[string]string{"chess": "normal", "shatranj": "shatranj"}

// board maps a variant onto XBoard: the board XBoard shows, the letter
// of every piece type, and move and FEN conversion.
//
// XBoard numbers the ranks of a 10-rank board from 0 (a0..a9), as in
// xiangqi, and of other boards from 1.
//
// XBoard has no citadels. A variant with citadels is shown on a board
// two files wider: XBoard's first file is our file z before a (the
// citadel z9 lies on it) and its last file our file l after k (the
// citadel l2); every other square of those two files is a hole ('*' in
// the setup FEN), so the citadels are the only squares beside the board.
type board struct {
	v      *engine.Variant
	offset int // XBoard file index of our file a (1 with citadels)
	one    int // XBoard's number of the first rank: 0 on boards of 10 ranks (as in xiangqi), else 1
	files  int // XBoard's board width
	char   []byte
	byChar map[byte]engine.PieceType // XBoard letter (upper case) to type; pawns to the first pawn type
	table  string                    // the piece-to-char table, both colours
	shared bool                      // all pawn types share XBoard's pawn letter
}

// newBoard builds the XBoard mapping of v. Every piece type gets a slot
// whose letter is its FEN token where that letter is free; if the
// variant has more types than XBoard's 22 slots, all pawn types share
// the pawn (XBoard then shows them alike).
func newBoard(v *engine.Variant) *board {
	b := &board{v: v, files: v.Files, one: 1, char: make([]byte, v.NumTypes()+1), byChar: map[byte]engine.PieceType{}}
	if v.Ranks == 10 {
		b.one = 0
	}
	if len(v.Citadels) > 0 {
		b.offset, b.files = 1, v.Files+2
	}
	b.shared = v.NumTypes() > len(xbSlots)
	slotChar := []byte(strings.Repeat(".", len(xbSlots)))
	usedChar := map[byte]bool{}
	var pending []engine.PieceType
	assign := func(t engine.PieceType, slot int, c byte) {
		slotChar[slot], b.char[t], usedChar[c] = c, c, true
		if _, ok := b.byChar[c]; !ok {
			b.byChar[c] = t
		}
	}
	firstPawn := engine.PieceType(0)
	for t := engine.PieceType(1); int(t) <= v.NumTypes(); t++ {
		d := v.Def(t)
		if d.Pawn && firstPawn == 0 {
			firstPawn = t
			assign(t, 0, 'P')
			continue
		}
		if d.Pawn && b.shared {
			b.char[t] = 'P'
			continue
		}
		tok := d.Token
		if len(tok) == 1 && hops(d) && slotChar[strings.IndexByte(xbSlots, 'O')] == '.' {
			assign(t, strings.IndexByte(xbSlots, 'O'), tok[0]) // XBoard's cannon image
			continue
		}
		if len(tok) == 1 {
			if slot := strings.IndexByte(xbSlots, tok[0]); slot > 0 && slotChar[slot] == '.' {
				assign(t, slot, tok[0])
				continue
			}
		}
		pending = append(pending, t)
	}
	king := len(xbSlots) - 1
	for _, t := range pending {
		slot := -1
		if v.Def(t).King && slotChar[king] == '.' {
			slot = king
		}
		for i := 1; slot < 0 && i < len(xbSlots); i++ {
			if slotChar[i] == '.' && (i != king || v.Def(t).Royal) {
				slot = i
			}
		}
		c := byte(0)
		if tok := v.Def(t).Token; len(tok) == 1 && !usedChar[tok[0]] {
			c = tok[0]
		}
		for l := byte('A'); c == 0 && l <= 'Z'; l++ {
			if !usedChar[l] {
				c = l
			}
		}
		if slot < 0 || c == 0 {
			b.char[t] = '?' // more types than XBoard has slots: not shown
			continue
		}
		assign(t, slot, c)
	}
	b.table = string(slotChar) + strings.ToLower(string(slotChar))
	return b
}

// setup returns the setup command that shows pos, or "" for a variant
// XBoard knows natively.
func (b *board) setup(pos *engine.Position) string {
	if _, ok := native[b.v.Name]; ok {
		return ""
	}
	return fmt.Sprintf("setup (%s) %dx%d+0_fairy %s", b.table, b.files, b.v.Ranks, b.fen(pos))
}

// square returns our square at XBoard file index xf and rank index r,
// and whether it exists (on the board or a citadel).
func (b *board) square(xf, r int) (engine.Square, bool) {
	sq := engine.SquareAt(xf-b.offset, r)
	return sq, b.v.OnBoard(sq) || b.v.IsCitadel(sq)
}

// fen writes pos as XBoard sees it: XBoard letters, holes as '*', then
// side to move, castling as in our FEN where the variant has castling
// rights ("-" otherwise), no en passant square, and the move counters.
func (b *board) fen(pos *engine.Position) string {
	var sb strings.Builder
	for r := b.v.Ranks - 1; r >= 0; r-- {
		empty := 0
		flush := func() {
			if empty > 0 {
				sb.WriteString(strconv.Itoa(empty))
				empty = 0
			}
		}
		for xf := 0; xf < b.files; xf++ {
			sq, ok := b.square(xf, r)
			if !ok {
				flush()
				sb.WriteByte('*')
				continue
			}
			pc := pos.At(sq)
			if pc == engine.Empty {
				empty++
				continue
			}
			flush()
			c := b.char[pc.Type()]
			if pc.Color() == engine.Black {
				c = c - 'A' + 'a'
			}
			sb.WriteByte(c)
		}
		flush()
		if r > 0 {
			sb.WriteByte('/')
		}
	}
	side := "w"
	if pos.SideToMove() == engine.Black {
		side = "b"
	}
	castling := "-"
	if f := strings.Fields(pos.FEN()); len(f) > 2 && b.v.RightsField == engine.RightsCastling {
		castling = f[2]
	}
	fmt.Fprintf(&sb, " %s %s - %d %d", side, castling, pos.HalfmoveClock(), pos.GamePly()/2+1)
	return sb.String()
}

// toOurs converts an XBoard coordinate move (from, to, optional
// promotion letter) to our coordinate squares and the XBoard promotion
// letter (upper case, 0 if none).
func (b *board) toOurs(s string) (from, to string, promo byte, err error) {
	var sq [2]string
	i := 0
	for k := 0; k < 2; k++ {
		if i >= len(s) || s[i] < 'a' || s[i] > 'z' {
			return "", "", 0, fmt.Errorf("not a move")
		}
		f := int(s[i]-'a') - b.offset
		i++
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			return "", "", 0, fmt.Errorf("not a move")
		}
		r, _ := strconv.Atoi(s[i:j])
		r += 1 - b.one
		i = j
		if r < 1 || r > b.v.Ranks || f < -1 || f > 25 {
			return "", "", 0, fmt.Errorf("no such square")
		}
		sq[k] = engine.SquareAt(f, r-1).String()
	}
	switch rest := s[i:]; len(rest) {
	case 0:
	case 1:
		promo = strings.ToUpper(rest)[0]
	default:
		if rest != "=" {
			return "", "", 0, fmt.Errorf("not a move")
		}
	}
	return sq[0], sq[1], promo, nil
}

// xbSquare writes our square as XBoard names it.
func (b *board) xbSquare(sq engine.Square) string {
	return string(rune('a'+sq.File()+b.offset)) + strconv.Itoa(sq.Rank()+b.one)
}

// formatMove writes a legal move of pos for XBoard: from and to squares
// on XBoard's board, and for a promotion the XBoard letter of the new
// piece (always, so that XBoard shows the right piece).
func (b *board) formatMove(pos *engine.Position, m engine.Move) string {
	s := b.xbSquare(m.From()) + b.xbSquare(m.To())
	if pt := m.Promotion(); pt != 0 {
		s += strings.ToLower(string(b.char[pt]))
	}
	return s
}

// parseMove finds the legal move of pos that XBoard's move s names. A
// promotion letter chooses among promotions; where only one promotion
// exists any letter (or none) is accepted, since XBoard cannot know
// which piece a Tamerlane pawn becomes.
func (b *board) parseMove(pos *engine.Position, s string) (engine.Move, error) {
	from, to, promo, err := b.toOurs(s)
	if err != nil {
		return engine.NullMove, err
	}
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	var cands []engine.Move
	for _, m := range ml.Slice() {
		if m.From().String() == from && m.To().String() == to {
			cands = append(cands, m)
		}
	}
	switch {
	case len(cands) == 1:
		return cands[0], nil
	case len(cands) == 0:
		return engine.NullMove, fmt.Errorf("not legal")
	}
	for _, m := range cands {
		if pt := m.Promotion(); pt != 0 && b.char[pt] == promo {
			return m, nil
		}
	}
	return engine.NullMove, fmt.Errorf("ambiguous promotion")
}

// parseFEN reads a setboard FEN: ours (docs/rules.md) or XBoard's (its
// letters, holes for the citadel files). XBoard's FEN cannot tell pawn
// types apart where they share a letter; each 'P' then becomes the pawn
// type that starts on that file in the variant's array.
func (b *board) parseFEN(fen string) (*engine.Position, error) {
	pos, err := engine.ParseFEN(b.v, fen)
	if err == nil {
		return pos, nil
	}
	f := strings.Fields(fen)
	if len(f) < 2 {
		return nil, err
	}
	start := engine.NewPosition(b.v)
	rows := strings.Split(f[0], "/")
	if len(rows) != b.v.Ranks {
		return nil, err
	}
	var ours []string
	for i, row := range rows {
		r := b.v.Ranks - 1 - i
		var sb strings.Builder
		empty, xf := 0, 0
		put := func(tok string) {
			if empty > 0 {
				sb.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			sb.WriteString(tok)
		}
		for k := 0; k < len(row); k++ {
			c := row[k]
			switch {
			case c >= '0' && c <= '9':
				n := int(c - '0')
				for k+1 < len(row) && row[k+1] >= '0' && row[k+1] <= '9' {
					k++
					if n <= b.files {
						n = n*10 + int(row[k]-'0')
					}
				}
				if n > b.files-xf {
					return nil, err // no XBoard rank either: our parser's error says why
				}
				for ; n > 0; n-- {
					if sq, ok := b.square(xf, r); ok && !b.v.IsCitadel(sq) {
						empty++ // our FEN does not write empty citadels
					}
					xf++
				}
			case c == '*':
				xf++
			default:
				up := c &^ 0x20
				t, ok := b.byChar[up]
				if !ok {
					return nil, err // a letter of neither notation: our parser names it and its place
				}
				sq, _ := b.square(xf, r)
				if b.v.Def(t).Pawn && b.shared {
					t = pawnForFile(b.v, start, sq, c != up)
				}
				tok := b.v.Def(t).Token
				if c != up {
					tok = strings.ToLower(tok)
				}
				if b.v.IsCitadel(sq) {
					tok = "[" + tok + "]"
				}
				put(tok)
				xf++
			}
		}
		if empty > 0 {
			sb.WriteString(strconv.Itoa(empty))
		}
		ours = append(ours, sb.String())
	}
	if strings.Join(ours, "/") == f[0] {
		// The placement reads the same in both notations, so the FEN was
		// ours (chess, shatranj, shako): our parser's error is the one.
		// Read again with the start position's rights it would name
		// rights the FEN never gave ("KQkq" for 8/8/8/8/8/8/8/8 w -).
		return nil, err
	}
	// XBoard has no notation for our rights (swaps, princes) and the
	// pawn-of-pawns arrivals: take them from the start position, and
	// the side and the move counters, which both notations share, from
	// the FEN.
	rest := strings.Fields(start.FEN())[1:]
	rest[0] = f[1]
	for i := 4; i < len(f) && i < 6; i++ {
		rest[i-1] = f[i]
	}
	pos, err2 := engine.ParseFEN(b.v, strings.Join(ours, "/")+" "+strings.Join(rest, " "))
	if err2 != nil {
		return nil, fmt.Errorf("setboard: %v", err2)
	}
	return pos, nil
}

// pawnForFile returns the pawn type of colour black (or white) that
// starts on sq's file in the start position, or the first pawn type.
func pawnForFile(v *engine.Variant, start *engine.Position, sq engine.Square, black bool) engine.PieceType {
	c := engine.White
	if black {
		c = engine.Black
	}
	for _, s := range start.Pieces(c) {
		if pc := start.At(s); s.File() == sq.File() && v.Def(pc.Type()).Pawn {
			return pc.Type()
		}
	}
	for t := engine.PieceType(1); int(t) <= v.NumTypes(); t++ {
		if v.Def(t).Pawn {
			return t
		}
	}
	return 1
}

// hops reports whether the piece captures by hopping (a cannon).
func hops(d *engine.PieceDef) bool {
	for _, c := range d.Moves {
		if c.Kind == engine.Hop {
			return true
		}
	}
	return false
}
