// Command tamerlane is the one command line of the project: rules and
// perft, search, self-play, tuning and the overnight pipeline.
//
// Run "tamerlane help" for the list of commands.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
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
		{"measure", "measure piece values: regression games and planned imbalance matches", runMeasure},
		{"export", "write a run's fitted eval table for the engine", runExport},
		{"selfplay", "play game pairs into a run directory (PGN, data set, summary)", runSelfplay},
		{"match", "play evaluation table A against table B (Elo, SPRT)", runMatch},
		{"quality", "compare two players' moves position by position by a stronger oracle's values", runQuality},
		{"compare", "compare two players by their matches against one opponent, opening by opening", runCompare},
		{"openings", "write balanced random-walk openings, scored by this or an outside engine", runOpenings},
		{"merge", "join the shard directories of a self-play run", runMerge},
		{"run", "the pipeline: generations of self-play, tuning and verification (report.md)", runRun},
		{"apply", "copy a pipeline run's accepted tables into data/weights", runApply},
		{"position", "legal moves, check and outcome of a position", runPosition},
		{"eval", "the static evaluation of a position, term by term", runEval},
		{"uci", "serve the UCI protocol on stdin/stdout (GUIs, fastchess, cutechess)", runUCI},
		{"xboard", "serve the CECP (XBoard/WinBoard) protocol on stdin/stdout", runXBoard},
	}
}

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		cancel(signalError{s})
		signal.Stop(sigs) // a second signal kills at once
	}()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// signalError is the cause of the context's cancellation by a signal.
type signalError struct{ sig os.Signal }

// Error names the signal.
func (e signalError) Error() string { return "interrupted by " + e.sig.String() }

// exitCode is the shell's code for death by the signal: 128 + its number
// (SIGINT 130, SIGTERM 143).
func (e signalError) exitCode() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// resumeError marks an interrupted command that a rerun resumes.
type resumeError struct {
	dir string
	err error
}

// Error is the wrapped error's message.
func (e *resumeError) Error() string { return e.err.Error() }

// Unwrap returns the wrapped error.
func (e *resumeError) Unwrap() error { return e.err }

// resumable wraps err so that an interruption says how to resume in dir.
func resumable(dir string, err error) error {
	if err == nil {
		return nil
	}
	return &resumeError{dir, err}
}

// interrupted reports an interrupted command in one line and returns the
// exit code: 128 + the signal's number, 130 without a known signal.
func interrupted(ctx context.Context, name string, err error, stderr io.Writer) int {
	msg := fmt.Sprintf("tamerlane %s: interrupted", name)
	var re *resumeError
	if errors.As(err, &re) {
		msg += fmt.Sprintf("; run the same command again to resume (%s)", re.dir)
	}
	fmt.Fprintln(stderr, msg)
	var se signalError
	if errors.As(context.Cause(ctx), &se) {
		return se.exitCode()
	}
	return 130
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
			if errors.Is(err, context.Canceled) && ctx.Err() != nil {
				return interrupted(ctx, c.name, err, stderr)
			}
			fmt.Fprintf(stderr, "tamerlane %s: %v\n", c.name, err)
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

// stringList collects a repeatable string flag (a data directory, a run,
// an outside engine's Name=Value option) in the order given.
type stringList []string

// String implements flag.Value.
func (l *stringList) String() string { return strings.Join(*l, ",") }

// Set implements flag.Value.
func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
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

// printJSON writes v to w as indented JSON: the --json output of every
// command.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
