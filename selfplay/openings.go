package selfplay

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
)

// Opening is a generated start position: a random walk from the
// variant's start and the position it reaches.
type Opening struct {
	// FEN is the position after the walk.
	FEN string
	// Moves are the walk's moves in coordinate notation.
	Moves []string
	// Score is the scorer's evaluation of FEN in centipawns from White's
	// point of view, minus its evaluation of the start position (0 when
	// the openings are not scored: OpeningConfig.MaxScore 0).
	Score int
}

// GenerateOpenings draws n distinct openings of v by random walks from
// its start position, as self-play draws its own (cfg: plies, material,
// max_score, score_nodes, attempts), but scored by scorer: this engine
// with scorer.Table or an outside engine (scorer.Engine, built by
// factory), so that a set can be balanced by a stronger judge than the
// players. Walk i is drawn with a seed derived from seed and i, so the
// same arguments and a deterministic scorer give the same openings.
// Positions are distinct by placement, side to move, rights and en
// passant square. It fails, keeping nothing, when 8n+16 walks do not
// give n openings.
func GenerateOpenings(ctx context.Context, v *engine.Variant, cfg OpeningConfig, scorer PlayerSpec, factory PlayerFactory, n int, seed uint64) ([]Opening, error) {
	if n < 1 || n > MaxPairs {
		return nil, fmt.Errorf("openings: want 1 to %d openings, not %d", MaxPairs, n)
	}
	if cfg.Plies < 1 || cfg.Plies > MaxWalkPlies {
		return nil, fmt.Errorf("openings: plies must be 1 to %d, not %d", MaxWalkPlies, cfg.Plies)
	}
	if cfg.Attempts < 1 {
		cfg.Attempts = defaultAttempts
	}
	if cfg.Attempts > MaxAttempts {
		return nil, fmt.Errorf("openings: attempts must be at most %d, not %d", MaxAttempts, cfg.Attempts)
	}
	if cfg.MaxScore > 0 && cfg.ScoreNodes < 1 {
		cfg.ScoreNodes = defaultScoreNodes
	}
	scorer.Variant = v
	o := &opener{v: v, cfg: cfg, factory: factory, spec: scorer}
	root := engine.NewPosition(v).FEN()
	seen := map[string]bool{}
	var out []Opening
	walks := 8*n + 16
	for i := 0; i < walks && len(out) < n; i++ {
		op, err := o.scoredWalk(ctx, root, deriveSeed(seed, "openings", strconv.Itoa(i)))
		if err != nil {
			return nil, err
		}
		if op == nil {
			continue
		}
		if key := fenKey(op.FEN); !seen[key] {
			seen[key] = true
			out = append(out, *op)
		}
	}
	if len(out) < n {
		return nil, fmt.Errorf("openings: only %d of %d distinct openings passed in %d walks of up to %d attempts each (max_score %d): raise max_score or attempts, or ask for fewer",
			len(out), n, walks, cfg.Attempts, cfg.MaxScore)
	}
	return out, nil
}

// fenKey is a FEN without its move counters.
func fenKey(fen string) string {
	f := strings.Fields(fen)
	if len(f) > 4 {
		f = f[:len(f)-2]
	}
	return strings.Join(f, " ")
}

// WriteOpenings writes openings to path atomically in the format
// --openings and openings_file read: header lines (each written as a
// '#' comment), then per opening a comment with its score and moves and
// its FEN on a line of its own. It refuses to replace an existing file
// unless overwrite is set.
func WriteOpenings(path string, header []string, openings []Opening, overwrite bool) error {
	if _, err := os.Stat(path); err == nil && !overwrite {
		return fmt.Errorf("%s exists: choose another file or allow overwriting", path)
	}
	var b bytes.Buffer
	for _, h := range header {
		fmt.Fprintf(&b, "# %s\n", h)
	}
	for i, op := range openings {
		fmt.Fprintf(&b, "# %d: score %+d, %s\n%s\n", i+1, op.Score, strings.Join(op.Moves, " "), op.FEN)
	}
	return fsx.WriteFile(path, b.Bytes())
}
