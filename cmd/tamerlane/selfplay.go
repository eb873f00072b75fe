package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"

	"tamerlane/internal/fsx"
	"tamerlane/selfplay"
)

// runFlags are the flags "selfplay" and "match" share.
type runFlags struct {
	out     string
	workers int
	pairs   int
	nodes   int64
	depth   int
	seed    uint64
	rules   string
	asJSON  bool
	quiet   bool
	shard   string
	shards  int
	set     map[string]bool
}

func (f *runFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.out, "o", "", "run directory (journals, games.pgn, positions.jsonl, summary.json)")
	fs.IntVar(&f.workers, "workers", 0, "game pairs played at once (default: number of CPUs)")
	fs.IntVar(&f.pairs, "pairs", 0, "game pairs per stream")
	fs.Int64Var(&f.nodes, "nodes", 0, "nodes per move")
	fs.IntVar(&f.depth, "depth", 0, "depth per move (instead of or besides nodes)")
	fs.Uint64Var(&f.seed, "seed", 0, "run seed")
	fs.StringVar(&f.rules, "rules", "", "rule options k=v,k=v (docs/rules.md 3.8)")
	fs.BoolVar(&f.asJSON, "json", false, "print the result as one JSON line (with games per hour)")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress output")
}

// visited records which flags were given.
func (f *runFlags) visited(fs *flag.FlagSet) {
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
}

// check refuses, by the flag's name, a count out of range, before any
// configuration or run directory is read or made.
func (f *runFlags) check() error {
	if f.set["workers"] {
		if err := selfplay.CheckWorkers(f.workers); err != nil {
			return fmt.Errorf("--workers: %v", err)
		}
	}
	if f.set["pairs"] {
		if err := selfplay.CheckPairs(f.pairs); err != nil {
			return fmt.Errorf("--pairs: %v", err)
		}
	}
	return nil
}

// overrides returns the flags given, as overrides of a configuration;
// table is the --weights flag's value (nil: not given).
func (f *runFlags) overrides(table *string) selfplay.Overrides {
	var o selfplay.Overrides
	apply := map[string]func(){
		"nodes": func() { o.Nodes = &f.nodes }, "depth": func() { o.Depth = &f.depth },
		"seed": func() { o.Seed = &f.seed }, "workers": func() { o.Workers = &f.workers },
		"pairs": func() { o.Pairs = &f.pairs }, "rules": func() { o.Rules = &f.rules },
		"weights": func() { o.Table = table },
	}
	for name := range f.set {
		if set, ok := apply[name]; ok {
			set()
		}
	}
	return o
}

// shardFromFlags reads --shard i/n, or --shards n with the index from
// JOB_COMPLETION_INDEX (Kubernetes indexed jobs) or SLURM_ARRAY_TASK_ID.
func (f *runFlags) shardFromFlags() (*selfplay.Shard, error) {
	switch {
	case f.shard != "" && f.shards != 0:
		return nil, errors.New("give --shard i/n or --shards n, not both")
	case f.shard != "":
		s, err := selfplay.ParseShard(f.shard)
		return &s, err
	case f.shards != 0:
		if f.shards < 1 {
			return nil, fmt.Errorf("--shards %d: want at least 1", f.shards)
		}
		for _, env := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
			if v := os.Getenv(env); v != "" {
				i, err := strconv.Atoi(v)
				if err != nil || i < 0 || i >= f.shards {
					return nil, fmt.Errorf("%s=%q is not a shard index below %d", env, v, f.shards)
				}
				return &selfplay.Shard{Index: i, Count: f.shards}, nil
			}
		}
		return nil, errors.New("--shards needs JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID in the environment")
	}
	return nil, nil
}

// throughput is the --json line of selfplay.
type throughput struct {
	Dir          string  `json:"dir"`
	Complete     bool    `json:"complete"`
	Workers      int     `json:"workers"`
	Nodes        int64   `json:"nodes"`
	Depth        int     `json:"depth"`
	PairsPlayed  int     `json:"pairs_played"`
	GamesPlayed  int     `json:"games_played"`
	WallSeconds  float64 `json:"wall_seconds"`
	GamesPerHour float64 `json:"games_per_hour"`
	MeanPlies    float64 `json:"mean_plies"`
}

func runSelfplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("selfplay", stderr)
	var rf runFlags
	rf.register(fs)
	config := fs.String("c", "", "YAML configuration (see the selfplay package documentation)")
	var va variantArg
	va.register(fs, "", "quick run of one variant (replaces the config's streams)")
	weights := fs.String("weights", "", "evaluation table for every stream (default: the embedded one)")
	fs.StringVar(&rf.shard, "shard", "", "play only the pairs of shard i/n (index % n == i)")
	fs.IntVar(&rf.shards, "shards", 0, "number of shards; the index comes from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tamerlane selfplay -c CONFIG -o DIR [--shard i/n | --shards n] [flags]")
		fmt.Fprintln(stderr, "       tamerlane selfplay -o DIR (--variant V | --variant-file FILE) [--pairs N] [--nodes N] [--workers N] [--seed N] [--rules R] [--weights FILE]")
		fmt.Fprintln(stderr, "       tamerlane selfplay -o DIR   (resume the run in DIR)")
		fmt.Fprintln(stderr, "Flags override the configuration's values. Running the same command again resumes.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rf.visited(fs)
	if rf.out == "" {
		fmt.Fprintln(stderr, "tamerlane selfplay: -o DIR is required")
		return errUsage
	}
	if err := rf.check(); err != nil {
		return err
	}
	if err := va.check(rf.rules); err != nil {
		return err
	}
	var cfg *selfplay.Config
	var err error
	switch {
	case *config != "":
		data, rerr := fsx.ReadFile(*config, fsx.MaxConfigBytes)
		if rerr != nil {
			return rerr
		}
		if cfg, err = selfplay.ParseConfig(data, *config); err != nil {
			return err
		}
	case va.given():
		cfg = selfplay.DefaultConfig()
		if !rf.set["pairs"] {
			rf.pairs, rf.set["pairs"] = 100, true
		}
	default:
		if kind, _ := fsx.DirKind(rf.out); kind == "" {
			fmt.Fprintln(stderr, "tamerlane selfplay: give -c CONFIG, --variant V or --variant-file FILE (or -o DIR of an existing run to resume it)")
			return errUsage
		}
		if cfg, err = selfplay.LoadRunConfig(rf.out); err != nil {
			return err
		}
	}
	if va.given() {
		cfg.Variants = []selfplay.VariantConfig{{Variant: va.variant, VariantFile: va.absFile()}}
		cfg.Imbalances, cfg.Matches = nil, nil
	}
	if err := cfg.Apply(rf.overrides(weights)); err != nil {
		return err
	}
	shard, err := rf.shardFromFlags()
	if err != nil {
		return err
	}
	if shard != nil {
		cfg.Shard = *shard
	}
	if err := cfg.Validate(); err != nil {
		if va.given() { // the one stream is the flags'
			err = flagFieldErrors(err, "variants[0]", map[string]string{
				"variant": "--variant", "variant_file": "--variant-file", "rules": "--rules", "pairs": "--pairs", "table": "--weights",
			})
		}
		return err
	}
	opts := selfplay.RunOptions{}
	if !rf.quiet {
		opts.Progress = stderr
	}
	res, runErr := selfplay.Run(ctx, cfg, rf.out, opts)
	runErr = resumable(rf.out, runErr)
	if res == nil {
		return runErr
	}
	if rf.asJSON {
		t := throughput{Dir: rf.out, Complete: res.Summary.Complete, Workers: res.Timing.Workers, Nodes: cfg.Nodes, Depth: cfg.Depth,
			PairsPlayed: res.Timing.PairsPlayed, GamesPlayed: res.Timing.GamesPlayed, WallSeconds: res.Timing.WallSeconds,
			GamesPerHour: res.Timing.GamesPerHour}
		plies, games := 0, 0
		for _, s := range res.Summary.Streams {
			plies += s.Plies
			games += s.Games
		}
		if games > 0 {
			t.MeanPlies = float64(plies) / float64(games)
		}
		if err := json.NewEncoder(stdout).Encode(t); err != nil {
			return err
		}
		return runErr
	}
	printSummary(stdout, res.Summary)
	fmt.Fprintf(stdout, "played %d game pairs in %.1f s (%.0f games/hour, %d workers); outputs in %s\n",
		res.Timing.PairsPlayed, res.Timing.WallSeconds, res.Timing.GamesPerHour, res.Timing.Workers, rf.out)
	return runErr
}

// printSummary prints one line per stream.
func printSummary(w io.Writer, s *selfplay.Summary) {
	for _, st := range s.Streams {
		if st.Pairs == 0 {
			fmt.Fprintf(w, "%-20s %4d/%d pairs\n", st.Name, st.Pairs, st.PairsPlanned)
			continue
		}
		fmt.Fprintf(w, "%-20s %4d/%d pairs  White +%d =%d -%d  first player %.3f [%.3f, %.3f]  Elo %s  mean %.0f plies, %d positions\n",
			st.Name, st.Pairs, st.PairsPlanned, st.White.Wins, st.White.Draws, st.White.Losses,
			float64(st.Score.Value), float64(st.Score.Lo), float64(st.Score.Hi), st.Elo.String(), float64(st.MeanPlies), st.Positions)
		if st.SPRT != nil {
			fmt.Fprintf(w, "%-20s SPRT [%g, %g]: LLR %.2f [%.2f, %.2f] %s\n", "", float64(st.SPRT.Elo0), float64(st.SPRT.Elo1),
				float64(st.SPRT.LLR), float64(st.SPRT.Lower), float64(st.SPRT.Upper), st.SPRT.Decision)
		}
	}
	if !s.Complete {
		fmt.Fprintln(w, "incomplete: run the same command again to finish")
	}
}
