// Package variantfile reads and writes variant files: a variant defined
// in YAML, its pieces' movement in Betza notation (ParseBetza), built into
// the same engine.Variant the built-in variant table builds. The format
// is strict like every configuration of the project: an unknown field, a
// repeated key or a value of the wrong type is an error naming the file,
// the line and the field.
package variantfile

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
	"tamerlane/internal/yamlx"
)

// File is the YAML form of a variant.
type File struct {
	Name     string    `yaml:"name"`
	Title    string    `yaml:"title,omitempty"`
	Board    Board     `yaml:"board"`
	Citadels []Citadel `yaml:"citadels,omitempty"`
	Pieces   []Piece   `yaml:"pieces"`
	// Start is the start position as a FEN.
	Start    string   `yaml:"start"`
	Rights   *Rights  `yaml:"rights,omitempty"`
	Castling []Castle `yaml:"castling,omitempty"`
	Rules    Rules    `yaml:"rules"`
}

// Board is the playing area's size.
type Board struct {
	Files int `yaml:"files"`
	Ranks int `yaml:"ranks"`
}

// Citadel is a square beside the board that only royals enter
// (docs/rules.md 3.1).
type Citadel struct {
	Square string `yaml:"square"`
	Owner  string `yaml:"owner"` // white or black
}

// Piece is one piece type.
type Piece struct {
	Name   string `yaml:"name"`
	Letter string `yaml:"letter"` // FEN token in White's case: one or two capitals
	Betza  string `yaml:"betza"`  // movement (ParseBetza)
	Pawn   bool   `yaml:"pawn,omitempty"`
	Royal  bool   `yaml:"royal,omitempty"`
	// RoyalRank orders royals (docs/rules.md 3.5): 0 King, 1 Prince, 2
	// Adventitious King.
	RoyalRank        int         `yaml:"royal_rank,omitempty"`
	King             bool        `yaml:"king,omitempty"`               // castles, exchanges, is succeeded
	Heir             bool        `yaml:"heir,omitempty"`               // may succeed the King (docs/rules.md 2.4)
	EntersOwnCitadel bool        `yaml:"enters_own_citadel,omitempty"` // docs/rules.md 3.1
	DoubleStep       *DoubleStep `yaml:"double_step,omitempty"`
	// TakesEnPassant lets the piece's capture-only leaps take en passant.
	TakesEnPassant bool       `yaml:"takes_en_passant,omitempty"`
	Promotion      *Promotion `yaml:"promotion,omitempty"`
}

// DoubleStep is a move two squares forward through an empty square to an
// empty square, from a rank or while the piece keeps its first-move right.
type DoubleStep struct {
	Rank      int  `yaml:"rank,omitempty"` // the side's own rank, from 1
	FirstMove bool `yaml:"first_move,omitempty"`
	EnPassant bool `yaml:"en_passant,omitempty"` // the passed square is an en passant target
}

// Promotion says where and into what a piece promotes.
type Promotion struct {
	// On is last-rank (the default), far-corners or pawn-of-pawns.
	On string   `yaml:"on,omitempty"`
	To []string `yaml:"to,flow"`
	// Zone is the number of ranks, from the last, where the piece may
	// promote (1, the default: the last rank only); before the last rank
	// promotion is optional, on it compulsory (last-rank promotion only).
	Zone int `yaml:"zone,omitempty"`
	// OnlyCaptured limits the choice to the types of which the side has
	// fewer on the board than in the start array (Grand chess); a move to
	// the last rank with none left does not exist.
	OnlyCaptured bool `yaml:"only_captured,omitempty"`
}

// Rights are the FEN's third field: its kind and its letters in order.
type Rights struct {
	Kind string  `yaml:"kind"` // castling, princes, swaps or none
	List []Right `yaml:"list,omitempty"`
}

// Right is one letter of the rights field: a capital is White's. Moving
// from or to one of Clear removes it; Swap makes it a side's once-per-game
// King swap (docs/rules.md 3.7).
type Right struct {
	Char  string   `yaml:"char"`
	Clear []string `yaml:"clear,omitempty,flow"`
	Swap  bool     `yaml:"swap,omitempty"`
}

// Castle is one castling move, "e1-g1" for the King and "h1-f1" for the
// Rook, under the right named by its letter.
type Castle struct {
	Right string `yaml:"right"`
	King  string `yaml:"king"`
	Rook  string `yaml:"rook"`
}

// Rules are the variant's rule switches.
type Rules struct {
	Stalemate            string    `yaml:"stalemate,omitempty"` // draw (the default) or loses
	BareKingLoses        bool      `yaml:"bare_king_loses,omitempty"`
	InsufficientMaterial bool      `yaml:"insufficient_material,omitempty"`
	MoveRule             int       `yaml:"move_rule,omitempty"` // plies without capture or pawn move; 0: none
	Exchange             *Exchange `yaml:"exchange,omitempty"`
	// PawnOfPawns: the FEN's fourth field counts pawn-of-pawns arrivals
	// (docs/rules.md 3.4); KingsStart are where a pawn of pawns goes on
	// its second arrival, White's then Black's.
	PawnOfPawns *PawnOfPawns `yaml:"pawn_of_pawns,omitempty"`
}

