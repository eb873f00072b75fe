package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
	"tamerlane/selfplay"
	"tamerlane/selfplay/quality"
)

// runQuality compares the moves of player A and player B, position by
// position, by an oracle's values (package quality).
func runQuality(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("quality", stderr)
	variant := fs.String("variant", "", "variant of --positions: "+strings.Join(engine.VariantNames(), ", "))
	rules := fs.String("rules", "", "rule options k=v,k=v of --positions (docs/rules.md 3.8)")
	positions := fs.String("positions", "", "file of FENs to judge, one per line")
	var runs stringList
	fs.Var(&runs, "run", "self-play or match run: judge the positions where its first player (A) moved, after the book (repeatable: the runs' positions together)")
	every := fs.Int("every", 4, "with --run: keep every N-th of those positions")
	limit := fs.Int("limit", 0, "judge at most this many positions (0: all)")
	a := fs.String("a", "", "player A's evaluation table (default: the embedded one)")
	b := fs.String("b", "", "player B's evaluation table (default: the embedded one)")
	nodes := fs.Int64("nodes", 20000, "node limit of players A and B per move")
	oracle := fs.String("oracle", "", "the oracle: an outside UCI engine (command and arguments; default: this engine at --oracle-nodes)")
	var oracleOpts stringList
	fs.Var(&oracleOpts, "oracle-option", "UCI option Name=Value of the oracle (repeatable)")
	oracleNodes := fs.Int64("oracle-nodes", 200000, "the oracle's node limit per move")
	workers := fs.Int("workers", 1, "positions judged at once")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	out := fs.String("o", "", "also write the report, with every position's moves and values, to this JSON file")
	var ef engineFlags
	ef.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tamerlane quality (--positions FILE --variant V | --run DIR... [--every N]) [--a TABLE] [--b TABLE | --engine-b CMD] [--nodes N] [--oracle CMD [--oracle-option Name=Value]] [--oracle-nodes N] [--workers N] [-o FILE]")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if (*positions == "") == (len(runs) == 0) {
		fmt.Fprintln(stderr, "tamerlane quality: give --positions FILE (with --variant) or --run DIR")
		return errUsage
	}
	if *nodes < 1 || *oracleNodes < 1 || *workers < 1 || *limit < 0 {
		return fmt.Errorf("--nodes, --oracle-nodes and --workers must be positive, --limit not negative")
	}
	if *workers > selfplay.MaxWorkers {
		return fmt.Errorf("--workers: want 1 to %d positions judged at once, got %d", selfplay.MaxWorkers, *workers)
	}
	var v *engine.Variant
	var fens []string
	var err error
	if len(runs) > 0 {
		if *variant != "" || *rules != "" {
			return fmt.Errorf("--variant and --rules come from the run with --run")
		}
		if *every < 1 {
			return fmt.Errorf("--every %d: want at least 1", *every)
		}
		for _, dir := range runs {
			rv, rf, err := quality.SampleRun(dir, *every)
			if err != nil {
				return fmt.Errorf("--run %s: %w", dir, err)
			}
			if v != nil && (rv.Name != v.Name || rv.Options.String() != v.Options.String()) {
				return fmt.Errorf("--run %s plays %s, --run %s %s: judge one variant at a time", runs[0], v.Name, dir, rv.Name)
			}
			v, fens = rv, append(fens, rf...)
		}
	} else {
		if *variant == "" {
			fmt.Fprintln(stderr, "tamerlane quality: --positions needs --variant")
			return errUsage
		}
		opts, err := engine.ParseOptions(*rules)
		if err != nil {
			return err
		}
		if v, err = engine.NewVariant(*variant, opts); err != nil {
			return err
		}
		if fens, err = selfplay.ReadFENs(v, *positions); err != nil {
			return fmt.Errorf("--positions: %w", err)
		}
	}
	if *limit > 0 && len(fens) > *limit {
		fens = fens[:*limit]
	}
	ea, eb, err := ef.specs()
	if err != nil {
		return err
	}
	lim := selfplay.Limits{Nodes: *nodes}
	players := []quality.Player{
		{Name: playerName("A", *a, ea), Spec: selfplay.PlayerSpec{Table: *a, Engine: ea, Limits: lim, TTMiB: 16}},
		{Name: playerName("B", *b, eb), Spec: selfplay.PlayerSpec{Table: *b, Engine: eb, Limits: lim, TTMiB: 16}},
	}
	ospec, err := engineSpec("oracle", *oracle, "", oracleOpts)
	if err != nil {
		return err
	}
	for _, s := range []*selfplay.EngineSpec{ea, eb, ospec} {
		if s != nil {
			if err := s.Validate(); err != nil {
				return err
			}
		}
	}
	orc := quality.Player{Name: playerName("oracle", "", ospec), Spec: selfplay.PlayerSpec{Engine: ospec, Limits: selfplay.Limits{Nodes: *oracleNodes}, TTMiB: 64}}
	orc.Name = fmt.Sprintf("%s at %d nodes", orc.Name, *oracleNodes)
	fmt.Fprintf(stderr, "quality: %d positions of %s, players at %d nodes\n", len(fens), v.Name, *nodes)
	rep, err := quality.Measure(ctx, v, fens, quality.Options{Players: players, Oracle: orc, Workers: *workers, Progress: stderr})
	if err != nil {
		return err
	}
	if *out != "" {
		if err := fsx.WriteJSON(*out, rep); err != nil {
			return err
		}
	}
	if *asJSON {
		rows := rep.Rows
		rep.Rows = nil
		defer func() { rep.Rows = rows }()
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", b)
		return err
	}
	_, err = fmt.Fprint(stdout, rep.Markdown())
	return err
}

// playerName names a side by its outside engine or its table.
func playerName(side, table string, e *selfplay.EngineSpec) string {
	switch {
	case e != nil:
		return e.Label()
	case table != "":
		return table
	case side == "oracle":
		return "tamerlane"
	}
	return side + " (embedded table)"
}
