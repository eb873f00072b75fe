package variantfile

import (
	"fmt"
	"strings"

	"tamerlane/engine"
)

// maxPieceTypes is the engine's bound on piece types (a piece code is
// type<<1|color < 64).
const maxPieceTypes = 31

var promoKinds = map[string]engine.PromotionKind{
	"":              engine.PromoteOnLastRank,
	"last-rank":     engine.PromoteOnLastRank,
	"far-corners":   engine.PromoteOnFarCorners,
	"pawn-of-pawns": engine.PromotePawnOfPawns,
}

// pieces builds the piece table, checking letters, movement and
// promotions.
func (b *builder) pieces() {
	f, v := b.f, b.v
	if len(f.Pieces) == 0 {
		b.errf("pieces", "no pieces")
		return
	}
	if len(f.Pieces) > maxPieceTypes {
		b.errf("pieces", "%d piece types: the engine holds at most %d", len(f.Pieces), maxPieceTypes)
		return
	}
	letters := map[string]int{}
	v.Pieces = []engine.PieceDef{{}}
	royal := false
	for i, p := range f.Pieces {
		path := fmt.Sprintf("pieces[%d]", i)
		d := engine.PieceDef{Name: p.Name, Token: p.Letter, Pawn: p.Pawn, Royal: p.Royal, Rank: p.RoyalRank,
			King: p.King, Heir: p.Heir, OwnCit: p.EntersOwnCitadel, EPCapture: p.TakesEnPassant}
		if strings.TrimSpace(p.Name) == "" {
			b.errf(path+".name", "missing")
		}
		if !letterRE.MatchString(p.Letter) {
			b.errf(path+".letter", "%q: want one or two capital letters", p.Letter)
		} else if j, dup := letters[p.Letter]; dup {
			b.errf(path+".letter", "%q is also pieces[%d]'s letter", p.Letter, j)
		}
		letters[p.Letter] = i
		royal = royal || p.Royal
		if p.RoyalRank < 0 || p.RoyalRank > 2 || p.RoyalRank != 0 && !p.Royal {
			b.errf(path+".royal_rank", "%d: want 0 (King), 1 (Prince) or 2 (Adventitious King), on a royal piece", p.RoyalRank)
		}
		moves, err := ParseBetza(p.Betza)
		if err != nil {
			b.errf(path+".betza", "%v", err)
		}
		d.Moves = moves
		if ds := p.DoubleStep; ds != nil {
			c := engine.Component{Kind: engine.DoubleStep, DR: 1, Mode: engine.MoveOnly, NeedsRight: ds.FirstMove, EnPassant: ds.EnPassant, FromRank: int8(ds.Rank - 1)}
			if ds.FirstMove == (ds.Rank != 0) || ds.Rank < 0 || ds.Rank > v.Ranks {
				b.errf(path+".double_step", "want either rank (1 to %d) or first_move: true", v.Ranks)
			}
			if ds.FirstMove {
				c.FromRank = 0
			}
			d.Moves = append(d.Moves, c)
		}
		if pr := p.Promotion; pr != nil {
			b.promotion(path+".promotion", pr, &d)
		}
		v.Pieces = append(v.Pieces, d)
	}
	if !royal {
		b.errf("pieces", "no royal piece (royal: true): games end by the mate of a royal")
	}
	for i, p := range f.Pieces {
		if p.Promotion == nil {
			continue
		}
		for j, to := range p.Promotion.To {
			k, ok := letters[to]
			switch {
			case !ok:
				b.errf(fmt.Sprintf("pieces[%d].promotion.to[%d]", i, j), "%q: no piece has this letter", to)
			case f.Pieces[k].Promotion != nil:
				b.errf(fmt.Sprintf("pieces[%d].promotion.to[%d]", i, j), "%q promotes itself: a promoted piece would stand where it must promote", to)
			}
		}
	}
}

// promotion fills d's promotion, refusing what the engine cannot play.
func (b *builder) promotion(path string, pr *Promotion, d *engine.PieceDef) {
	kind, ok := promoKinds[pr.On]
	if !ok {
		b.errf(path+".on", "%q: want last-rank, far-corners or pawn-of-pawns", pr.On)
	}
	if pr.Zone < 0 || pr.Zone >= b.v.Ranks {
		b.errf(path+".zone", "%d ranks: want 1 to %d", pr.Zone, b.v.Ranks-1)
	}
	if (pr.Zone > 1 || pr.OnlyCaptured) && kind != engine.PromoteOnLastRank {
		b.errf(path+".on", "%s: a zone and only_captured go with last-rank promotion", pr.On)
	}
	if len(pr.To) == 0 {
		b.errf(path+".to", "no piece to promote to")
	}
	if kind != engine.PromoteOnLastRank && len(pr.To) != 1 {
		b.errf(path+".to", "%s promotes to exactly one piece", pr.On)
	}
	if kind == engine.PromotePawnOfPawns {
		forward := d.Pawn
		for _, m := range d.Moves {
			forward = forward && m.DR >= 1 && (m.Kind != engine.Bent || m.TR >= 0)
		}
		if !forward {
			b.errf(path+".on", "a pawn of pawns must be a pawn (pawn: true) whose every move goes forward (docs/rules.md 3.4)")
		}
	}
	if pr.Zone > 1 || pr.OnlyCaptured {
		kind, d.Zone, d.OnlyCaptured = engine.PromoteInZone, max(pr.Zone, 1), pr.OnlyCaptured
	}
	d.Promo, d.To = kind, append([]string(nil), pr.To...)
}

