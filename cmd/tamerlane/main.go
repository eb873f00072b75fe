// Command tamerlane is the one command line of the project: rules and
// perft, search, self-play, tuning and the overnight pipeline.
//
// Run "tamerlane help" for the list of commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// command is one subcommand of the CLI.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands lists the subcommands in the order "help" shows them.
func commands() []command {
	return []command{
		{"variants", "list the variants, their boards, pieces and moves", runVariants},
		{"perft", "count move sequences (move generation check and speed)", runPerft},
		{"bench", "fixed perft and search suite over all variants", runBench},
		{"search", "search a position and print the best move", runSearch},
		{"tune", "fit eval weights and piece values to self-play data", runTune},
		{"values", "piece values of a run beside published figures (tables, plots)", runValues},
		{"export", "write a run's fitted eval table for the engine", runExport},
		{"selfplay", "play game pairs into a run directory (PGN, data set, summary)", runSelfplay},
		{"match", "play evaluation table A against table B (Elo, SPRT)", runMatch},
		{"merge", "join the shard directories of a self-play run", runMerge},
		{"run", "the pipeline: generations of self-play, tuning and verification (report.md)", runRun},
		{"apply", "copy a pipeline run's accepted tables into data/weights", runApply},
		{"position", "legal moves, check and outcome of a position", runPosition},
		{"uci", "serve the UCI protocol on stdin/stdout (GUIs, fastchess, cutechess)", runUCI},
		{"xboard", "serve the CECP (XBoard/WinBoard) protocol on stdin/stdout", runXBoard},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the process exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			err := c.run(ctx, args[1:], stdout, stderr)
			switch {
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.Is(err, errUsage):
				return 2
			}
			fmt.Fprintf(stderr, "tamerlane %s: %v\n", c.name, err)
			if errors.Is(err, context.Canceled) {
				return 130
			}
			return 1
		}
	}
	fmt.Fprintf(stderr, "tamerlane: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

// errUsage marks a command-line error already reported by the flag package.
var errUsage = errors.New("usage")

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tamerlane <command> [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run \"tamerlane <command> -h\" for a command's flags.")
}

// newFlags returns a flag set that reports errors to stderr.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("tamerlane "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args and maps flag errors to errUsage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return errUsage
	}
	return nil
}
