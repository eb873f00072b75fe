package engine

import (
	"fmt"
	"strings"
)

// maxTypes bounds the piece types of a variant so that a piece code fits a
// 64-bit mask (codes are type<<1|color < 64).
const maxTypes = 31

// offMode is a leap or a hop of a piece along d; a hop's ray is the index
// in compiled.rays of d, up whether the indexes grow along it.
type offMode struct {
	d    int
	mode Mode
	ray  int
	up   bool
}

// rideGen is a slide or a bent slide of a piece: a bent slide first steps
// by first to an empty square, a plain slide has first 0; then it rides
// along d, landing from its min-th to its max-th step.
type rideGen struct {
	first, d, min, max int
	mode               Mode
	// ray is the index in compiled.rays of d, up whether the indexes
	// grow along it; window, when min or max limits the ride, holds by
	// index the squares of the ray from there within those steps (nil:
	// the whole ray)
	ray    int
	up     bool
	window *[MaxIndex]Bitboard
}

type doubleGen struct {
	d          int
	fromRank   int // absolute zero-based rank, -1 if the step needs a right
	needsRight bool
	ep         bool
}

// pieceGen is the compiled movement of one piece code (type and color).
type pieceGen struct {
	leaps   []offMode
	slides  []rideGen // first is 0
	hops    []offMode
	bents   []rideGen // first is not 0
	rides   []rideGen // slides then bents, for the generators
	doubles []doubleGen
	epCaps  []int // capture deltas usable en passant
	promo   PromotionKind
	promoTo []PieceType
	// zone is the number of ranks of a PromoteInZone piece's promotion
	// zone; with a promoLimit (OnlyCaptured), promoTo[i] is a choice
	// only while its side owns fewer than promoLimit[i] of that type (the
	// start array's count)
	zone       int8
	promoLimit []int8
	// leapTab is 1 + the index in compiled.leapTo of the squares the
	// leaps reach, 0 for a piece without leaps
	leapTab int
	// promoSq holds the indexes of the squares on which a move of this
	// piece may promote (empty for a piece that does not promote)
	promoSq Bitboard
	royal   bool
	rank    int
	king    bool
	heir    bool
	ownCit  bool
	pawn    bool
}

// epCapturer is a piece code that captures en passant with delta d.
type epCapturer struct {
	d    int
	code Piece
}

type maskedOff struct {
	d    int
	mask uint64
}

type slideAttack struct {
	d       int
	mask    uint64 // sliders with min 1 and no maximum
	extra   []slideLimited
	hopMask uint64
	// all is every code attacking along d; ray is the index in
	// compiled.rays of the direction -d (from the target toward the
	// attackers), up whether the indexes grow along it, step the
	// larger of d's file and rank components
	all  uint64
	ray  int
	up   bool
	step int
}

type slideLimited struct {
	mask     uint64
	min, max int
}

type bentAttack struct {
	first, then, min, max int
	mask                  uint64
	// ray is the index in compiled.rays of the direction -then, up
	// whether the indexes grow along it; from[i] are the squares from
	// which this bent slide reaches index i on an empty board
	ray  int
	up   bool
	from *[MaxIndex]Bitboard
}

// attackTables answer "is this square attacked by that side" by looking
// outward from the square.
type attackTables struct {
	leaps  []maskedOff
	slides []slideAttack
	bents  []bentAttack
	// leapCodes has the codes that capture by leaps; leapFrom[i*n+slot]
	// are the squares of the playing area from which the code of that
	// slot (leapSlot[code]; n codes) attacks index i
	leapCodes uint64
	leapSlot  [64]uint8
	leapFrom  []Bitboard
	// leapAny[i] are the squares from which some code of leapCodes
	// attacks index i: where leapAttackers looks for candidates
	leapAny *[MaxIndex]Bitboard
	// slideGroups and bentGroups gather the slides and the bent slides
	// by the codes that attack along them
	slideGroups, bentGroups []attackGroup
}

// attackGroup is a set of slides (or bent slides) attacked along by the
// same codes (mask): members index attackTables.slides (or bents), and
// reach[i] holds every square from which one of them can reach index i
// on an empty board.
type attackGroup struct {
	mask    uint64
	reach   *[MaxIndex]Bitboard
	members []int
}

