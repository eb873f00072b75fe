package selfplay

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
	"tamerlane/variantfile"
)

// PGNTag is one tag pair of a PGN game.
type PGNTag struct {
	Name, Value string
}

// PGNGame is one game read from a PGN file.
type PGNGame struct {
	// Line is the line of the game's first tag.
	Line int
	// Tags in file order.
	Tags []PGNTag
	// Moves are the move tokens (SAN) in order.
	Moves []string
	// Comments holds the comment after each move ("" if none).
	Comments []string
	// Result is the game termination marker ("1-0", "0-1", "1/2-1/2", "*").
	Result string
}

// Tag returns the value of the named tag ("" if absent).
func (g *PGNGame) Tag(name string) string {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// Replay builds the game's variant from its Variant and Rules tags and its
// start position from the FEN tag (or the variant's start), then plays
// the moves, returning the start position (unchanged) and the moves.
func (g *PGNGame) Replay() (*engine.Position, []engine.Move, error) {
	name := g.Tag("Variant")
	if name == "" {
		name = "chess"
	}
	v, err := engine.VariantWithRules(name, g.Tag("Rules"))
	if err != nil {
		return nil, nil, err
	}
	return g.ReplayIn(v)
}

// ReplayRecorded is Replay for a game of the run directory dir: a
// variant the run played from a variant file is read from the copy dir
// recorded (RunVariant).
func (g *PGNGame) ReplayRecorded(dir string) (*engine.Position, []engine.Move, error) {
	name := g.Tag("Variant")
	if name == "" {
		return g.Replay()
	}
	v, err := RunVariant(dir, name, g.Tag("Rules"))
	if err != nil {
		return nil, nil, err
	}
	return g.ReplayIn(v)
}

// RunVariant returns the variant name under the rule options rules as
// the run directory dir plays it (variantfile.RecordedVariant).
func RunVariant(dir, name, rules string) (*engine.Variant, error) {
	v, _, err := variantfile.RecordedVariant(dir, name, rules)
	return v, err
}

// ReplayIn plays the game in variant v, whatever its tags name: from its
// FEN tag or v's start position. It returns the start position and the
// moves; an error names the ply.
func (g *PGNGame) ReplayIn(v *engine.Variant) (*engine.Position, []engine.Move, error) {
	var pos *engine.Position
	var err error
	if fen := g.Tag("FEN"); fen != "" {
		if pos, err = engine.ParseFEN(v, fen); err != nil {
			return nil, nil, err
		}
	} else {
		pos = engine.NewPosition(v)
	}
	return replay(pos, g.Moves)
}

// replay plays moves (SAN or coordinate notation) from pos, which it
// changes, and returns a copy of pos as it was and the parsed moves; an
// error names the ply.
func replay(pos *engine.Position, moves []string) (*engine.Position, []engine.Move, error) {
	start := pos.Clone()
	out := make([]engine.Move, 0, len(moves))
	for i, s := range moves {
		m, err := pos.ParseMove(s)
		if err != nil {
			return nil, nil, fmt.Errorf("ply %d: %v", i+1, err)
		}
		out = append(out, m)
		pos.Make(m)
	}
	return start, out, nil
}

// ScanPGN reads PGN games from r and calls fn for each; name is used in
// errors, which give the line. Besides the files this package writes it
// reads what other programs and game databases export: recursive
// annotation variations and numeric annotation glyphs ($n) are skipped,
// as are a comment before the first move and a move's suffix annotation
// (!, ?, !?, ...); a game whose movetext lacks its termination marker
// takes its Result tag's.
func ScanPGN(r io.Reader, name string, fn func(*PGNGame) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	line := 0
	var g *PGNGame
	inComment := false
	depth := 0 // of the variation being skipped
	var comment strings.Builder
	finish := func() error {
		if g == nil {
			return nil
		}
		if depth > 0 {
			return fmt.Errorf("%s:%d: unterminated variation", name, g.Line)
		}
		if g.Result == "" {
			switch t := g.Tag("Result"); t {
			case "1-0", "0-1", "1/2-1/2", "*":
				g.Result = t
			default:
				return fmt.Errorf("%s:%d: game without a result", name, g.Line)
			}
		}
		err := fn(g)
		g = nil
		return err
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		trim := strings.TrimSpace(text)
		if !inComment && strings.HasPrefix(trim, "[") {
			if g != nil && (len(g.Moves) > 0 || g.Result != "") {
				if err := finish(); err != nil {
					return err
				}
			}
			if g == nil {
				g = &PGNGame{Line: line}
			}
			tagName, rest, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(trim, "["), "]"), " ")
			val := strings.TrimSpace(rest)
			if !ok || !strings.HasSuffix(trim, "]") || len(val) < 2 || val[0] != '"' || val[len(val)-1] != '"' {
				return fmt.Errorf("%s:%d: malformed tag %q", name, line, trim)
			}
			val = strings.ReplaceAll(strings.ReplaceAll(val[1:len(val)-1], `\"`, `"`), `\\`, `\`)
			g.Tags = append(g.Tags, PGNTag{tagName, val})
			continue
		}
		for i := 0; i < len(text); {
			if inComment {
				j := strings.IndexByte(text[i:], '}')
				if j < 0 {
					comment.WriteString(text[i:])
					comment.WriteByte(' ')
					break
				}
				comment.WriteString(text[i : i+j])
				inComment = false
				if g == nil {
					return fmt.Errorf("%s:%d: comment without tags", name, line)
				}
				if len(g.Moves) > 0 && depth == 0 {
					g.Comments[len(g.Comments)-1] = strings.TrimSpace(comment.String())
				}
				comment.Reset()
				i += j + 1
				continue
			}
			c := text[i]
			switch {
			case c == ' ' || c == '\t' || c == '\r':
				i++
				continue
			case c == '{':
				inComment = true
				i++
				continue
			case c == ';' || c == '%':
				i = len(text)
				continue
			case c == '(' || c == ')':
				if g == nil {
					return fmt.Errorf("%s:%d: variation without tags", name, line)
				}
				if c == '(' {
					depth++
				} else if depth--; depth < 0 {
					return fmt.Errorf("%s:%d: ')' without its variation", name, line)
				}
				i++
				continue
			}
			j := i
			for j < len(text) && !strings.ContainsRune(" \t\r{;()", rune(text[j])) {
				j++
			}
			tok := text[i:j]
			i = j
			if g == nil {
				return fmt.Errorf("%s:%d: movetext %q without tags", name, line, tok)
			}
			if depth > 0 || tok[0] == '$' {
				continue // a variation's move, or a NAG
			}
			if g.Result != "" {
				return fmt.Errorf("%s:%d: %q after the result", name, line, tok)
			}
			if n, move, ok := strings.Cut(tok, "."); ok && isDigits(n) {
				tok = strings.TrimLeft(move, ".") // "12.e4", "12...e5"
				if tok == "" {
					continue // a move number alone
				}
			}
			switch {
			case tok == "1-0" || tok == "0-1" || tok == "1/2-1/2" || tok == "*":
				g.Result = tok
			default:
				if m := strings.TrimRight(tok, "!?"); m != "" {
					tok = m
				}
				g.Moves = append(g.Moves, tok)
				g.Comments = append(g.Comments, "")
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %v", name, line+1, err)
	}
	if inComment {
		return fmt.Errorf("%s:%d: unterminated comment", name, line)
	}
	return finish()
}

// isDigits reports whether s is a non-empty run of decimal digits (a
// move number).
func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// ReadPGN reads every game of a PGN file. Errors name the file and line.
func ReadPGN(path string) ([]*PGNGame, error) {
	f, err := fsx.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*PGNGame
	err = ScanPGN(f, path, func(g *PGNGame) error {
		out = append(out, g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
