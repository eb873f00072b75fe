package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"tamerlane/engine"
	"tamerlane/internal/notation"
	"tamerlane/variantfile"
)

// variantArg is a command's --variant and --variant-file: a built-in
// variant by name, or a variant defined in a file (docs/variant-files.md),
// resolved by variantfile.Resolve. Every command that takes a variant
// takes it through this pair.
type variantArg struct {
	variant string
	file    string // --variant-file
}

// register adds --variant (default def; usage says what the variant is
// for) and --variant-file.
func (a *variantArg) register(fs interface {
	StringVar(*string, string, string, string)
}, def, usage string) {
	fs.StringVar(&a.variant, "variant", def, usage+": "+strings.Join(engine.VariantNames(), ", "))
	fs.StringVar(&a.file, "variant-file", "", "a variant defined in a file (YAML, docs/variant-files.md) instead of --variant")
}

// given reports whether either flag was given.
func (a *variantArg) given() bool { return a.variant != "" || a.file != "" }

// check refuses both flags at once, and rule options with a file.
func (a *variantArg) check(rules string) error {
	switch {
	case a.file == "":
		return nil
	case a.variant != "":
		return fmt.Errorf("--variant %s and --variant-file %s: give one of them", a.variant, a.file)
	case rules != "":
		return fmt.Errorf("--rules: a variant file sets its rules itself (--variant-file %s)", a.file)
	}
	return nil
}

// resolve builds the variant the flags name, under the rule options
// rules; an empty pair is an error that lists the variants.
func (a *variantArg) resolve(rules string) (*engine.Variant, error) {
	if err := a.check(rules); err != nil {
		return nil, err
	}
	if !a.given() {
		return nil, fmt.Errorf("--variant is required (one of %s), or --variant-file", strings.Join(engine.VariantNames(), ", "))
	}
	v, err := variantfile.Resolve(a.variant, rules, a.file)
	if err != nil && a.file != "" {
		return nil, fmt.Errorf("--variant-file: %w", err)
	}
	return v, err
}

// absFile returns --variant-file as an absolute path ("" when not given),
// for a configuration built from flags, whose paths are taken relative to
// the working directory.
func (a *variantArg) absFile() string {
	if a.file == "" {
		return ""
	}
	if p, err := filepath.Abs(a.file); err == nil {
		return p
	}
	return a.file
}

// variantFlags are the flags every command that sets up a position shares.
type variantFlags struct {
	variantArg
	fen   string
	rules string
	moves string // --moves, for the commands that registerMoves
}

func (f *variantFlags) register(fs interface {
	StringVar(*string, string, string, string)
}, def string) {
	f.variantArg.register(fs, def, "variant")
	fs.StringVar(&f.fen, "fen", "", "start from this FEN instead of the start position")
	fs.StringVar(&f.rules, "rules", "", "rule options k=v,k=v (docs/rules.md 3.8)")
}

// registerMoves adds --moves, the moves position plays before it returns.
func (f *variantFlags) registerMoves(fs interface {
	StringVar(*string, string, string, string)
}) {
	fs.StringVar(&f.moves, "moves", "", "moves to play first, space-separated (coordinate, UCI or SAN)")
}

// position builds the variant and position the flags describe, with the
// --moves played. An empty --variant is an error that lists the variants.
func (f *variantFlags) position() (*engine.Variant, *engine.Position, error) {
	v, err := f.build()
	if err != nil {
		return nil, nil, err
	}
	var p *engine.Position
	if f.fen == "" {
		p = engine.NewPosition(v)
	} else if p, err = engine.ParseFEN(v, f.fen); err != nil {
		return nil, nil, err
	}
	if err := playMoves(p, f.moves); err != nil {
		return nil, nil, err
	}
	return v, p, nil
}

// build builds the variant of --variant and --rules, or of --variant-file.
func (f *variantFlags) build() (*engine.Variant, error) { return f.resolve(f.rules) }

// playMoves plays the --moves flag's moves (coordinate, UCI or SAN,
// space-separated) on pos; the error names the move.
func playMoves(pos *engine.Position, moves string) error {
	for i, mv := range strings.Fields(moves) {
		if res, reason := pos.Outcome(); res != engine.Ongoing {
			return fmt.Errorf("--moves: move %d (%s): the game is already over (%s, %s)", i+1, mv, res, reason)
		}
		m, err := notation.ParseMove(pos, mv)
		if err != nil {
			if m, err = pos.ParseMove(mv); err != nil {
				return fmt.Errorf("--moves: move %d: %v", i+1, err)
			}
		}
		pos.Make(m)
	}
	return nil
}