// compiled holds the tables derived from a Variant's description.
type compiled struct {
	tokens     map[string]PieceType
	empty      [NumSquares]Piece // the empty board: 0 on the playing area, Offboard elsewhere
	citBit     [NumSquares]Piece // Offboard on citadels
	citOwner   [NumSquares]Color
	nearCit    [NumSquares]Square // the citadel a king step from here reaches
	gen        [64]pieceGen
	att        [2]attackTables
	leapMask   [2]map[int]uint64 // capture leaps by attacker color, for citadel occupants
	clearMask  [NumSquares]uint32
	swapRight  [2]uint32
	lastRank   [2][NumSquares]bool
	farCorner  [2][NumSquares]bool
	epCodes    [2][]epCapturer
	royalMask  uint64
	pawnMask   uint64
	sliderMask uint64 // codes of pieces whose attacks can be blocked
	// lineDirs are the directions (attacker deltas) along which a move
	// elsewhere can open or close an attack of that color on a royal:
	// slides, hops and the straight legs of bent slides. hopDirs are the
	// hop directions, where a piece arriving on an empty square can become
	// a screen.
	lineDirs [2][]lineDir
	hopDirs  [2][]hopDir
	onBoard  []Square
	// index numbers the squares for Bitboards (-1 off the board), square
	// is its inverse, all the set of the playing area's squares.
	index  [NumSquares]int8
	square [MaxIndex]Square
	all    Bitboard
	// rays[k][i] are the squares of the playing area met stepping from
	// index i by rayDirs[k], i excluded, up to the edge
	rays    []*[MaxIndex]Bitboard
	rayDirs []int
	// leapTo are the squares of the playing area pieces' leaps reach from
	// each index, by pieceGen.leapTab
	leapTo []leapTargets
	// moveBound bounds the pseudo-legal moves of one piece, on any square,
	// whatever else stands on the board, and after any promotion.
	moveBound [64]int
	// maxRoyals is the most royals a side can ever own: 1 when a single
	// royal type exists and nothing promotes to a royal (docs/rules.md 2.2, 5),
	// else the position's capacity (docs/rules.md 3.5).
	maxRoyals int
	// rightPieces[i] are the pieces that stand on the squares of right
	// i's Clear list in the start position: a FEN may give the right only
	// while they still stand there (docs/rules.md 2.6, 5.1).
	rightPieces [][]Piece
	// fromLast is a square's distance in ranks from each side's last
	// rank (0 on it), maxRanksFromLast off the board
	fromLast [2][NumSquares]int8
}

