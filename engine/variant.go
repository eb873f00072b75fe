package engine

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Citadel is one of Tamerlane's citadels (docs/rules.md 3.1).
type Citadel struct {
	Square Square
	Owner  Color
}

// CastlingRule is one castling move: the King and a Rook move at once under
// the orthodox conditions. Right indexes the variant's Rights.
type CastlingRule struct {
	Color            Color
	KingFrom, KingTo Square
	RookFrom, RookTo Square
	Right            int
}

// RightDef is one FEN right: a castling right, a Prince's first-move right
// (docs/rules.md 2.6) or a once-per-game King swap (docs/rules.md 3.7). Touching any of
// Clear (moving from or to it) removes the right.
type RightDef struct {
	Char  byte
	Color Color
	Clear []Square
	Swap  bool
}

// ExchangeTrigger says when a King may exchange places with a partner.
type ExchangeTrigger uint8

// Exchange triggers.
const (
	// InCheckOrNoMove: Tamerlane's swap (docs/rules.md 3.5), in check or without another legal move.
	InCheckOrNoMove ExchangeTrigger = iota
	// InCheck: option swap=check.
	InCheck
	// Checkmated: Tamerlane II's succession (docs/rules.md 2.4).
	Checkmated
)

// ExchangeRule describes a King's exchange of squares with an own piece:
// Tamerlane's swap and Tamerlane II's succession.
type ExchangeRule struct {
	Trigger  ExchangeTrigger
	Once     bool // needs and spends the side's swap right
	HeirOnly bool // the partner must be an Heir (a Prince); else any non-royal piece
}

// StalemateResult says how a stalemate ends.
type StalemateResult uint8

// Stalemate results.
const (
	StalemateDraw StalemateResult = iota
	StalemateLoses
)

// FENRights names the third FEN field's meaning.
type FENRights uint8

// Kinds of the third FEN field.
const (
	RightsCastling FENRights = iota // KQkq
	RightsPrinces                   // files of unmoved Princes, e.g. EGeg (docs/rules.md 2.6)
	RightsSwaps                     // Ss (docs/rules.md 3.7)
	RightsNone                      // always "-"
)

// Variant is one game: a board, an array, pieces and rule switches. Build a
// variant with NewVariant; its fields are read-only after construction.
type Variant struct {
	Name        string
	Title       string
	Files       int
	Ranks       int
	Pieces      []PieceDef // index 0 is unused (PieceType 0 is no piece)
	StartFEN    string
	Citadels    []Citadel
	Castling    []CastlingRule
	Rights      []RightDef
	RightsField FENRights
	// PawnOfPawns: the fourth FEN field counts pawn-of-pawns arrivals
	// (docs/rules.md 3.7) instead of naming an en passant square.
	PawnOfPawns bool
	// PawnOfKingsStart is where a pawn of pawns goes on its second arrival.
	PawnOfKingsStart [2]Square
	Exchange         *ExchangeRule
	Stalemate        StalemateResult
	// BareKingLoses: shatranj's bare King rule (docs/rules.md 5.2).
	BareKingLoses bool
	// InsufficientMaterial: orthodox dead-position draws (docs/rules.md 5.1).
	InsufficientMaterial bool
	// MoveRule is the number of plies without capture, pawn move or
	// promotion after which the game is drawn (0: none).
	MoveRule int
	// Options are the rule options in force (docs/rules.md 3.8), canonical.
	Options Options

	c compiled
}

// Options are rule options as key/value pairs (docs/rules.md 3.8).
type Options map[string]string

// String formats options canonically as sorted k=v pairs separated by commas.
func (o Options) String() string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + o[k]
	}
	return strings.Join(parts, ",")
}

// ParseOptions parses "k=v,k=v" (empty: no options). It checks syntax only;
// NewVariant checks the keys and values against the variant.
func ParseOptions(s string) (Options, error) {
	o := Options{}
	s = strings.TrimSpace(s)
	if s == "" {
		return o, nil
	}
	for _, part := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return nil, fmt.Errorf("rules: %s is not of the form key=value", quoteClipped(part, maxEcho))
		}
		if _, dup := o[k]; dup {
			return nil, fmt.Errorf("rules: option %s given twice", quoteClipped(k, maxEcho))
		}
		o[k] = v
	}
	return o, nil
}

// VariantWithRules returns the variant called name with the rule options
// written "k=v,k=v" (empty: the defaults): ParseOptions then NewVariant,
// the one way a variant is built from a name and a rules string.
func VariantWithRules(name, rules string) (*Variant, error) {
	opts, err := ParseOptions(rules)
	if err != nil {
		return nil, err
	}
	return NewVariant(name, opts)
}

// optionSpec is one rule option a variant accepts.
type optionSpec struct {
	key     string
	def     string
	allowed []string // nil: a non-negative integer
}

