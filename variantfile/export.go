package variantfile

import (
	"bytes"
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"tamerlane/engine"
)

// FromVariant describes a compiled variant as a File: Read of its
// Marshal builds a variant with the same moves in every position.
func FromVariant(v *engine.Variant) (*File, error) {
	f := &File{Name: v.Name, Title: v.Title, Board: Board{v.Files, v.Ranks}, Start: v.StartFEN}
	for _, c := range v.Citadels {
		f.Citadels = append(f.Citadels, Citadel{Square: c.Square.String(), Owner: c.Owner.String()})
	}
	for t := 1; t <= v.NumTypes(); t++ {
		d := v.Def(engine.PieceType(t))
		p, err := pieceOf(d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Name, err)
		}
		f.Pieces = append(f.Pieces, p)
	}
	if v.RightsField != engine.RightsNone || len(v.Rights) > 0 {
		r := &Rights{}
		for k, kind := range rightKinds {
			if kind == v.RightsField {
				r.Kind = k
			}
		}
		for _, rd := range v.Rights {
			if (rd.Char >= 'a') != (rd.Color == engine.Black) {
				return nil, fmt.Errorf("right %q: its case does not say its side", rd.Char)
			}
			rt := Right{Char: string(rd.Char), Swap: rd.Swap}
			for _, s := range rd.Clear {
				rt.Clear = append(rt.Clear, s.String())
			}
			r.List = append(r.List, rt)
		}
		f.Rights = r
	}
	for _, c := range v.Castling {
		f.Castling = append(f.Castling, Castle{Right: string(v.Rights[c.Right].Char),
			King: c.KingFrom.String() + "-" + c.KingTo.String(), Rook: c.RookFrom.String() + "-" + c.RookTo.String()})
	}
	f.Rules = Rules{BareKingLoses: v.BareKingLoses, InsufficientMaterial: v.InsufficientMaterial, MoveRule: v.MoveRule}
	if v.Stalemate == engine.StalemateLoses {
		f.Rules.Stalemate = "loses"
	}
	if e := v.Exchange; e != nil {
		x := &Exchange{Once: e.Once, HeirOnly: e.HeirOnly}
		for k, t := range triggers {
			if t == e.Trigger {
				x.Trigger = k
			}
		}
		f.Rules.Exchange = x
	}
	if v.PawnOfPawns {
		f.Rules.PawnOfPawns = &PawnOfPawns{KingsStart: []string{v.PawnOfKingsStart[0].String(), v.PawnOfKingsStart[1].String()}}
	}
	return f, nil
}

// pieceOf describes one piece type.
func pieceOf(d *engine.PieceDef) (Piece, error) {
	p := Piece{Name: d.Name, Letter: d.Token, Pawn: d.Pawn, Royal: d.Royal, RoyalRank: d.Rank, King: d.King,
		Heir: d.Heir, EntersOwnCitadel: d.OwnCit, TakesEnPassant: d.EPCapture}
	var moves []engine.Component
	for _, m := range d.Moves {
		if m.Kind != engine.DoubleStep {
			moves = append(moves, m)
			continue
		}
		if p.DoubleStep != nil || m.DF != 0 || m.DR != 1 || m.Mode != engine.MoveOnly {
			return p, fmt.Errorf("a double step other than one forward, move only")
		}
		p.DoubleStep = &DoubleStep{FirstMove: m.NeedsRight, EnPassant: m.EnPassant}
		if !m.NeedsRight {
			p.DoubleStep.Rank = int(m.FromRank) + 1
		}
	}
	s, err := FormatBetza(moves)
	if err != nil {
		return p, err
	}
	p.Betza = s
	if d.Promo != engine.NoPromotion {
		p.Promotion = &Promotion{To: append([]string(nil), d.To...)}
		switch d.Promo {
		case engine.PromoteOnFarCorners:
			p.Promotion.On = "far-corners"
		case engine.PromotePawnOfPawns:
			p.Promotion.On = "pawn-of-pawns"
		case engine.PromoteInZone:
			p.Promotion.OnlyCaptured = d.OnlyCaptured
			if d.Zone > 1 {
				p.Promotion.Zone = d.Zone
			}
		}
	}
	return p, nil
}

// Marshal writes a File as YAML, with a header comment.
func Marshal(f *File) ([]byte, error) {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# Variant %s (%s): movement in Betza notation, see docs/variant-files.md.\n", f.Name, f.Title)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Export writes a compiled variant in the variant file format.
func Export(v *engine.Variant) ([]byte, error) {
	f, err := FromVariant(v)
	if err != nil {
		return nil, fmt.Errorf("variant %s: %w", v.Name, err)
	}
	return Marshal(f)
}

// builtinOf returns the built-in variant v names, or v itself when its
// name is not a built-in one. A file may take a built-in variant's name
// only when it describes that variant exactly at its default rule
// options (as its export does): what is keyed by a variant's name
// (evaluation tables, the registry) then stays right, and the built-in
// itself, with its options, stands for the file.
func builtinOf(v *engine.Variant) (*engine.Variant, error) {
	if !slices.Contains(engine.VariantNames(), v.Name) {
		return v, nil
	}
	builtin, err := engine.NewVariant(v.Name, nil)
	if err != nil {
		return nil, err
	}
	a, errA := Export(builtin)
	b, errB := Export(v)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		return nil, fmt.Errorf("%q is a built-in variant and this file differs from it at its default rule options: give the variant another name", v.Name)
	}
	return builtin, nil
}

// IsBuiltin reports whether v is a built-in variant (built from the
// table, or read from a file that describes one exactly).
func IsBuiltin(v *engine.Variant) bool { return IsBuiltinName(v.Name) }

// IsBuiltinName reports whether name is a built-in variant's name.
func IsBuiltinName(name string) bool { return slices.Contains(engine.VariantNames(), name) }
