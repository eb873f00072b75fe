package engine

import (
	"strconv"
	"strings"
)

// The variant table. Every variant is data: a board, pieces described by
// their movement components, an array and rule switches (docs/rules.md 1-5).

func king() PieceDef {
	return PieceDef{Name: "King", Token: "K", Moves: join(leaper(1, 0, MoveOrCapture), leaper(1, 1, MoveOrCapture)), Royal: true, King: true}
}
func knight() PieceDef {
	return PieceDef{Name: "Knight", Token: "N", Moves: leaper(1, 2, MoveOrCapture)}
}
func rook() PieceDef {
	return PieceDef{Name: "Rook", Token: "R", Moves: rider(1, 0, 1, 0, MoveOrCapture)}
}
func bishop() PieceDef {
	return PieceDef{Name: "Bishop", Token: "B", Moves: rider(1, 1, 1, 0, MoveOrCapture)}
}
func queen() PieceDef {
	return PieceDef{Name: "Queen", Token: "Q", Moves: join(rider(1, 0, 1, 0, MoveOrCapture), rider(1, 1, 1, 0, MoveOrCapture))}
}
func camel() PieceDef { return PieceDef{Name: "Camel", Token: "C", Moves: leaper(1, 3, MoveOrCapture)} }
func cannon(tok string) PieceDef {
	return PieceDef{Name: "Cannon", Token: tok, Moves: join(rider(1, 0, 1, 0, MoveOnly), hopper(1, 0, CaptureOnly))}
}

// orthodoxPawn: one step forward, diagonal captures, a double step from
// the given zero-based rank that allows en passant.
func orthodoxPawn(doubleFrom int8, promo ...string) PieceDef {
	moves := pawnMoves()
	if doubleFrom >= 0 {
		moves = append(moves, Component{Kind: DoubleStep, DR: 1, FromRank: doubleFrom, Mode: MoveOnly, EnPassant: true})
	}
	return PieceDef{Name: "Pawn", Token: "P", Pawn: true, Moves: moves, Promo: PromoteOnLastRank, To: promo, EPCapture: doubleFrom >= 0}
}

// castlingRights returns the orthodox KQkq rights and rules for a King on
// kingFile of rank (and its mirror), rooks on the given files, King moving
// two files toward each rook.
func castling(files, ranks, kingFile, shortRook, longRook, rank int) ([]RightDef, []CastlingRule) {
	var rights []RightDef
	var rules []CastlingRule
	for _, c := range []Color{White, Black} {
		r := rank
		if c == Black {
			r = ranks - 1 - rank
		}
		k := SquareAt(kingFile, r)
		for i, rf := range []int{shortRook, longRook} {
			ch := byte("KQ"[i])
			dir := 1
			if rf < kingFile {
				dir = -1
			}
			if c == Black {
				ch += 'a' - 'A'
			}
			rights = append(rights, RightDef{Char: ch, Color: c, Clear: []Square{k, SquareAt(rf, r)}})
			rules = append(rules, CastlingRule{Color: c, KingFrom: k, KingTo: SquareAt(kingFile+2*dir, r),
				RookFrom: SquareAt(rf, r), RookTo: SquareAt(kingFile+dir, r), Right: len(rights) - 1})
		}
	}
	return rights, rules
}