func (s optionSpec) check(v string) error {
	if s.allowed == nil {
		if n, err := strconv.Atoi(v); err != nil || n < 0 {
			return fmt.Errorf("rules: option %s=%s: want a non-negative integer", s.key, clipped(v, maxEcho))
		}
		return nil
	}
	for _, a := range s.allowed {
		if a == v {
			return nil
		}
	}
	return fmt.Errorf("rules: option %s=%s: want one of %s", s.key, clipped(v, maxEcho), strings.Join(s.allowed, ", "))
}

// variantSpec is one row of the variant table.
type variantSpec struct {
	name    string
	title   string
	options []optionSpec
	build   func(o Options) *Variant
}

// VariantNames lists the variants in table order.
func VariantNames() []string {
	names := make([]string, len(variantTable))
	for i, s := range variantTable {
		names[i] = s.name
	}
	return names
}

// NewVariant builds the named variant under the given rule options (nil or
// empty: the defaults). Unknown variants, unknown keys and bad values are
// errors naming them.
func NewVariant(name string, opts Options) (*Variant, error) {
	for _, s := range variantTable {
		if s.name != name {
			continue
		}
		full := Options{}
		for _, o := range s.options {
			full[o.key] = o.def
		}
		for k, v := range opts {
			var spec *optionSpec
			for i := range s.options {
				if s.options[i].key == k {
					spec = &s.options[i]
				}
			}
			if spec == nil {
				if len(s.options) == 0 {
					return nil, fmt.Errorf("rules: variant %s has no rule options (got %s)", name, quoteClipped(k, maxEcho))
				}
				keys := make([]string, len(s.options))
				for i, o := range s.options {
					keys[i] = o.key
				}
				return nil, fmt.Errorf("rules: unknown option %s for variant %s (known: %s)", quoteClipped(k, maxEcho), name, strings.Join(keys, ", "))
			}
			if err := spec.check(v); err != nil {
				return nil, err
			}
			full[k] = v
		}
		v := s.build(full)
		v.Name, v.Title, v.Options = s.name, s.title, full
		if err := v.compile(); err != nil {
			return nil, fmt.Errorf("variant %s: %w", name, err)
		}
		return v, nil
	}
	return nil, fmt.Errorf("unknown variant %s (known: %s)", quoteClipped(name, maxEcho), strings.Join(VariantNames(), ", "))
}

// MustVariant is NewVariant for names and options known to be valid; it
// panics otherwise (for tests and tables).
func MustVariant(name string, opts Options) *Variant {
	v, err := NewVariant(name, opts)
	if err != nil {
		panic(err)
	}
	return v
}

// PieceByToken returns the type whose FEN token (any case) is tok.
func (v *Variant) PieceByToken(tok string) (PieceType, bool) {
	t, ok := v.c.tokens[strings.ToUpper(tok)]
	return t, ok
}

// Def returns the definition of piece type t.
func (v *Variant) Def(t PieceType) *PieceDef { return &v.Pieces[t] }

// NumTypes returns the number of piece types (types are 1..NumTypes).
func (v *Variant) NumTypes() int { return len(v.Pieces) - 1 }

// OnBoard reports whether s is a square of the playing area (citadels excluded).
func (v *Variant) OnBoard(s Square) bool {
	f, r := s.File(), s.Rank()
	return s > 0 && int(s) < NumSquares && f >= 0 && f < v.Files && r >= 0 && r < v.Ranks
}

// IsCitadel reports whether s is one of the variant's citadels.
func (v *Variant) IsCitadel(s Square) bool { return s > 0 && int(s) < NumSquares && v.c.citBit[s] != 0 }

// CitadelOwner returns the owner of the citadel at s.
func (v *Variant) CitadelOwner(s Square) Color {
	for _, c := range v.Citadels {
		if c.Square == s {
			return c.Owner
		}
	}
	return White
}

// ParseSquare parses a square name ("e2", "a10", "l2", "z9") on this
// variant's board, citadels included.
func (v *Variant) ParseSquare(s string) (Square, error) {
	if len(s) < 2 || len(s) > 3 {
		return NoSquare, fmt.Errorf("bad square %q", s)
	}
	c := s[0]
	var f int
	switch {
	case c == 'z':
		f = -1
	case c >= 'a' && c <= 'l':
		f = int(c - 'a')
	default:
		return NoSquare, fmt.Errorf("bad square %q: file %q", s, c)
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return NoSquare, fmt.Errorf("bad square %q: rank %q", s, s[1:])
		}
	}
	r, err := strconv.Atoi(s[1:])
	if err != nil || r < 1 || r > v.Ranks || s[1] == '0' {
		return NoSquare, fmt.Errorf("bad square %q: rank %q", s, s[1:])
	}
	sq := SquareAt(f, r-1)
	if !v.OnBoard(sq) && !v.IsCitadel(sq) {
		return NoSquare, fmt.Errorf("square %q is not on the %s board", s, v.Name)
	}
	return sq, nil
}
