package main

import (
	"context"
	"fmt"
	"io"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/engine/search"
)

// benchSearchNodes is the node budget of each variant's bench search.
const benchSearchNodes = 300000

// benchSearch searches every variant's start position to a fixed node
// budget and reports nodes per second.
func benchSearch(ctx context.Context, stdout io.Writer) error {
	fmt.Fprintf(stdout, "search (start position, %d nodes)\n", benchSearchNodes)
	var nodes int64
	var secs float64
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		w, err := eval.Default(v)
		if err != nil {
			return err
		}
		s := search.New(eval.New(w), 16)
		res := s.Search(ctx, engine.NewPosition(v), search.Limits{Nodes: benchSearchNodes})
		if err := ctx.Err(); err != nil {
			return err
		}
		el := res.Elapsed.Seconds()
		nodes += res.Nodes
		secs += el
		fmt.Fprintf(stdout, "  %-20s depth %2d  %9d nodes  %6.2f Mnodes/s  bestmove %s\n", name, res.Depth, res.Nodes, float64(res.Nodes)/el/1e6, engine.NewPosition(v).Coord(res.Best))
	}
	fmt.Fprintf(stdout, "search total: %d nodes in %.2f s, %.2f Mnodes/s\n", nodes, secs, float64(nodes)/secs/1e6)
	return nil
}