// Exchange is a King's exchange of squares with an own piece.
type Exchange struct {
	Trigger  string `yaml:"trigger"` // check-or-no-move, check or checkmated
	Once     bool   `yaml:"once,omitempty"`
	HeirOnly bool   `yaml:"heir_only,omitempty"`
}

// PawnOfPawns holds Tamerlane's pawn-of-pawns squares.
type PawnOfPawns struct {
	KingsStart []string `yaml:"kings_start,flow"`
}

var (
	nameRE   = regexp.MustCompile(`^[a-z][a-z0-9-]{0,39}$`)
	letterRE = regexp.MustCompile(`^[A-Z]{1,2}$`)
)

// Read decodes a variant file's bytes (name names it in errors) and
// builds its variant. Every error names the file, the line and the field.
func Read(data []byte, name string) (*engine.Variant, error) {
	var f File
	src, err := yamlx.Decode(data, name, &f)
	if err != nil {
		return nil, err
	}
	b := &builder{src: src, f: &f}
	v := b.build()
	if len(b.errs) > 0 {
		return nil, yamlx.Join(b.errs)
	}
	if err := engine.NewCustomVariant(v); err != nil {
		field := ""
		var fe *engine.FENError
		if errors.As(err, &fe) || strings.Contains(err.Error(), "start FEN") {
			field = "start"
		}
		return nil, src.ErrAt(field, "%v", err)
	}
	start := engine.NewPosition(v)
	us := start.SideToMove()
	for _, sq := range start.Royals(us.Other()) {
		if start.Attacked(sq, us) {
			return nil, src.ErrAt("start", "%s's royal piece on %s is attacked with %s to move", us.Other(), sq, us)
		}
	}
	for c := engine.White; c <= engine.Black; c++ {
		n := 0
		for _, sq := range start.Pieces(c) {
			if v.Def(start.At(sq).Type()).Promo == engine.PromotePawnOfPawns {
				n++
			}
		}
		if n > 1 {
			return nil, src.ErrAt("start", "%s has %d pawns of pawns: the rules count the arrivals of one (docs/rules.md 3.4)", c, n)
		}
	}
	same, err := builtinOf(v)
	if err != nil {
		return nil, src.ErrAt("name", "%v", err)
	}
	return same, nil
}

// Load reads the variant file at path (a regular file of at most
// fsx.MaxConfigBytes, as every configuration).
func Load(path string) (*engine.Variant, error) {
	data, err := fsx.ReadFile(path, fsx.MaxConfigBytes)
	if err != nil {
		return nil, err
	}
	return Read(data, path)
}

// builder turns a decoded File into a Variant, gathering errors.
type builder struct {
	src  *yamlx.Source
	f    *File
	v    *engine.Variant
	errs []*yamlx.Error
}

func (b *builder) errf(path, format string, a ...any) {
	b.errs = append(b.errs, b.src.ErrAt(path, format, a...))
}

func (b *builder) build() *engine.Variant {
	f := b.f
	v := &engine.Variant{Name: f.Name, Title: f.Title, Files: f.Board.Files, Ranks: f.Board.Ranks, StartFEN: strings.TrimSpace(f.Start)}
	b.v = v
	if !nameRE.MatchString(f.Name) {
		b.errf("name", "%q: want a lowercase name of letters, digits and '-' (at most 40)", f.Name)
	}
	if v.Title == "" {
		v.Title = f.Name
	}
	if f.Board.Files < 1 || f.Board.Files > engine.MaxFiles || f.Board.Ranks < 2 || f.Board.Ranks > engine.MaxRanks {
		b.errf("board", "%dx%d: the engine's boards have 1 to %d files and 2 to %d ranks", f.Board.Files, f.Board.Ranks, engine.MaxFiles, engine.MaxRanks)
		return v
	}
	if v.StartFEN == "" {
		b.errf("start", "missing: the start position as a FEN")
	}
	for i, c := range f.Citadels {
		p := fmt.Sprintf("citadels[%d]", i)
		sq, ok := b.square(p+".square", c.Square)
		col, okc := b.color(p+".owner", c.Owner)
		if ok && okc {
			v.Citadels = append(v.Citadels, engine.Citadel{Square: sq, Owner: col})
		}
	}
	b.pieces()
	b.rights()
	b.rules()
	return v
}

// square parses a square name: files a to l, z for the citadel left of
// the board, ranks from 1.
func (b *builder) square(path, s string) (engine.Square, bool) {
	if len(s) >= 2 && len(s) <= 3 && (s[0] >= 'a' && s[0] <= 'l' || s[0] == 'z') {
		f := int(s[0] - 'a')
		if s[0] == 'z' {
			f = -1
		}
		r := 0
		for _, ch := range s[1:] {
			if ch < '0' || ch > '9' {
				r = -1
				break
			}
			r = 10*r + int(ch-'0')
		}
		if r >= 1 && r <= b.v.Ranks && s[1] != '0' {
			return engine.SquareAt(f, r-1), true
		}
	}
	b.errf(path, "%q is not a square of a %dx%d board", s, b.v.Files, b.v.Ranks)
	return engine.NoSquare, false
}

func (b *builder) color(path, s string) (engine.Color, bool) {
	switch s {
	case "white":
		return engine.White, true
	case "black":
		return engine.Black, true
	}
	b.errf(path, "%q: want white or black", s)
	return engine.White, false
}
