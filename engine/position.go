package engine

// maxPieces bounds the pieces of one side.
const maxPieces = 64

// state is the part of a position that make pushes and unmake pops.
type state struct {
	move     Move
	mover    Piece  // the piece that moved (before promotion)
	captured Piece  // piece captured (or removed by a lift)
	capSq    Square // its square
	capSlot  slot   // where it stood in the piece lists
	removed  Piece  // piece removed by a pawn of pawns' relocation
	relocSq  Square // where the pawn of pawns was relocated to
	remSlot  slot   // where the removed piece stood in the piece lists
	// promoRoyal is the royal-list index a promoted royal left (see replace)
	promoRoyal uint8
	ep         Square
	rights     uint32
	pp         [2]uint8  // pawn of pawns arrivals
	waiting    [2]Square // square of a side's waiting pawn of pawns
	rule50     int32
	nullPly    int32 // plies since the last null move, for repetition checks
	hash       uint64
	citadel    bool // the mover's ranking royal entered the enemy citadel
	// check caches InCheck for this position: 0 not yet known, 1 the side
	// to move is in check, 2 it is not (a new state starts unknown)
	check uint8
}

// Position is a game position with the history needed to unmake moves and
// detect repetitions. The zero value is not usable: build one with
// NewPosition or ParseFEN.
type Position struct {
	v      *Variant
	board  [NumSquares]Piece
	side   Color
	list   [2][maxPieces]Square
	count  [2]int
	index  [NumSquares]uint8
	royals [2][8]Square
	nroyal [2]int
	counts [64]int16 // pieces by code
	// byColor and byCode are the squares of the pieces by side and by
	// code (citadel occupants included), as Bitboards
	byColor [2]Bitboard
	byCode  [64]Bitboard
	// present has bit code set while a piece of that code is on the board
	present uint64
	ply     int     // game ply from the FEN's fullmove number
	st      []state // st[len-1] is the current state
}

// Variant returns the position's variant.
func (p *Position) Variant() *Variant { return p.v }

// SideToMove returns the side to move.
func (p *Position) SideToMove() Color { return p.side }

// At returns the piece on s (Empty if none; a citadel's occupant too).
func (p *Position) At(s Square) Piece {
	c := p.board[s]
	if c == Offboard {
		return Empty
	}
	return c & 0x7f
}

// Hash returns the Zobrist hash of the position.
func (p *Position) Hash() uint64 { return p.cur().hash }

// Count returns the number of pieces of type t and color c.
func (p *Position) Count(t PieceType, c Color) int { return int(p.counts[MakePiece(t, c)]) }

// Pieces returns the squares of the pieces of color c (do not modify).
func (p *Position) Pieces(c Color) []Square { return p.list[c][:p.count[c]] }

// Royals returns the squares of the royal pieces of color c (do not modify).
func (p *Position) Royals(c Color) []Square { return p.royals[c][:p.nroyal[c]] }

// EnPassant returns the en passant target square (NoSquare if none).
func (p *Position) EnPassant() Square { return p.cur().ep }

// HalfmoveClock returns the plies since the last capture or pawn move
// (docs/rules.md 2.5, 3.6: every Tamerlane promotion is a pawn move).
func (p *Position) HalfmoveClock() int { return int(p.cur().rule50) }

// GamePly returns the number of plies played since the game's start.
func (p *Position) GamePly() int { return p.ply }

// PawnOfPawnsArrivals returns how often c's pawn of pawns reached the last rank.
func (p *Position) PawnOfPawnsArrivals(c Color) int { return int(p.cur().pp[c]) }

// WaitingPawnOfPawns returns the square of c's waiting pawn of pawns (NoSquare if none).
func (p *Position) WaitingPawnOfPawns(c Color) Square { return p.cur().waiting[c] }

// HasRight reports whether the FEN right with the given character is held.
func (p *Position) HasRight(ch byte) bool {
	for i, r := range p.v.Rights {
		if r.Char == ch {
			return p.cur().rights&(1<<i) != 0
		}
	}
	return false
}

// CitadelDraw reports whether the last move took a ranking royal into the
// enemy citadel, which ends the game in a draw (docs/rules.md 3.1).
func (p *Position) CitadelDraw() bool { return p.cur().citadel }