var rightKinds = map[string]engine.FENRights{
	"castling": engine.RightsCastling,
	"princes":  engine.RightsPrinces,
	"swaps":    engine.RightsSwaps,
	"none":     engine.RightsNone,
}

// rights builds the rights field and the castling moves.
func (b *builder) rights() {
	f, v := b.f, b.v
	v.RightsField = engine.RightsNone
	byChar := map[string]int{}
	if r := f.Rights; r != nil {
		kind, ok := rightKinds[r.Kind]
		if !ok {
			b.errf("rights.kind", "%q: want castling, princes, swaps or none", r.Kind)
		}
		v.RightsField = kind
		if kind == engine.RightsNone && len(r.List) > 0 {
			b.errf("rights.list", "rights of kind none have no letters")
		}
		if len(r.List) > 32 {
			b.errf("rights.list", "%d rights: at most 32", len(r.List))
			return
		}
		for i, rt := range r.List {
			path := fmt.Sprintf("rights.list[%d]", i)
			if len(rt.Char) != 1 || !(rt.Char[0] >= 'A' && rt.Char[0] <= 'Z' || rt.Char[0] >= 'a' && rt.Char[0] <= 'z') {
				b.errf(path+".char", "%q: want one letter, a capital for White", rt.Char)
				continue
			}
			if _, dup := byChar[rt.Char]; dup {
				b.errf(path+".char", "%q given twice", rt.Char)
			}
			byChar[rt.Char] = i
			def := engine.RightDef{Char: rt.Char[0], Color: engine.White, Swap: rt.Swap}
			if rt.Char[0] >= 'a' {
				def.Color = engine.Black
			}
			for j, s := range rt.Clear {
				if sq, ok := b.square(fmt.Sprintf("%s.clear[%d]", path, j), s); ok {
					def.Clear = append(def.Clear, sq)
				}
			}
			v.Rights = append(v.Rights, def)
		}
	}
	for i, c := range f.Castling {
		path := fmt.Sprintf("castling[%d]", i)
		ri, ok := byChar[c.Right]
		if !ok {
			b.errf(path+".right", "%q is not a letter of rights.list", c.Right)
			continue
		}
		kf, kt, ok1 := b.move(path+".king", c.King)
		rf, rt, ok2 := b.move(path+".rook", c.Rook)
		if ok1 && ok2 {
			v.Castling = append(v.Castling, engine.CastlingRule{Color: v.Rights[ri].Color, KingFrom: kf, KingTo: kt, RookFrom: rf, RookTo: rt, Right: ri})
		}
	}
}

// move parses "e1-g1".
func (b *builder) move(path, s string) (from, to engine.Square, ok bool) {
	a, c, found := strings.Cut(s, "-")
	if !found {
		b.errf(path, "%q: want from-to, e.g. e1-g1", s)
		return 0, 0, false
	}
	from, ok1 := b.square(path, a)
	to, ok2 := b.square(path, c)
	return from, to, ok1 && ok2
}

var triggers = map[string]engine.ExchangeTrigger{
	"check-or-no-move": engine.InCheckOrNoMove,
	"check":            engine.InCheck,
	"checkmated":       engine.Checkmated,
}

// rules sets the rule switches.
func (b *builder) rules() {
	r, v := &b.f.Rules, b.v
	switch r.Stalemate {
	case "", "draw":
		v.Stalemate = engine.StalemateDraw
	case "loses":
		v.Stalemate = engine.StalemateLoses
	default:
		b.errf("rules.stalemate", "%q: want draw or loses", r.Stalemate)
	}
	v.BareKingLoses, v.InsufficientMaterial = r.BareKingLoses, r.InsufficientMaterial
	if r.MoveRule < 0 {
		b.errf("rules.move_rule", "%d: want a number of plies, 0 for none", r.MoveRule)
	}
	v.MoveRule = r.MoveRule
	if e := r.Exchange; e != nil {
		t, ok := triggers[e.Trigger]
		if !ok {
			b.errf("rules.exchange.trigger", "%q: want check-or-no-move, check or checkmated", e.Trigger)
		}
		v.Exchange = &engine.ExchangeRule{Trigger: t, Once: e.Once, HeirOnly: e.HeirOnly}
	}
	pawnOfPawns := false
	for _, d := range v.Pieces {
		pawnOfPawns = pawnOfPawns || d.Promo == engine.PromotePawnOfPawns
	}
	if pawnOfPawns != (r.PawnOfPawns != nil) {
		b.errf("rules.pawn_of_pawns", "a piece promoting as a pawn of pawns and rules.pawn_of_pawns go together (docs/rules.md 3.4)")
	}
	if pp := r.PawnOfPawns; pp != nil {
		v.PawnOfPawns = true
		if len(pp.KingsStart) != 2 {
			b.errf("rules.pawn_of_pawns.kings_start", "want two squares, White's and Black's")
			return
		}
		for i, s := range pp.KingsStart {
			path := fmt.Sprintf("rules.pawn_of_pawns.kings_start[%d]", i)
			sq, ok := b.square(path, s)
			if ok && (i == 0 && sq.Rank() == v.Ranks-1 || i == 1 && sq.Rank() == 0) {
				b.errf(path, "%s is on the side's last rank, where the pawn would wait again", s)
			}
			v.PawnOfKingsStart[i] = sq
		}
	}
}
