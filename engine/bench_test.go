package engine

import "testing"

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