func (v *Variant) compile() error {
	c := &v.c
	if len(v.Pieces)-1 > maxTypes {
		return fmt.Errorf("%d piece types, at most %d", len(v.Pieces)-1, maxTypes)
	}
	if v.Files > MaxFiles || v.Ranks > MaxRanks {
		return fmt.Errorf("board %dx%d larger than %dx%d", v.Files, v.Ranks, MaxFiles, MaxRanks)
	}
	if !v.compileIndex() {
		return fmt.Errorf("board %dx%d with %d citadels has more than %d squares", v.Files, v.Ranks, len(v.Citadels), MaxIndex)
	}
	c.tokens = map[string]PieceType{}
	for t := 1; t < len(v.Pieces); t++ {
		tok := v.Pieces[t].Token
		if _, dup := c.tokens[tok]; dup {
			return fmt.Errorf("duplicate token %q", tok)
		}
		c.tokens[tok] = PieceType(t)
	}
	for i := range c.empty {
		c.empty[i] = Offboard
		c.fromLast[White][i], c.fromLast[Black][i] = maxRanksFromLast, maxRanksFromLast
	}
	for r := 0; r < v.Ranks; r++ {
		for f := 0; f < v.Files; f++ {
			s := SquareAt(f, r)
			c.empty[s] = Empty
			c.onBoard = append(c.onBoard, s)
			c.lastRank[White][s] = r == v.Ranks-1
			c.lastRank[Black][s] = r == 0
			c.fromLast[White][s], c.fromLast[Black][s] = int8(v.Ranks-1-r), int8(r)
			corner := f == 0 || f == v.Files-1
			c.farCorner[White][s] = corner && r == v.Ranks-1
			c.farCorner[Black][s] = corner && r == 0
		}
	}
	for _, ct := range v.Citadels {
		c.citBit[ct.Square] = Offboard
		c.citOwner[ct.Square] = ct.Owner
		for _, d := range []int{delta(1, 0), delta(1, 1), delta(0, 1), delta(-1, 1), delta(-1, 0), delta(-1, -1), delta(0, -1), delta(1, -1)} {
			n := ct.Square + Square(d)
			if v.OnBoard(n) {
				c.nearCit[n] = ct.Square
			}
		}
	}
	for i, r := range v.Rights {
		for _, s := range r.Clear {
			c.clearMask[s] |= 1 << i
		}
		if r.Swap {
			c.swapRight[r.Color] |= 1 << i
		}
	}
	for col := White; col <= Black; col++ {
		c.leapMask[col] = map[int]uint64{}
	}
	leapIdx := [2]map[int]int{{}, {}}
	slideIdx := [2]map[int]int{{}, {}}
	for t := 1; t < len(v.Pieces); t++ {
		def := &v.Pieces[t]
		for col := White; col <= Black; col++ {
			code := MakePiece(PieceType(t), col)
			bit := uint64(1) << code
			g := &c.gen[code]
			g.royal, g.rank, g.king, g.heir, g.ownCit, g.pawn = def.Royal, def.Rank, def.King, def.Heir, def.OwnCit, def.Pawn
			g.promo = def.Promo
			g.zone = int8(max(def.Zone, 1))
			for _, tok := range def.To {
				pt, ok := c.tokens[tok]
				if !ok {
					return fmt.Errorf("%s promotes to unknown token %q", def.Name, tok)
				}
				g.promoTo = append(g.promoTo, pt)
			}
			if def.Royal {
				c.royalMask |= bit
			}
			if def.Pawn {
				c.pawnMask |= bit
			}
			at := &c.att[col]
			for _, m := range def.Moves {
				dr, tr := int(m.DR), int(m.TR)
				if col == Black {
					dr, tr = -dr, -tr
				}
				d := delta(int(m.DF), dr)
				switch m.Kind {
				case Leap:
					g.leaps = append(g.leaps, offMode{d: d, mode: m.Mode})
					if m.Mode != MoveOnly {
						if def.EPCapture && m.Mode == CaptureOnly {
							g.epCaps = append(g.epCaps, d)
							c.epCodes[col] = append(c.epCodes[col], epCapturer{d: d, code: code})
						}
						c.leapMask[col][d] |= bit
						i, ok := leapIdx[col][d]
						if !ok {
							i = len(at.leaps)
							leapIdx[col][d] = i
							at.leaps = append(at.leaps, maskedOff{d: d})
						}
						at.leaps[i].mask |= bit
					}
				case Slide, Hop:
					max := int(m.Max)
					if max == 0 {
						max = Stride
					}
					if m.Kind == Slide {
						g.slides = append(g.slides, rideGen{d: d, min: int(m.Min), max: max, mode: m.Mode})
					} else {
						g.hops = append(g.hops, offMode{d: d, mode: m.Mode})
					}
					if m.Mode == MoveOnly {
						continue
					}
					c.sliderMask |= bit
					i, ok := slideIdx[col][d]
					if !ok {
						i = len(at.slides)
						slideIdx[col][d] = i
						at.slides = append(at.slides, slideAttack{d: d})
					}
					sa := &at.slides[i]
					switch {
					case m.Kind == Hop:
						sa.hopMask |= bit
					case m.Min <= 1 && max == Stride:
						sa.mask |= bit
					default:
						sa.extra = append(sa.extra, slideLimited{mask: bit, min: int(m.Min), max: max})
					}
				case Bent:
					max := int(m.Max)
					if max == 0 {
						max = Stride
					}
					bt := delta(int(m.TF), tr)
					g.bents = append(g.bents, rideGen{first: d, d: bt, min: int(m.Min), max: max, mode: m.Mode})
					c.sliderMask |= bit
					if m.Mode != MoveOnly {
						found := false
						for i := range at.bents {
							b := &at.bents[i]
							if b.first == d && b.then == bt && b.min == int(m.Min) && b.max == max {
								b.mask |= bit
								found = true
							}
						}
						if !found {
							at.bents = append(at.bents, bentAttack{first: d, then: bt, min: int(m.Min), max: max, mask: bit})
						}
					}
				case DoubleStep:
					fr := int(m.FromRank)
					if col == Black {
						fr = v.Ranks - 1 - fr
					}
					if m.NeedsRight {
						fr = -1
					}
					g.doubles = append(g.doubles, doubleGen{d: d, fromRank: fr, needsRight: m.NeedsRight, ep: m.EnPassant})
				}
			}
		}
	}
	for code := range c.gen {
		g := &c.gen[code]
		g.rides = append(append([]rideGen(nil), g.slides...), g.bents...)
		c.moveBound[code] = v.reachBound(Piece(code))
	}
	for code := range c.gen {
		for _, t := range c.gen[code].promoTo {
			c.moveBound[code] = max(c.moveBound[code], c.moveBound[MakePiece(t, Piece(code).Color())])
		}
	}
	for col := White; col <= Black; col++ {
		idx := map[int]int{}
		line := func(d int) *lineDir {
			i, ok := idx[d]
			if !ok {
				i = len(c.lineDirs[col])
				idx[d] = i
				c.lineDirs[col] = append(c.lineDirs[col], lineDir{d: d})
			}
			return &c.lineDirs[col][i]
		}
		for _, sa := range c.att[col].slides {
			l := line(sa.d)
			l.sliders |= sa.mask
			for _, e := range sa.extra {
				l.sliders |= e.mask
			}
			if sa.hopMask != 0 {
				l.whole |= sa.hopMask
				c.hopDirs[col] = append(c.hopDirs[col], hopDir{d: sa.d, mask: sa.hopMask})
			}
		}
		for _, b := range c.att[col].bents {
			line(b.then).whole |= b.mask
		}
	}
	v.compileRays()
	return v.compileSetup()
}

