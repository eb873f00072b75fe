package engine

import (
	"os"
	"strings"
	"testing"
)

// BenchmarkPerft measures move generation, make/unmake and the legality
// checks (Attacked) by a perft of every variant's start position: depth 4
// for chess and shatranj, 3 for the large boards. It reports the leaf
// nodes per second as Mnodes/s; a change to the hot path is compared with
// go test -bench Perft -count 10 and benchstat.
func BenchmarkPerft(b *testing.B) {
	for _, name := range VariantNames() {
		v, err := NewVariant(name, nil)
		if err != nil {
			b.Fatal(err)
		}
		depth := 3
		if v.Files <= 8 {
			depth = 4
		}
		b.Run(name, func(b *testing.B) {
			p := NewPosition(v)
			var nodes uint64
			b.ReportAllocs()
			for b.Loop() {
				nodes += p.Perft(depth)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
		})
	}
}

// benchPositions reads the middlegames of 'tamerlane bench' (one
// "variant FEN" a line, # comments).
func benchPositions(b *testing.B) []*Position {
	data, err := os.ReadFile("../cmd/tamerlane/testdata/bench-middlegames.txt")
	if err != nil {
		b.Fatal(err)
	}
	var ps []*Position
	for _, line := range strings.Split(string(data), "\n") {
		name, fen, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || strings.HasPrefix(name, "#") {
			continue
		}
		v, err := NewVariant(name, nil)
		if err != nil {
			b.Fatal(err)
		}
		p, err := ParseFEN(v, fen)
		if err != nil {
			b.Fatal(err)
		}
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		b.Fatal("no bench positions")
	}
	return ps
}

// BenchmarkAttacked asks Attacked of every square of the playing area for
// both sides, and SEE of every legal move, in the bench middlegames; one
// op is one pass over all positions.
func BenchmarkAttacked(b *testing.B) {
	ps := benchPositions(b)
	b.Run("Attacked", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, p := range ps {
				for _, s := range p.v.c.onBoard {
					if p.Attacked(s, White) {
						n++
					}
					if p.Attacked(s, Black) {
						n++
					}
				}
			}
		}
		if n == 0 {
			b.Fatal("no square attacked")
		}
	})
	b.Run("SEE", func(b *testing.B) {
		moves := make([][]Move, len(ps))
		values := make([][]int32, len(ps))
		for i, p := range ps {
			var ml MoveList
			p.GenerateLegal(&ml)
			moves[i] = append([]Move(nil), ml.Slice()...)
			values[i] = make([]int32, len(p.v.Pieces))
			for t := range values[i] {
				values[i][t] = int32(100 + 50*t)
			}
		}
		var sum int64
		for b.Loop() {
			for i, p := range ps {
				for _, m := range moves[i] {
					sum += int64(p.SEE(m, values[i]))
				}
			}
		}
		_ = sum
	})
}
