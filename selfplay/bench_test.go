//go:build unix

package selfplay

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the process's user plus system time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSelfplayTamerlane measures self-play throughput for tamerlane
// at 5000 nodes per move with the real search, with 1 and 2 workers, in
// games per hour of wall time and per hour of CPU time (the latter does
// not depend on other load on the machine; equal figures for 1 and 2
// workers mean no parallel overhead). Each iteration plays the same 8
// game pairs (seeded by the iteration number) whatever the number of
// workers, so the figures compare equal work:
//
//	go test ./selfplay -run '^$' -bench SelfplayTamerlane -benchtime 1x
func BenchmarkSelfplayTamerlane(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			games, plies := 0, 0
			start, cpu := time.Now(), cpuTime()
			for i := 0; i < b.N; i++ {
				cfg := DefaultConfig()
				cfg.Seed = uint64(i)
				cfg.Nodes = 5000
				cfg.Variants = []VariantConfig{{Variant: "tamerlane", Pairs: 8}}
				res, err := Run(context.Background(), cfg, b.TempDir(), RunOptions{Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				games += res.Summary.Streams[0].Games
				plies += res.Summary.Streams[0].Plies
			}
			el, used := time.Since(start), cpuTime()-cpu
			b.ReportMetric(float64(games)/el.Hours(), "games/hour")
			if used > 0 {
				b.ReportMetric(float64(games)/used.Hours(), "games/cpu-hour")
			}
			b.ReportMetric(float64(plies)/float64(games), "plies/game")
		})
	}
}
