package main

import (
	"context"
	"fmt"
	"io"

	"tamerlane/pipeline"
)

func runApply(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("apply", stderr)
	run := fs.String("run", "", "pipeline run directory")
	to := fs.String("to", "data/weights", "directory of eval tables to update (the build embeds data/weights)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tamerlane apply --run DIR [--to data/weights]")
		fmt.Fprintln(stderr, "Copies the run's current tables that an accepted generation changed into the directory.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *run == "" {
		fmt.Fprintln(stderr, "tamerlane apply: --run DIR is required")
		return errUsage
	}
	res, err := pipeline.Apply(*run, *to)
	if err != nil {
		return err
	}
	copied := 0
	for _, a := range res {
		if !a.Copied {
			fmt.Fprintf(stdout, "skipped %s: %s\n", a.Variant, a.Reason)
			continue
		}
		copied++
		fmt.Fprintf(stdout, "copied %s: %s -> %s (%s", a.Variant, a.From, a.To, a.Reason)
		if m := a.Match; m != nil {
			fmt.Fprintf(stdout, "; match %d pairs, Elo %s", m.Pairs, m.Elo)
			if m.SPRT != nil {
				fmt.Fprintf(stdout, ", SPRT %s", m.SPRT.Decision)
			}
		}
		fmt.Fprintln(stdout, ")")
		p := a.Provenance
		fmt.Fprintf(stdout, "  provenance: %s, %s", p.Source, p.Date)
		if p.Run != "" {
			fmt.Fprintf(stdout, ", run %s", p.Run)
		}
		if p.Positions != 0 {
			fmt.Fprintf(stdout, ", %d positions", p.Positions)
		}
		if p.Loss != 0 {
			fmt.Fprintf(stdout, ", loss %.6f", p.Loss)
		}
		fmt.Fprintln(stdout)
		if a.Note != "" {
			fmt.Fprintf(stdout, "  note: %s\n", a.Note)
		}
	}
	if copied == 0 {
		fmt.Fprintln(stdout, "nothing to copy")
		return nil
	}
	fmt.Fprintf(stdout, "copied %d table(s) into %s; rebuild (go build ./cmd/tamerlane) to play with them\n", copied, *to)
	return nil
}
