package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"tamerlane/selfplay"
)

func runMerge(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("merge", stderr)
	out := fs.String("o", "", "output run directory")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tamerlane merge -o DIR SHARD_DIR...")
		fmt.Fprintln(stderr, "Joins the run directories of the shards of one self-play run.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if *out == "" || fs.NArg() == 0 {
		fs.Usage()
		return errUsage
	}
	sum, err := selfplay.Merge(*out, fs.Args())
	if err != nil {
		return err
	}
	printSummary(stdout, sum)
	fmt.Fprintf(stdout, "merged %d shard directories into %s\n", fs.NArg(), *out)
	return nil
}