// lineDir is a direction of line attacks: sliders (whose pins matter
// only for the first piece from the royal), and the codes of hoppers and
// bent sliders (whole), for which any square of the line can matter.
type lineDir struct {
	d       int
	sliders uint64
	whole   uint64
}

// hopDir is a direction of hop attacks by the codes in mask.
type hopDir struct {
	d    int
	mask uint64
}

// reachBound returns the largest number of squares the piece code can
// reach from one square of the board (captures and moves alike, every
// square a slide, hop or bent move passes, each promotion choice counted),
// an upper bound of its pseudo-legal moves in any position.
func (v *Variant) reachBound(code Piece) int {
	c := &v.c
	g := &c.gen[code]
	us := code.Color()
	on := func(s Square) bool { return s > 0 && int(s) < NumSquares && c.empty[s] == Empty }
	best := 0
	for _, from := range c.onBoard {
		n := 0
		count := func(to Square) {
			switch k := c.fromLast[us][to]; {
			case g.promo == PromoteOnLastRank && k == 0:
				n += len(g.promoTo)
			case g.promo == PromoteInZone && k == 0:
				n += len(g.promoTo)
			case g.promo == PromoteInZone && k < g.zone:
				n += len(g.promoTo) + 1
			default:
				n++
			}
		}
		for _, l := range g.leaps {
			if to := from + Square(l.d); on(to) {
				count(to)
			}
		}
		for _, r := range g.rides {
			start := from + Square(r.first)
			if !on(start) {
				continue
			}
			for k, to := 1, start+Square(r.d); k <= r.max && on(to); k, to = k+1, to+Square(r.d) {
				if k >= r.min {
					count(to)
				}
			}
		}
		for _, h := range g.hops {
			for to := from + Square(h.d); on(to); to += Square(h.d) {
				count(to)
			}
		}
		n += len(g.doubles)
		if g.royal {
			n++ // a citadel step
		}
		best = max(best, n)
	}
	return best
}

// tokenOf returns the FEN token of piece p in its side's case.
func (v *Variant) tokenOf(p Piece) string {
	tok := v.Pieces[p.Type()].Token
	if p.Color() == Black {
		return strings.ToLower(tok)
	}
	return tok
}

// compileSetup derives the setup limits FEN validation checks: the royal
// count and the pieces each right needs, read from the start array.
func (v *Variant) compileSetup() error {
	c := &v.c
	royalTypes, promotesToRoyal := 0, false
	for t := 1; t < len(v.Pieces); t++ {
		if v.Pieces[t].Royal {
			royalTypes++
		}
		for _, pt := range c.gen[MakePiece(PieceType(t), White)].promoTo {
			promotesToRoyal = promotesToRoyal || v.Pieces[pt].Royal
		}
	}
	c.maxRoyals = len(Position{}.royals[0])
	if royalTypes == 1 && !promotesToRoyal {
		c.maxRoyals = 1
	}
	start := &Position{v: v, board: c.empty, st: make([]state, 1)}
	placement, _, _ := strings.Cut(v.StartFEN, " ")
	if err := start.parsePlacement(placement, func(pos int, msg string) error {
		return fmt.Errorf("start FEN at %d: %s", pos+1, msg)
	}); err != nil {
		return err
	}
	v.compileLimits(start)
	c.rightPieces = make([][]Piece, len(v.Rights))
	for i, r := range v.Rights {
		for _, s := range r.Clear {
			c.rightPieces[i] = append(c.rightPieces[i], start.board[s]&0x7f)
		}
	}
	return nil
}

// maxRanksFromLast is compiled.fromLast off the board: beyond any zone.
const maxRanksFromLast = 127

// compileLimits sets the promotion limits of the OnlyCaptured pieces:
// each type they promote to, as many as the start array holds of it for
// their side.
func (v *Variant) compileLimits(start *Position) {
	c := &v.c
	for t := 1; t < len(v.Pieces); t++ {
		if !v.Pieces[t].OnlyCaptured {
			continue
		}
		for col := White; col <= Black; col++ {
			g := &c.gen[MakePiece(PieceType(t), col)]
			g.promoLimit = make([]int8, len(g.promoTo))
			for i, pt := range g.promoTo {
				g.promoLimit[i] = int8(min(start.countType(col, pt), 127))
			}
		}
	}
}
