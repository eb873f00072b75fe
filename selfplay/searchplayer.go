package selfplay

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/engine/search"
)

// DefaultFactory returns the factory Run uses when RunOptions.Factory is
// nil: SearchFactory, and outside engines for specs that name one.
func DefaultFactory() PlayerFactory { return ExternalFactory(SearchFactory()) }

// SearchFactory returns a factory of players that search with the
// engine's search (tamerlane/engine/search) under node and depth limits
// only, so that their moves are reproducible. Evaluation tables are
// loaded once per variant and path (the embedded default when
// PlayerSpec.Table is empty) and shared read-only. A player's Searcher
// goes back to the factory when the player is closed and serves a later
// player of the same variant, table and hash size (a sync.Pool, so idle
// ones are freed): its tables (megabytes of history in the Tamerlane
// variants) are cleared by NewGame instead of allocated again, and a
// cleared searcher plays exactly as a new one.
func SearchFactory() PlayerFactory {
	var mu sync.Mutex
	tables := map[string]*eval.Weights{}
	// closed players' searchers, by the loaded table (one per variant and
	// path) and the hash size
	type spareKey struct {
		w     *eval.Weights
		ttMiB int
	}
	spare := map[spareKey]*sync.Pool{}
	load := func(v *engine.Variant, path string) (*eval.Weights, error) {
		key := v.Name + "\x00" + path
		mu.Lock()
		defer mu.Unlock()
		if w, ok := tables[key]; ok {
			return w, nil
		}
		w, err := eval.LoadOrDefault(v, path)
		if err != nil {
			return nil, err
		}
		tables[key] = w
		return w, nil
	}
	return func(spec PlayerSpec) (Player, error) {
		if spec.Variant == nil {
			return nil, errors.New("selfplay: search player without a variant")
		}
		if spec.Limits.Nodes <= 0 && spec.Limits.Depth <= 0 {
			return nil, errors.New("selfplay: search player without a node or depth limit")
		}
		w, err := load(spec.Variant, spec.Table)
		if err != nil {
			return nil, err
		}
		ttMiB := max(1, spec.TTMiB)
		key := spareKey{w, ttMiB}
		mu.Lock()
		pool := spare[key]
		if pool == nil {
			pool = &sync.Pool{}
			spare[key] = pool
		}
		mu.Unlock()
		s, _ := pool.Get().(*search.Searcher)
		if s == nil {
			s = search.New(eval.New(w), ttMiB)
		}
		return &searchPlayer{
			s:       s,
			lim:     search.Limits{Nodes: spec.Limits.Nodes, Depth: spec.Limits.Depth},
			jitter:  spec.NodesJitter,
			seed:    spec.Seed,
			rng:     newRNG(spec.Seed),
			release: pool.Put,
		}, nil
	}
}

// searchPlayer adapts a search.Searcher to Player.
type searchPlayer struct {
	s       *search.Searcher
	lim     search.Limits
	jitter  float64
	seed    uint64
	rng     rng
	release func(any) // gives the searcher back to the factory's pool
}

func (p *searchPlayer) NewGame() {
	p.s.Clear()
	p.rng = newRNG(p.seed)
}

// Close gives the player's searcher back to its factory for a later
// player; the player must not be used after it.
func (p *searchPlayer) Close() error {
	if p.s != nil && p.release != nil {
		p.release(p.s)
	}
	p.s = nil
	return nil
}

func (p *searchPlayer) Move(ctx context.Context, pos *engine.Position) (engine.Move, MoveInfo, error) {
	lim := p.lim
	if p.jitter > 0 && lim.Nodes > 0 {
		lim.Nodes = jitterNodes(lim.Nodes, p.jitter, &p.rng)
	}
	res := p.s.Search(ctx, pos, lim)
	if err := ctx.Err(); err != nil {
		return engine.NullMove, MoveInfo{}, err
	}
	if res.Best == engine.NullMove {
		return engine.NullMove, MoveInfo{}, fmt.Errorf("selfplay: search found no move in %s", pos.FEN())
	}
	return res.Best, MoveInfo{Score: res.Score, Mate: res.Mate, Depth: res.Depth, Nodes: res.Nodes}, nil
}

// jitterNodes draws a node limit uniformly from nodes·[1-j, 1+j] (at
// least 1), with integer arithmetic so that it is the same everywhere.
func jitterNodes(nodes int64, j float64, r *rng) int64 {
	span := int64(float64(nodes) * j)
	if span <= 0 {
		return nodes
	}
	return max(1, nodes-span+int64(r.intn(int(2*span+1))))
}