// arrayFEN builds a placement from White's ranks (rank 1 first, one token or
// "" per file). Black is White rotated by 180 degrees, or mirrored on the
// same files when sameFiles is set. overrides places extra Black tokens.
func arrayFEN(files, ranks int, white [][]string, sameFiles bool, overrides map[Square]string) string {
	grid := make([][]string, ranks)
	for r := range grid {
		grid[r] = make([]string, files)
	}
	for r, row := range white {
		for f, t := range row {
			if t == "" {
				continue
			}
			grid[r][f] = t
			bf := files - 1 - f
			if sameFiles {
				bf = f
			}
			grid[ranks-1-r][bf] = strings.ToLower(t)
		}
	}
	for sq, t := range overrides {
		grid[sq.Rank()][sq.File()] = t
	}
	var b strings.Builder
	for r := ranks - 1; r >= 0; r-- {
		empty := 0
		for f := 0; f < files; f++ {
			if grid[r][f] == "" {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteString(grid[r][f])
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if r > 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

func row(s string) []string {
	var out []string
	for _, t := range strings.Fields(s) {
		if t == "." {
			t = ""
		}
		out = append(out, t)
	}
	return out
}

var variantTable = []variantSpec{
	{name: "chess", title: "Chess (FIDE)", build: buildChess},
	{name: "shatranj", title: "Shatranj", build: buildShatranj},
	{name: "shako", title: "Shako", build: buildShako},
	{name: "tamerlane", title: "Tamerlane Chess (masculine array)", options: tamerlaneOptions(false), build: tamerlaneBuilder("masculine")},
	{name: "tamerlane-feminine", title: "Tamerlane Chess (feminine array)", options: tamerlaneOptions(false), build: tamerlaneBuilder("feminine")},
	{name: "tamerlane-third", title: "Tamerlane Chess (third array)", options: tamerlaneOptions(true), build: tamerlaneBuilder("third")},
	{name: "tamerlane2", title: "Tamerlane II (Cazaux)", build: buildTamerlane2},
	{name: "full-tamerlane", title: "Full Tamerlane Chess (Cazaux & Knowlton)", options: tamerlaneOptions(false), build: tamerlaneBuilder("full")},
}

func tamerlaneOptions(third bool) []optionSpec {
	opts := []optionSpec{
		{key: "swap", def: "check-or-stalemate", allowed: []string{"check-or-stalemate", "check", "off"}},
		{key: "giraffe", def: "3", allowed: []string{"3", "2"}},
		{key: "picket", def: "min2", allowed: []string{"min2", "bishop"}},
		{key: "citadels", def: "on", allowed: []string{"on", "off"}},
		{key: "nmove", def: "100"},
	}
	if third {
		opts = append(opts, optionSpec{key: "third-pawns", def: "standard", allowed: []string{"standard", "zurafa"}})
	}
	return opts
}

func buildChess(Options) *Variant {
	v := &Variant{Files: 8, Ranks: 8, RightsField: RightsCastling, MoveRule: 100, InsufficientMaterial: true}
	v.Pieces = []PieceDef{{}, orthodoxPawn(1, "Q", "R", "B", "N"), knight(), bishop(), rook(), queen(), king()}
	v.Rights, v.Castling = castling(8, 8, 4, 7, 0, 0)
	v.StartFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	return v
}

func buildShatranj(Options) *Variant {
	v := &Variant{Files: 8, Ranks: 8, RightsField: RightsNone, MoveRule: 140, Stalemate: StalemateLoses, BareKingLoses: true}
	v.Pieces = []PieceDef{{}, orthodoxPawn(-1, "Q"), knight(),
		{Name: "Alfil", Token: "B", Moves: leaper(2, 2, MoveOrCapture)}, rook(),
		{Name: "Ferz", Token: "Q", Moves: leaper(1, 1, MoveOrCapture)}, king()}
	v.StartFEN = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1"
	return v
}

func buildShako(Options) *Variant {
	v := &Variant{Files: 10, Ranks: 10, RightsField: RightsCastling, MoveRule: 100}
	v.Pieces = []PieceDef{{}, orthodoxPawn(2, "Q", "R", "B", "N", "C", "E"), knight(), bishop(), rook(), queen(), king(),
		{Name: "Elephant", Token: "E", Moves: join(leaper(1, 1, MoveOrCapture), leaper(2, 2, MoveOrCapture))}, cannon("C")}
	v.Rights, v.Castling = castling(10, 10, 5, 8, 1, 1)
	v.StartFEN = "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1"
	return v
}

func buildTamerlane2(Options) *Variant {
	v := &Variant{Files: 11, Ranks: 11, RightsField: RightsPrinces, MoveRule: 100,
		Exchange: &ExchangeRule{Trigger: Checkmated, HeirOnly: true}}
	prince := PieceDef{Name: "Prince", Token: "M", Heir: true, Promo: PromoteOnLastRank, To: []string{"Q"},
		Moves: join(leaper(1, 0, MoveOrCapture), leaper(1, 1, MoveOrCapture),
			[]Component{{Kind: DoubleStep, DR: 1, Mode: MoveOnly, NeedsRight: true}})}
	v.Pieces = []PieceDef{{}, orthodoxPawn(2, "Q"), knight(), bishop(), rook(), queen(), king(), prince,
		{Name: "Elephant", Token: "E", Moves: join(leaper(1, 1, MoveOrCapture), leaper(2, 2, MoveOrCapture))},
		camel(), cannon("O"),
		{Name: "Ship", Token: "S", Moves: join(leaper(1, 1, MoveOrCapture), bent(true, false, 1)), Promo: PromoteOnFarCorners, To: []string{"A"}},
		{Name: "Eagle", Token: "A", Moves: join(leaper(1, 1, MoveOrCapture), bent(true, true, 1))},
	}
	for _, c := range []Color{White, Black} {
		r := 1
		ch := byte('E')
		if c == Black {
			r, ch = 9, 'e'
		}
		for _, f := range []int{4, 6} {
			v.Rights = append(v.Rights, RightDef{Char: ch + byte(f-4), Color: c, Clear: []Square{SquareAt(f, r)}})
		}
	}
	v.StartFEN = "e1c1o1o1c1e/rnbsmkmsbnr/ppppppppppp/11/11/11/11/11/PPPPPPPPPPP/RNBSMKMSBNR/E1C1O1O1C1E w EGeg - 0 1"
	return v
}

// tamerlaneBuilder returns the builder of one historical array (docs/rules.md 3)
// or of Full Tamerlane Chess (docs/rules.md 4).
func tamerlaneBuilder(array string) func(Options) *Variant {
	return func(o Options) *Variant {
		v := &Variant{Files: 11, Ranks: 10, RightsField: RightsSwaps, PawnOfPawns: true, Stalemate: StalemateLoses}
		v.MoveRule, _ = strconv.Atoi(o["nmove"])
		switch o["swap"] {
		case "check-or-stalemate":
			v.Exchange = &ExchangeRule{Trigger: InCheckOrNoMove, Once: true}
		case "check":
			v.Exchange = &ExchangeRule{Trigger: InCheck, Once: true}
		}
		if v.Exchange != nil {
			v.Rights = []RightDef{{Char: 'S', Color: White, Swap: true}, {Char: 's', Color: Black, Swap: true}}
		}
		if o["citadels"] == "on" {
			v.Citadels = []Citadel{{Square: SquareAt(11, 1), Owner: White}, {Square: SquareAt(-1, 8), Owner: Black}}
		}
		gmin, _ := strconv.Atoi(o["giraffe"])
		pmin := int8(2)
		if o["picket"] == "bishop" {
			pmin = 1
		}
		kingMoves := join(leaper(1, 0, MoveOrCapture), leaper(1, 1, MoveOrCapture))
		named := map[string]PieceDef{
			"K": {Name: "King", Token: "K", Moves: kingMoves, Royal: true, King: true},
			"I": {Name: "Prince", Token: "I", Moves: kingMoves, Royal: true, Rank: 1},
			"J": {Name: "Adventitious King", Token: "J", Moves: kingMoves, Royal: true, Rank: 2, OwnCit: true},
			"F": {Name: "General", Token: "F", Moves: leaper(1, 1, MoveOrCapture)},
			"W": {Name: "Vizier", Token: "W", Moves: leaper(1, 0, MoveOrCapture)},
			"G": {Name: "Giraffe", Token: "G", Moves: bent(true, true, int8(gmin))},
			"T": {Name: "Picket", Token: "T", Moves: rider(1, 1, pmin, 0, MoveOrCapture)},
			"N": knight(),
			"R": rook(),
			"E": {Name: "Elephant", Token: "E", Moves: leaper(2, 2, MoveOrCapture)},
			"C": camel(),
			"D": {Name: "War engine", Token: "D", Moves: leaper(2, 0, MoveOrCapture)},
			"L": {Name: "Lion", Token: "L", Moves: leaper(3, 0, MoveOrCapture)},
			"U": {Name: "Bull", Token: "U", Moves: leaper(3, 2, MoveOrCapture)},
			"V": {Name: "Revealer", Token: "V", Moves: leaper(3, 3, MoveOrCapture)},
			"X": {Name: "Sea monster", Token: "X", Moves: leaper(1, 0, MoveOrCapture)},
		}
		var officers, pawnsOf []string
		var white [][]string
		var overrides map[Square]string
		pks := [2]Square{SquareAt(5, 2), SquareAt(5, 7)}
		switch array {
		case "full":
			officers = strings.Fields("K F X G T N R E C D L U V I J")
			pawnsOf = strings.Fields("P K N C D F X G T L R E V U")
			white = [][]string{row("E L N U D V D U C L E"), row("R N T G F K X G T N R"),
				row("PP PN PC PD PF PK PX PG PT PL PR"), row(". . PE . . PV . . PU . .")}
			overrides = map[Square]string{SquareAt(2, 6): "pe", SquareAt(8, 6): "pu"}
		default:
			officers = strings.Fields("K F W G T N R E C D I J")
			pawnsOf = strings.Fields("P K R N T G W F E C D")
			rank3 := row("PP PD PC PE PF PK PW PG PT PN PR")
			switch array {
			case "masculine":
				white = [][]string{row("E . C . D . D . C . E"), row("R N T G F K W G T N R"), rank3}
			case "feminine":
				rank3[5] = ""
				white = [][]string{row("E . C . F K W . C . E"), row("R N T G D PK D G T N R"), rank3}
				pks = [2]Square{SquareAt(5, 1), SquareAt(5, 8)}
			case "third":
				rank3[5] = ""
				if o["third-pawns"] == "zurafa" {
					rank3 = row("PP PF PW PC PE . PG PT PD PN PR")
				}
				white = [][]string{row("E . C . F K W . C . E"), row("R N D T G PK G T D N R"), rank3}
				pks = [2]Square{SquareAt(5, 1), SquareAt(5, 8)}
			}
		}
		v.Pieces = []PieceDef{{}}
		for _, t := range officers {
			v.Pieces = append(v.Pieces, named[t])
		}
		for _, t := range pawnsOf {
			p := PieceDef{Token: "P" + t, Pawn: true, Moves: pawnMoves(), Promo: PromoteOnLastRank, To: []string{t}}
			switch t {
			case "P":
				p.Name, p.Promo, p.To = "Pawn of pawns", PromotePawnOfPawns, []string{"J"}
			case "K":
				p.Name, p.To = "Pawn of kings", []string{"I"}
			default:
				p.Name = "Pawn of " + strings.ToLower(named[t].Name) + "s"
			}
			v.Pieces = append(v.Pieces, p)
		}
		v.PawnOfKingsStart = pks
		v.StartFEN = arrayFEN(11, 10, white, false, overrides) + " w Ss 00 0 1"
		if v.Exchange == nil {
			v.StartFEN = strings.Replace(v.StartFEN, " Ss ", " - ", 1)
		}
		return v
	}
}
