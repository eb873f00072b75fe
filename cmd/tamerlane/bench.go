package main

import (
	"context"
	"fmt"
	"io"
	"runtime/pprof"
	"time"

	"tamerlane/internal/fsx"
)

// benchPerft is the fixed perft suite of "tamerlane bench": every variant's
// start position at a depth that takes a fraction of a second.
var benchPerft = []struct {
	variant string
	rules   string
	fen     string
	depth   int
}{
	{"chess", "", "", 5},
	{"chess", "", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4},
	{"shatranj", "", "", 5},
	{"shako", "", "", 4},
	{"tamerlane", "swap=off,citadels=off", "e1c1d1d1c1e/rn2wkf2nr/pfpfpfpfpfpfpfpfpfpfpf/11/11/11/11/PFPFPFPFPFPFPFPFPFPFPF/RN2FKW2NR/E1C1D1D1C1E w - 00 0 1", 4},
	{"tamerlane", "", "", 4},
	{"tamerlane-feminine", "", "", 4},
	{"tamerlane-third", "", "", 4},
	{"tamerlane2", "", "", 4},
	{"full-tamerlane", "", "", 4},
}

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) (retErr error) {
	fs := newFlags("bench", stderr)
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the whole bench to this file (pprof format, for go tool pprof)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer func() { retErr = stop(retErr) }()
	}
	var total uint64
	var secs float64
	fmt.Fprintln(stdout, "perft (last ply counted in bulk)")
	for _, b := range benchPerft {
		if err := ctx.Err(); err != nil {
			return err
		}
		vf := variantFlags{variantArg: variantArg{variant: b.variant}, rules: b.rules, fen: b.fen}
		_, p, err := vf.position()
		if err != nil {
			return err
		}
		start := time.Now()
		n := p.Perft(b.depth)
		el := time.Since(start).Seconds()
		total += n
		secs += el
		name := b.variant
		if b.rules != "" {
			name += " (" + b.rules + ")"
		}
		fmt.Fprintf(stdout, "  %-45s depth %d  %11d nodes  %6.2f Mnodes/s\n", name, b.depth, n, float64(n)/el/1e6)
	}
	fmt.Fprintf(stdout, "perft total: %d nodes in %.2f s, %.2f Mnodes/s\n", total, secs, float64(total)/secs/1e6)
	return benchSearch(ctx, stdout)
}

// startCPUProfile starts profiling the process's CPU into path. The
// returned stop ends the profile and, when the profiled work succeeded
// (err nil), writes the file atomically; after a failure it leaves path
// as it was. It returns err, or the profile's own error.
func startCPUProfile(path string) (stop func(err error) error, err error) {
	f, err := fsx.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f.Writer); err != nil {
		f.Abort()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return func(err error) error {
		pprof.StopCPUProfile()
		if err != nil {
			f.Abort()
			return err
		}
		return f.Commit()
	}, nil
}
