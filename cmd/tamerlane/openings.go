package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"tamerlane/engine"
	"tamerlane/selfplay"
)

// runOpenings writes a file of random-walk openings kept only when a
// scorer (this engine, or an outside UCI engine) finds them balanced: the
// --openings of match and the openings_file of a config.
func runOpenings(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("openings", stderr)
	variant := fs.String("variant", "", "variant: "+strings.Join(engine.VariantNames(), ", "))
	rules := fs.String("rules", "", "rule options k=v,k=v (docs/rules.md 3.8)")
	n := fs.Int("n", 100, "number of distinct openings")
	plies := fs.Int("plies", 8, "random plies from the start position")
	maxScore := fs.Int("max-score", 50, "keep an opening only if the scorer's centipawns differ from its score of the start position by at most this (0: keep every walk, unscored)")
	nodes := fs.Int64("score-nodes", 500, "nodes the scorer searches per opening")
	material := fs.Bool("material", true, "keep only walks that leave the material as at the start")
	attempts := fs.Int("attempts", 64, "walks tried per opening before the next seed")
	seed := fs.Uint64("seed", 1, "seed of the walks")
	weights := fs.String("weights", "", "evaluation table of this engine as the scorer (default: the embedded one)")
	cmd := fs.String("engine", "", "score with this outside UCI engine (command and arguments, space-separated) instead of this engine")
	name := fs.String("engine-name", "", "the outside engine's name in the file header (default: the command's base name)")
	var opts stringList
	fs.Var(&opts, "engine-option", "UCI option Name=Value for the outside engine (repeatable)")
	out := fs.String("o", "", "output file (one FEN per line, '#' comments)")
	force := fs.Bool("force", false, "replace the output file if it exists")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tamerlane openings --variant V -o FILE [-n N] [--plies P] [--max-score CP] [--score-nodes N] [--engine CMD [--engine-option Name=Value]]")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *variant == "" || *out == "" {
		fmt.Fprintln(stderr, "tamerlane openings: --variant and -o are required")
		return errUsage
	}
	v, err := engine.VariantWithRules(*variant, *rules)
	if err != nil {
		return err
	}
	eng, err := engineSpec("engine", *cmd, *name, opts)
	if err != nil {
		return err
	}
	if eng != nil && *weights != "" {
		return fmt.Errorf("--weights and --engine exclude each other: the openings have one scorer")
	}
	if eng != nil {
		if err := eng.Validate(); err != nil {
			return fmt.Errorf("--engine: %v", err)
		}
	}
	if *plies < 1 || *nodes < 1 || *attempts < 1 || *maxScore < 0 {
		return fmt.Errorf("--plies, --score-nodes and --attempts must be at least 1 and --max-score at least 0")
	}
	for _, c := range []struct {
		flag   string
		n, max int
	}{{"-n", *n, selfplay.MaxPairs}, {"--plies", *plies, selfplay.MaxWalkPlies}, {"--attempts", *attempts, selfplay.MaxAttempts}} {
		if c.n > c.max {
			return fmt.Errorf("%s %d: at most %d", c.flag, c.n, c.max)
		}
	}
	cfg := selfplay.OpeningConfig{Plies: *plies, MaxScore: *maxScore, ScoreNodes: *nodes, Material: *material, Attempts: *attempts}
	scorer := selfplay.PlayerSpec{Table: *weights, Engine: eng}
	ops, err := selfplay.GenerateOpenings(ctx, v, cfg, scorer, selfplay.DefaultFactory(), *n, *seed)
	if err != nil {
		return err
	}
	by := "this engine (" + tableName(*weights) + ")"
	if eng != nil {
		by = eng.Label()
	}
	kept := ""
	if *material {
		kept = ", material as at the start"
	}
	header := []string{
		fmt.Sprintf("%d %s openings: random walks of %d plies from the start position (seed %d)%s;", len(ops), v.Name, *plies, *seed, kept),
		scoreLine(*maxScore, *nodes, by),
		"tamerlane openings " + strings.Join(args, " "),
		"written " + time.Now().UTC().Format(time.RFC3339),
	}
	if err := selfplay.WriteOpenings(*out, header, ops, *force); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d openings to %s\n", len(ops), *out)
	return nil
}

// scoreLine describes how the openings were kept.
func scoreLine(maxScore int, nodes int64, by string) string {
	if maxScore == 0 {
		return "not scored."
	}
	return fmt.Sprintf("kept when %s at %d nodes scores them within %d cp of the start position (the score of each is White's, relative to the start).", by, nodes, maxScore)
}

// tableName names an evaluation table flag's value.
func tableName(path string) string {
	if path == "" {
		return "embedded table"
	}
	return path
}
