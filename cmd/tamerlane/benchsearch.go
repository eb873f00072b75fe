package main

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"io"
	"strings"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/engine/search"
)

// benchSearchNodes is the node budget of each variant's speed search.
const benchSearchNodes = 300000

// benchDepthNodes are the node budgets of the depth report: the budgets
// self-play uses (2,000 and 5,000) and a longer one.
var benchDepthNodes = []int64{2000, 5000, 20000}

// benchMiddlegames holds the depth report's middlegame positions, one
// "variant FEN" a line ('#' starts a comment).
//
//go:embed testdata/bench-middlegames.txt
var benchMiddlegames string

// benchPosition is one position of the depth report.
type benchPosition struct {
	variant string
	fen     string // "" for the start position
}

// parseBenchPositions reads benchMiddlegames-formatted text.
func parseBenchPositions(text string) ([]benchPosition, error) {
	var out []benchPosition
	sc := bufio.NewScanner(strings.NewReader(text))
	line := 0
	for sc.Scan() {
		line++
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		name, fen, ok := strings.Cut(l, " ")
		if !ok {
			return nil, fmt.Errorf("bench positions line %d: want \"variant FEN\"", line)
		}
		v, err := engine.NewVariant(name, nil)
		if err != nil {
			return nil, fmt.Errorf("bench positions line %d: %w", line, err)
		}
		if _, err := engine.ParseFEN(v, fen); err != nil {
			return nil, fmt.Errorf("bench positions line %d: %w", line, err)
		}
		out = append(out, benchPosition{name, fen})
	}
	return out, sc.Err()
}

// benchSearch prints the depth report (the iteration depth a fresh
// searcher completes at each budget of benchDepthNodes, from every
// variant's start position and from its middlegame positions) and the
// search speed of every variant's start position at a fixed node budget.
func benchSearch(ctx context.Context, stdout io.Writer) error {
	mids, err := parseBenchPositions(benchMiddlegames)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "search depth (fresh searcher; start position, then the mean over the middlegames of %s)\n", "testdata/bench-middlegames.txt")
	fmt.Fprintf(stdout, "  %-20s", "")
	for _, n := range benchDepthNodes {
		fmt.Fprintf(stdout, "  start@%-5s", kilo(n))
	}
	for _, n := range benchDepthNodes {
		fmt.Fprintf(stdout, "  mid@%-5s", kilo(n))
	}
	fmt.Fprintln(stdout)
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		w, err := eval.Default(v)
		if err != nil {
			return err
		}
		ev := eval.New(w)
		depth := func(pos *engine.Position, nodes int64) int {
			return search.New(ev, 16).Search(ctx, pos, search.Limits{Nodes: nodes}).Depth
		}
		fmt.Fprintf(stdout, "  %-20s", name)
		for _, n := range benchDepthNodes {
			fmt.Fprintf(stdout, "  %11d", depth(engine.NewPosition(v), n))
		}
		for _, n := range benchDepthNodes {
			sum, cnt := 0, 0
			for _, b := range mids {
				if b.variant != name {
					continue
				}
				pos, err := engine.ParseFEN(v, b.fen)
				if err != nil {
					return err
				}
				sum += depth(pos, n)
				cnt++
			}
			if cnt == 0 {
				fmt.Fprintf(stdout, "  %9s", "-")
				continue
			}
			fmt.Fprintf(stdout, "  %9.2f", float64(sum)/float64(cnt))
		}
		fmt.Fprintln(stdout)
		if err := ctx.Err(); err != nil {
			return err
		}
	}

	fmt.Fprintf(stdout, "search speed (start position, %d nodes)\n", benchSearchNodes)
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

// kilo writes a node budget as "2k" when it is a multiple of 1000.
func kilo(n int64) string {
	if n%1000 == 0 {
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}
