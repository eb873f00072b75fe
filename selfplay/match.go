package selfplay

import (
	"context"
	"fmt"
	"os"

	"tamerlane/internal/stats"
)

// MatchSpec describes a match of player A (evaluation table A) against
// player B (table B): game pairs from shared openings, colours swapped
// within each pair, optionally stopped by an SPRT.
type MatchSpec struct {
	// Variant and Rules select the game, or VariantFile, a variant file
	// (docs/variant-files.md) relative to the working directory.
	Variant, Rules, VariantFile string
	// A and B are the evaluation tables ("": the embedded default).
	A, B string
	// NameA and NameB name the players in the PGN (default: the tables'
	// base names).
	NameA, NameB string
	// Pairs is the maximum number of game pairs.
	Pairs int
	// EngineA and EngineB, when set, make a side an outside UCI engine.
	EngineA, EngineB *EngineSpec
	// Nodes and Depth limit each move (default 5000 nodes).
	Nodes int64
	Depth int
	// Seed is the run seed.
	Seed uint64
	// OpeningsFile is an optional file of FENs (otherwise random walks).
	OpeningsFile string
	// SPRT, if set, stops the match once it decides. The decision is
	// taken on the pairs in index order, so it does not depend on the
	// number of workers.
	SPRT *SPRTConfig
	// Base supplies the other settings (openings, adjudication, maximum
	// length, data set, hash size); nil means DefaultConfig().
	Base *Config
}

// Config returns the run configuration of the match: Base (or the
// defaults) with one stream, named "match-<variant>".
func (m *MatchSpec) Config() *Config {
	var c *Config
	if m.Base != nil {
		cp := *m.Base
		c = &cp
	} else {
		c = DefaultConfig()
	}
	c.Variants, c.Imbalances = nil, nil
	c.src = nil // the match's paths are relative to the working directory
	c.Seed = m.Seed
	if m.Nodes != 0 || m.Depth != 0 {
		c.Nodes, c.Depth = m.Nodes, m.Depth
	}
	var sprt *SPRTConfig
	if m.SPRT != nil {
		s := *m.SPRT
		sprt = &s
	}
	c.Matches = []MatchConfig{{
		Variant: m.Variant, Rules: m.Rules, VariantFile: m.VariantFile, A: m.A, B: m.B, NameA: m.NameA, NameB: m.NameB,
		Pairs: m.Pairs, OpeningsFile: m.OpeningsFile, SPRT: sprt, EngineA: m.EngineA, EngineB: m.EngineB,
	}}
	return c
}

// MatchResult is the outcome of a match, from player A's point of view.
type MatchResult struct {
	// Elo is A's logistic Elo over B with its 95% margin (pentanomial).
	Elo EloEstimate
	// NElo is the normalized Elo (pentanomial).
	NElo EloEstimate
	// Score is A's mean score per game with its 95% interval.
	Score stats.Interval
	// Pentanomial counts the pairs by A's points (0, 1/2, 1, 3/2, 2).
	Pentanomial [5]int
	// Pairs and Games count what was played (and counted).
	Pairs, Games int
	// SPRT is the test's state (nil without a test); SPRT.Decision is
	// "H0", "H1" or "continue".
	SPRT *SPRTSummary
	// Stream is the full summary of the match stream.
	Stream StreamSummary
}

// Match plays a match into dir (a run directory as for Run; "" plays in a
// temporary directory that is removed afterwards) and returns its result.
// Running it again on the same directory resumes it. On cancellation it
// returns the partial result with the context's error.
func Match(ctx context.Context, spec MatchSpec, dir string, opts RunOptions) (*MatchResult, error) {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "tamerlane-match-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	res, err := Run(ctx, spec.Config(), dir, opts)
	if res == nil {
		return nil, err
	}
	if len(res.Summary.Streams) != 1 {
		return nil, fmt.Errorf("match: %d streams in the summary", len(res.Summary.Streams))
	}
	s := res.Summary.Streams[0]
	return &MatchResult{
		Elo: s.Elo, NElo: s.NElo, Score: s.Score, Pentanomial: s.Pentanomial,
		Pairs: s.Pairs, Games: s.Games, SPRT: s.SPRT, Stream: s,
	}, err
}