// variantInfo is the JSON form of a variant.
type variantInfo struct {
	Name     string      `json:"name"`
	Title    string      `json:"title"`
	Files    int         `json:"files"`
	Ranks    int         `json:"ranks"`
	Citadels []string    `json:"citadels,omitempty"`
	StartFEN string      `json:"start_fen"`
	Options  string      `json:"options,omitempty"`
	Pieces   []pieceInfo `json:"pieces"`
}

type pieceInfo struct {
	Letter string `json:"letter"`
	Name   string `json:"name"`
	Moves  string `json:"moves"`
}

func runVariants(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("variants", stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	export := fs.String("export", "", "write this built-in variant as a variant file (YAML) and stop")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *export != "" {
		v, err := engine.NewVariant(*export, nil)
		if err != nil {
			return fmt.Errorf("--export: %w", err)
		}
		data, err := variantfile.Export(v)
		if err != nil {
			return err
		}
		_, err = stdout.Write(data)
		return err
	}
	var infos []variantInfo
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		info := variantInfo{Name: v.Name, Title: v.Title, Files: v.Files, Ranks: v.Ranks, StartFEN: v.StartFEN, Options: v.Options.String()}
		for _, c := range v.Citadels {
			info.Citadels = append(info.Citadels, c.Square.String())
		}
		for t := 1; t <= v.NumTypes(); t++ {
			d := v.Def(engine.PieceType(t))
			info.Pieces = append(info.Pieces, pieceInfo{Letter: d.Token, Name: d.Name, Moves: engine.DescribeMoves(v, engine.PieceType(t))})
		}
		infos = append(infos, info)
	}
	if *asJSON {
		return printJSON(stdout, infos)
	}
	for _, info := range infos {
		fmt.Fprintf(stdout, "%s: %s, %dx%d", info.Name, info.Title, info.Files, info.Ranks)
		if len(info.Citadels) > 0 {
			fmt.Fprintf(stdout, " + citadels %s", strings.Join(info.Citadels, ", "))
		}
		fmt.Fprintln(stdout)
		if info.Options != "" {
			fmt.Fprintf(stdout, "  options: %s\n", info.Options)
		}
		fmt.Fprintf(stdout, "  start: %s\n", info.StartFEN)
		for _, pc := range info.Pieces {
			fmt.Fprintf(stdout, "  %-3s %-20s %s\n", pc.Letter, pc.Name, pc.Moves)
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

// perftLine is one depth of perft output in JSON.
type perftLine struct {
	Variant string  `json:"variant"`
	FEN     string  `json:"fen"`
	Rules   string  `json:"rules"`
	Depth   int     `json:"depth"`
	Nodes   uint64  `json:"nodes"`
	Seconds float64 `json:"seconds"`
	NPS     float64 `json:"nps"`
}

func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("perft", stderr)
	var vf variantFlags
	vf.register(fs, "")
	depth := fs.Int("depth", 0, "depth (required)")
	divide := fs.Bool("divide", false, "print the count below each root move at the last depth")
	asJSON := fs.Bool("json", false, "print one JSON object per depth")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	v, p, err := vf.position()
	if err != nil {
		return err
	}
	if *depth < 1 {
		return fmt.Errorf("--depth must be at least 1")
	}
	enc := json.NewEncoder(stdout)
	for d := 1; d <= *depth; d++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		var nodes uint64
		if *divide && d == *depth {
			for _, e := range p.Divide(d) {
				fmt.Fprintf(stdout, "%s: %d\n", e.Move, e.Nodes)
				nodes += e.Nodes
			}
		} else {
			nodes = p.Perft(d)
		}
		secs := time.Since(start).Seconds()
		nps := 0.0
		if secs > 0 {
			nps = float64(nodes) / secs
		}
		if *asJSON {
			if err := enc.Encode(perftLine{v.Name, p.FEN(), v.Options.String(), d, nodes, secs, nps}); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(stdout, "depth %2d  nodes %14d  %8.3f s  %12.0f nodes/s\n", d, nodes, secs, nps)
	}
	return nil
}