// LastMove returns the move that led to this position (NullMove at the root).
func (p *Position) LastMove() Move { return p.cur().move }

func (p *Position) cur() *state { return &p.st[len(p.st)-1] }

// Clone returns an independent copy of the position and its history.
func (p *Position) Clone() *Position {
	q := *p
	q.st = make([]state, len(p.st), cap(p.st))
	copy(q.st, p.st)
	return &q
}

func (p *Position) put(s Square, pc Piece) {
	c := pc.Color()
	p.board[s] = pc | p.v.c.citBit[s]
	p.index[s] = uint8(p.count[c])
	p.list[c][p.count[c]] = s
	p.count[c]++
	p.counts[pc]++
	p.present |= 1 << pc
	p.toggle(s, pc)
	if p.v.c.gen[pc].royal {
		p.royals[c][p.nroyal[c]] = s
		p.nroyal[c]++
	}
	p.cur().hash ^= zobrist.piece[pc][s]
}

// slot records where a removed piece stood in its side's piece list and,
// for a royal, in the royal list, so that restore can put it back exactly
// there: Unmake then leaves the lists, and so the order of move
// generation, as they were before Make.
type slot struct {
	list, royal uint8
}

// remove takes the piece off s; the last piece of its side's list (and,
// for a royal, of the royal list) fills the gap.
func (p *Position) remove(s Square) (Piece, slot) {
	pc := p.board[s] & 0x7f
	c := pc.Color()
	p.board[s] = p.v.c.citBit[s]
	p.count[c]--
	last := p.list[c][p.count[c]]
	i := p.index[s]
	p.list[c][i] = last
	p.index[last] = i
	p.counts[pc]--
	if p.counts[pc] == 0 {
		p.present &^= 1 << pc
	}
	p.toggle(s, pc)
	sl := slot{list: i}
	if p.v.c.gen[pc].royal {
		sl.royal = p.removeRoyal(c, s)
	}
	p.cur().hash ^= zobrist.piece[pc][s]
	return pc, sl
}

// restore is the exact inverse of the remove that returned sl: pc goes
// back to s and to its old places in the lists, and the pieces that
// filled the gaps go back to the ends.
func (p *Position) restore(s Square, pc Piece, sl slot) {
	c := pc.Color()
	p.board[s] = pc | p.v.c.citBit[s]
	moved := p.list[c][sl.list]
	p.list[c][p.count[c]] = moved
	p.index[moved] = uint8(p.count[c])
	p.count[c]++
	p.list[c][sl.list] = s
	p.index[s] = sl.list
	p.counts[pc]++
	p.present |= 1 << pc
	p.toggle(s, pc)
	if p.v.c.gen[pc].royal {
		p.restoreRoyal(c, s, sl.royal)
	}
	p.cur().hash ^= zobrist.piece[pc][s]
}

// removeRoyal takes s off c's royal list, the last royal filling the gap,
// and returns its index there.
func (p *Position) removeRoyal(c Color, s Square) uint8 {
	for j := 0; j < p.nroyal[c]; j++ {
		if p.royals[c][j] == s {
			p.nroyal[c]--
			p.royals[c][j] = p.royals[c][p.nroyal[c]]
			return uint8(j)
		}
	}
	return 0
}

// restoreRoyal is the inverse of the removeRoyal that returned j.
func (p *Position) restoreRoyal(c Color, s Square, j uint8) {
	p.royals[c][p.nroyal[c]] = p.royals[c][j]
	p.nroyal[c]++
	p.royals[c][j] = s
}

// replace turns the piece on s into pc of the same side (a promotion) in
// place: its index in the piece list is kept. A piece that becomes royal
// joins the end of the royal list; replace's inverse, replace back, then
// removes it from the end, so the royal list is restored too. A royal
// that stops being royal leaves its royal slot, which ret records for
// the inverse.
func (p *Position) replace(s Square, pc Piece, royalSlot uint8) (old Piece, ret uint8) {
	old = p.board[s] & 0x7f
	c := pc.Color()
	p.board[s] = pc | p.v.c.citBit[s]
	p.counts[old]--
	if p.counts[old] == 0 {
		p.present &^= 1 << old
	}
	p.counts[pc]++
	p.present |= 1 << pc
	p.toggle(s, old)
	p.toggle(s, pc)
	wasRoyal, isRoyal := p.v.c.gen[old].royal, p.v.c.gen[pc].royal
	switch {
	case wasRoyal && !isRoyal:
		ret = p.removeRoyal(c, s)
	case !wasRoyal && isRoyal:
		p.restoreRoyal(c, s, royalSlot)
	}
	p.cur().hash ^= zobrist.piece[old][s] ^ zobrist.piece[pc][s]
	return old, ret
}

