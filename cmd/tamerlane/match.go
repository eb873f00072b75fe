package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"tamerlane/selfplay"
)

func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("match", stderr)
	var rf runFlags
	rf.register(fs)
	var va variantArg
	va.register(fs, "", "variant")
	a := fs.String("a", "", "player A's evaluation table (default: the embedded one)")
	b := fs.String("b", "", "player B's evaluation table (default: the embedded one)")
	sprt := fs.String("sprt", "", "SPRT bounds elo0,elo1[,alpha,beta] in normalized Elo (alpha = beta = 0.05 by default)")
	config := fs.String("c", "", "YAML configuration for the other settings (openings, adjudication, ...); its streams are ignored")
	openings := fs.String("openings", "", "file of start FENs, one per line (default: random walks)")
	var ef engineFlags
	ef.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tamerlane match (--variant V | --variant-file FILE) --a TABLE --b TABLE [--engine-b CMD [--engine-b-option Name=Value] [--tc S+I]] [--nodes N] [--sprt elo0,elo1] [--pairs N] [--rules R] [-o DIR]")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rf.visited(fs)
	if !va.given() {
		fmt.Fprintln(stderr, "tamerlane match: --variant or --variant-file is required")
		return errUsage
	}
	if err := rf.check(); err != nil {
		return err
	}
	if err := va.check(rf.rules); err != nil {
		return err
	}
	spec := selfplay.MatchSpec{Variant: va.variant, VariantFile: va.absFile(), Rules: rf.rules, A: *a, B: *b, Seed: rf.seed, OpeningsFile: *openings, Pairs: rf.pairs}
	var err error
	if spec.EngineA, spec.EngineB, err = ef.specs(); err != nil {
		return err
	}
	if *config != "" {
		base, err := selfplay.LoadConfig(*config)
		if err != nil {
			return err
		}
		spec.Base = base
	}
	if !rf.set["pairs"] {
		spec.Pairs = 500
		if *sprt != "" {
			spec.Pairs = 20000
		}
	}
	if *sprt != "" {
		s, err := parseSPRT(*sprt)
		if err != nil {
			return err
		}
		spec.SPRT = s
	}
	cfg := spec.Config()
	o := rf.overrides(nil)
	o.Pairs, o.Rules = nil, nil // already in the spec
	if err := cfg.Apply(o); err != nil {
		return err
	}
	if !rf.set["seed"] && spec.Base != nil {
		cfg.Seed = spec.Base.Seed
	}
	if err := cfg.Validate(); err != nil {
		return flagFieldErrors(err, "matches[0]", map[string]string{
			"variant": "--variant", "variant_file": "--variant-file", "rules": "--rules", "pairs": "--pairs", "a": "--a", "b": "--b",
			"a_engine": "--engine-a", "b_engine": "--engine-b", "openings_file": "--openings", "sprt": "--sprt",
		})
	}
	// Run through Match's configuration, with the flags applied.
	opts := selfplay.RunOptions{}
	if !rf.quiet {
		opts.Progress = stderr
	}
	spec.Base, spec.Nodes, spec.Depth, spec.Seed = cfg, cfg.Nodes, cfg.Depth, cfg.Seed
	res, runErr := selfplay.Match(ctx, spec, rf.out, opts)
	runErr = resumable(rf.out, runErr)
	if res == nil {
		return runErr
	}
	if rf.asJSON {
		if err := json.NewEncoder(stdout).Encode(res.Stream); err != nil {
			return err
		}
		return runErr
	}
	s := res.Stream
	limit := fmt.Sprintf("%d nodes/move", cfg.Nodes)
	if ef.tc != "" {
		ours := ""
		if spec.EngineA == nil || spec.EngineB == nil {
			ours = ", this engine at " + limit
		}
		limit = "outside engines at " + ef.tc + ours
	}
	fmt.Fprintf(stdout, "%s vs %s (%s, %s): %d pairs, %d games, A +%d =%d -%d, pentanomial %v\n",
		s.First, s.Second, s.Variant, limit, s.Pairs, s.Games, s.FirstPlayer.Wins, s.FirstPlayer.Draws, s.FirstPlayer.Losses, s.Pentanomial)
	fmt.Fprintf(stdout, "score %.4f [%.4f, %.4f]  Elo %s (95%%)  nElo %s\n", float64(s.Score.Value), float64(s.Score.Lo), float64(s.Score.Hi), s.Elo.String(), s.NElo.String())
	if s.SPRT != nil {
		fmt.Fprintf(stdout, "SPRT nElo [%g, %g] alpha %g beta %g: LLR %.3f [%.3f, %.3f] -> %s", float64(s.SPRT.Elo0), float64(s.SPRT.Elo1),
			float64(s.SPRT.Alpha), float64(s.SPRT.Beta), float64(s.SPRT.LLR), float64(s.SPRT.Lower), float64(s.SPRT.Upper), s.SPRT.Decision)
		if s.SPRT.DecidedAt > 0 {
			fmt.Fprintf(stdout, " after %d pairs", s.SPRT.DecidedAt)
		}
		fmt.Fprintln(stdout)
	}
	return runErr
}

// parseSPRT parses "elo0,elo1[,alpha,beta]".
func parseSPRT(s string) (*selfplay.SPRTConfig, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 4 {
		return nil, fmt.Errorf("--sprt %q: want elo0,elo1 or elo0,elo1,alpha,beta", s)
	}
	var x [4]float64
	x[2], x[3] = 0.05, 0.05
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return nil, fmt.Errorf("--sprt %q: %v", s, err)
		}
		x[i] = v
	}
	return &selfplay.SPRTConfig{Elo0: x[0], Elo1: x[1], Alpha: x[2], Beta: x[3], Model: "normalized"}, nil
}
