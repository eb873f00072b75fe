package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/engine/search"
)

// searchJSON is the --json output of "tamerlane search".
type searchJSON struct {
	Variant  string   `json:"variant"`
	Rules    string   `json:"rules"` // every rule option in force, canonical
	FEN      string   `json:"fen"`
	BestMove string   `json:"bestmove"`
	Score    int      `json:"score"`
	Mate     *int     `json:"mate"`
	Depth    int      `json:"depth"`
	Nodes    int64    `json:"nodes"`
	NPS      int64    `json:"nps"`
	PV       []string `json:"pv"`
}

func runSearch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("search", stderr)
	var vf variantFlags
	vf.register(fs, "")
	depth := fs.Int("depth", 0, "search depth in plies")
	nodes := fs.Int64("nodes", 0, "node limit")
	movetime := fs.Int("movetime", 0, "time limit in milliseconds")
	weights := fs.String("weights", "", "eval table (YAML); default: the embedded table of the variant")
	hash := fs.Int("hash", 64, "transposition table size in MiB")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	v, p, err := vf.position()
	if err != nil {
		return err
	}
	if err := search.ValidateHashMiB(*hash); err != nil {
		return fmt.Errorf("--hash: %w", err)
	}
	if *depth < 0 || *nodes < 0 || *movetime < 0 {
		return fmt.Errorf("--depth, --nodes and --movetime must not be negative")
	}
	lim := search.Limits{Depth: *depth, Nodes: *nodes, MoveTime: time.Duration(*movetime) * time.Millisecond}
	if lim.Depth == 0 && lim.Nodes == 0 && lim.MoveTime == 0 {
		lim.Depth = 6
	}
	w, err := eval.LoadOrDefault(v, *weights)
	if err != nil {
		return err
	}
	s := search.New(eval.New(w), *hash)
	res := s.Search(ctx, p, lim)
	pv := make([]string, 0, len(res.PV))
	q := p.Clone()
	for _, m := range res.PV {
		pv = append(pv, q.Coord(m))
		q.Make(m)
	}
	best := "(none)"
	if res.Best != engine.NullMove {
		best = p.Coord(res.Best)
	}
	if *asJSON {
		out := searchJSON{Variant: v.Name, Rules: v.Options.String(), FEN: p.FEN(), BestMove: best, Score: res.Score, Depth: res.Depth, Nodes: res.Nodes, NPS: res.NPS, PV: pv}
		if res.Mate != 0 {
			m := res.Mate
			out.Mate = &m
		}
		return json.NewEncoder(stdout).Encode(out)
	}
	score := fmt.Sprintf("cp %d", res.Score)
	if res.Mate != 0 {
		score = fmt.Sprintf("mate %d", res.Mate)
	}
	fmt.Fprintf(stdout, "variant %s  rules %s\n", v.Name, orNone(v.Options.String()))
	fmt.Fprintf(stdout, "bestmove %s  score %s  depth %d  nodes %d  nps %d  pv %s\n",
		best, score, res.Depth, res.Nodes, res.NPS, strings.Join(pv, " "))
	return nil
}