// exchange swaps the pieces on a and b in place (the King's swap or
// succession; neither square is a citadel and b's piece is not royal).
func (p *Position) exchange(a, b Square) {
	pa, pb := p.board[a]&0x7f, p.board[b]&0x7f
	p.board[a], p.board[b] = pb|p.v.c.citBit[a], pa|p.v.c.citBit[b]
	ia, ib := p.index[a], p.index[b]
	p.list[pa.Color()][ia], p.list[pb.Color()][ib] = b, a
	p.index[a], p.index[b] = ib, ia
	p.toggle(a, pa)
	p.toggle(b, pb)
	p.toggle(a, pb)
	p.toggle(b, pa)
	p.moveRoyal(pa, a, b)
	p.moveRoyal(pb, b, a)
	z := &zobrist.piece
	p.cur().hash ^= z[pa][a] ^ z[pb][b] ^ z[pa][b] ^ z[pb][a]
}

func (p *Position) relocate(from, to Square) {
	pc := p.board[from] & 0x7f
	c := pc.Color()
	p.board[from] = p.v.c.citBit[from]
	p.board[to] = pc | p.v.c.citBit[to]
	i := p.index[from]
	p.list[c][i] = to
	p.index[to] = i
	p.toggle(from, pc)
	p.toggle(to, pc)
	p.moveRoyal(pc, from, to)
	p.cur().hash ^= zobrist.piece[pc][from] ^ zobrist.piece[pc][to]
}

// toggle flips square s in the Bitboards of piece pc.
func (p *Position) toggle(s Square, pc Piece) {
	i := int(p.v.c.index[s])
	p.byColor[pc&1].toggle(i)
	p.byCode[pc].toggle(i)
}

// moveRoyal follows a royal pc from one square to another in its side's
// royal list, in place (nothing for a piece that is not royal).
func (p *Position) moveRoyal(pc Piece, from, to Square) {
	if !p.v.c.gen[pc].royal {
		return
	}
	c := pc.Color()
	for j := 0; j < p.nroyal[c]; j++ {
		if p.royals[c][j] == from {
			p.royals[c][j] = to
			return
		}
	}
}

// forward returns the mailbox step one rank forward for c.
func forward(c Color) Square {
	if c == White {
		return Stride
	}
	return -Stride
}

