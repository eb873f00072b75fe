package main

import (
	"context"
	"fmt"
	"io"

	"tamerlane/selfplay/paired"
)

// runCompare compares two players by their matches against the same
// opponent on the same openings, opening by opening (package paired).
func runCompare(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compare", stderr)
	var a, b stringList
	fs.Var(&a, "a", "a match run of player A, its streams' first player (repeatable: the runs together)")
	fs.Var(&b, "b", "a match run of player B against the same opponent on the same openings (repeatable)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tamerlane compare --a RUN [--a RUN...] --b RUN [--b RUN...] [--json]")
		fmt.Fprintln(stderr, "Compares two players by the matches each played against the same opponent on the same openings, pair by pair.")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if len(a) == 0 || len(b) == 0 {
		fmt.Fprintln(stderr, "tamerlane compare: give at least one --a and one --b run")
		return errUsage
	}
	r, err := paired.Compare(a, b)
	if err != nil {
		return err
	}
	if *asJSON {
		return printJSON(stdout, r)
	}
	fmt.Fprint(stdout, r.Markdown())
	return nil
}