// Make plays m, which must be legal (or pseudo-legal, for internal tests).
func (p *Position) Make(m Move) {
	prev := p.cur()
	p.st = append(p.st, state{
		move:    m,
		rights:  prev.rights,
		pp:      prev.pp,
		waiting: prev.waiting,
		rule50:  prev.rule50 + 1,
		nullPly: prev.nullPly + 1,
		hash:    prev.hash ^ zobrist.side,
	})
	st := p.cur()
	c := &p.v.c
	if prev.ep != NoSquare {
		st.hash ^= zobrist.ep[prev.ep]
	}
	us := p.side
	from, to := m.From(), m.To()
	mover := p.board[from] & 0x7f
	st.mover = mover
	if c.gen[mover].pawn {
		st.rule50 = 0
	}
	switch m.Kind() {
	case KindEnPassant:
		st.capSq = to - forward(us)
		st.captured, st.capSlot = p.remove(st.capSq)
		p.relocate(from, to)
		st.rule50 = 0
	case KindCastle:
		if cr := p.castling(from, to); cr != nil {
			p.relocate(from, to)
			p.relocate(cr.RookFrom, cr.RookTo)
		}
	case KindExchange:
		partner := p.board[to] & 0x7f
		p.exchange(from, to)
		if c.gen[partner].pawn {
			st.rule50 = 0
		}
		if p.v.Exchange.Once {
			st.rights &^= c.swapRight[us]
		}
	default:
		if t := p.board[to]; t != Empty && t != Offboard {
			st.capSq = to
			st.captured, st.capSlot = p.remove(to)
			st.rule50 = 0
		}
		p.relocate(from, to)
		switch m.Kind() {
		case KindDouble:
			st.ep = from + forward(us)
		case KindPromotion:
			// No clock reset of its own: a pawn's promotion is a pawn
			// move, and Tamerlane II's Ship and Prince promotions are
			// neither a capture nor a pawn move (docs/rules.md 2.5).
			_, st.promoRoyal = p.replace(to, MakePiece(m.Promotion(), us), uint8(p.nroyal[us]))
		case KindArrive:
			st.pp[us] = 1
			st.waiting[us] = to
		case KindLift:
			st.waiting[us] = NoSquare
		case KindRelocate:
			st.pp[us] = 2
			r := p.relocationSquare(us)
			if t := p.board[r]; t != Empty {
				st.removed, st.remSlot = p.remove(r)
			}
			st.relocSq = r
			p.relocate(to, r)
		}
		if c.citBit[to] != 0 && c.citOwner[to] != us {
			st.citadel = true
		}
	}
	if st.pp != prev.pp {
		st.hash ^= zobrist.ppKey(prev.pp) ^ zobrist.ppKey(st.pp)
	}
	st.rights &^= c.clearMask[from] | c.clearMask[to]
	if st.rights != prev.rights {
		st.hash ^= zobrist.rights(prev.rights) ^ zobrist.rights(st.rights)
	}
	if st.ep != NoSquare {
		if p.epCapturable(st.ep, us.Other()) {
			st.hash ^= zobrist.ep[st.ep]
		} else {
			st.ep = NoSquare
		}
	}
	p.side = us.Other()
	p.ply++
}

// epCapturable reports whether a pawn of side c could capture en passant on ep.
func (p *Position) epCapturable(ep Square, c Color) bool {
	for _, e := range p.v.c.epCodes[c] {
		if p.board[ep-Square(e.d)] == e.code {
			return true
		}
	}
	return false
}

// Unmake takes back the last move made with Make.
func (p *Position) Unmake() {
	st := p.cur()
	m := st.move
	p.side = p.side.Other()
	p.ply--
	from, to := m.From(), m.To()
	switch m.Kind() {
	case KindEnPassant:
		p.relocate(to, from)
		p.restore(st.capSq, st.captured, st.capSlot)
	case KindCastle:
		if cr := p.castling(from, to); cr != nil {
			p.relocate(cr.RookTo, cr.RookFrom)
			p.relocate(to, from)
		}
	case KindExchange:
		p.exchange(from, to)
	default:
		switch m.Kind() {
		case KindPromotion:
			p.replace(to, st.mover, st.promoRoyal)
		case KindRelocate:
			p.relocate(st.relocSq, to)
			if st.removed != Empty {
				p.restore(st.relocSq, st.removed, st.remSlot)
			}
		}
		p.relocate(to, from)
		if st.captured != Empty {
			p.restore(st.capSq, st.captured, st.capSlot)
		}
	}
	p.st = p.st[:len(p.st)-1]
}

// relocationSquare is where c's pawn of pawns goes on its second arrival
// (docs/rules.md 3.4.3): the pawn of kings' start square, or the nearest square
// of that rank holding neither a royal nor a waiting pawn of pawns, toward
// file a first on ties.
func (p *Position) relocationSquare(c Color) Square {
	home := p.v.PawnOfKingsStart[c]
	st := p.cur()
	blocked := func(s Square) bool {
		t := p.board[s]
		if t == Offboard {
			return true
		}
		return (t != Empty && p.v.c.gen[t&0x7f].royal) || s == st.waiting[White] || s == st.waiting[Black]
	}
	for d := 0; d < p.v.Files; d++ {
		for _, s := range []Square{home - Square(d), home + Square(d)} {
			if !blocked(s) {
				return s
			}
		}
	}
	return home
}

// castling returns the castling rule of the King move from -> to, or nil.
func (p *Position) castling(from, to Square) *CastlingRule {
	for i := range p.v.Castling {
		if cr := &p.v.Castling[i]; cr.KingFrom == from && cr.KingTo == to {
			return cr
		}
	}
	return nil
}
