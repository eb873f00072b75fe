package selfplay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
	"tamerlane/selfplay/elo"
	"tamerlane/variantfile"
)

// RunOptions are the settings of Run that never change a result.
type RunOptions struct {
	// Workers overrides Config.Workers when positive.
	Workers int
	// Factory builds the players (nil: DefaultFactory()).
	Factory PlayerFactory
	// Progress receives progress reports (nil: none): a progress bar with
	// an ETA when it is a terminal, plain log lines otherwise.
	Progress io.Writer
	// LogInterval is the time between plain log lines (default 10 s);
	// a line is also written every 5% of the pairs.
	LogInterval time.Duration
	// afterPair, if set, is called after each pair is journaled (tests).
	afterPair func(stream string, pair int)
}

// Result is what Run returns: the summary written to summary.json and
// the timing written to timing.json.
type Result struct {
	Summary *Summary
	Timing  *Timing
}

// stream is one stream of game pairs: a self-play variant, an imbalance or
// a match, as Run plays it.
type stream struct {
	name, dir, kind string
	v               *engine.Variant
	pairs           int // configured number of pairs
	planned         int // pairs in this shard
	first, second   PlayerSpec
	firstName       string
	secondName      string
	firstRemoves    []string
	secondRemoves   []string
	sameProgram     bool      // both sides the same program (PlayerSpec.SameProgram)
	roots           [2]string // start position of each game of a pair (before any walk)
	openings        []string  // from an openings file (then no walk)
	// openingsFile is the openings file's path (""), openingPositions
	// the number of positions read from it (0 until read).
	openingsFile     string
	openingPositions int
	// imbalanceRoots are an imbalance's openings file: per position, the
	// start of each game of a pair with the pieces removed (then no walk).
	imbalanceRoots [][2]string
	openingsOffset int // ImbalanceConfig.OpeningsOffset
	sprt           *elo.SPRT
	opener         *opener

	journal *journal
	mu      sync.Mutex
	entries []jEntry
	// SPRT bookkeeping during the run.
	outcomes map[int]elo.Pair
	prefix   int
	pent     elo.Pentanomial
	decided  bool
	cancel   context.CancelFunc
}

// label names a player by its table.
func label(table string) string {
	if table == "" {
		return "default"
	}
	return strings.TrimSuffix(filepath.Base(table), filepath.Ext(table))
}

// buildStreams turns a validated config into streams. Opening files are
// read only when forPlay is set (reading a run does not need them).
func buildStreams(cfg *Config, factory PlayerFactory, forPlay bool) ([]*stream, error) {
	lim := Limits{Nodes: cfg.Nodes, Depth: cfg.Depth}
	spec := func(v *engine.Variant, table string) PlayerSpec {
		return PlayerSpec{Variant: v, Table: table, Limits: lim, NodesJitter: cfg.NodesJitter, TTMiB: cfg.TTMiB}
	}
	variant := variantfile.Resolve
	var out []*stream
	add := func(st *stream, openingsFile string) error {
		if openingsFile != "" && forPlay && st.imbalanceRoots == nil {
			fens, err := ReadFENs(st.v, openingsFile)
			if err != nil {
				return err
			}
			st.openings = fens
		}
		st.openingsFile = openingsFile
		st.openingPositions = max(len(st.openings), len(st.imbalanceRoots))
		st.dir = streamDir(st.name)
		for i := 0; i < st.pairs; i++ {
			if cfg.Shard.Has(i) {
				st.planned++
			}
		}
		scorer := st.first
		scorer.Engine = nil // openings are scored by this engine, never an outside one
		st.opener = &opener{v: st.v, cfg: cfg.Openings, factory: factory, spec: scorer}
		if st.roots[0] == "" {
			start := engine.NewPosition(st.v).FEN()
			st.roots = [2]string{start, start}
		}
		out = append(out, st)
		return nil
	}
	for _, e := range cfg.Variants {
		v, err := variant(e.Variant, e.Rules, e.VariantFile)
		if err != nil {
			return nil, err
		}
		name := e.Name
		if name == "" {
			name = e.Variant
		}
		l := label(e.Table)
		st := &stream{name: name, kind: "selfplay", v: v, pairs: e.Pairs, first: spec(v, e.Table), second: spec(v, e.Table), firstName: l, secondName: l}
		if err := add(st, e.OpeningsFile); err != nil {
			return nil, err
		}
	}
	for _, e := range cfg.Imbalances {
		v, err := variant(e.Variant, e.Rules, e.VariantFile)
		if err != nil {
			return nil, err
		}
		first, second := spec(v, e.Table), spec(v, e.Table)
		first.Engine, second.Engine = e.engines()
		st := &stream{name: e.Name, kind: "imbalance", v: v, pairs: e.Pairs, first: first, second: second,
			firstName:    engineLabel(first.Engine, e.Table) + removesSuffix(e.FirstRemoves),
			secondName:   engineLabel(second.Engine, e.Table) + removesSuffix(e.SecondRemoves),
			firstRemoves: e.FirstRemoves, secondRemoves: e.SecondRemoves, openingsOffset: e.OpeningsOffset}
		switch {
		case e.OpeningsFile != "":
			if forPlay {
				if st.imbalanceRoots, err = imbalanceOpenings(v, e.OpeningsFile, e.FirstRemoves, e.SecondRemoves); err != nil {
					return nil, fmt.Errorf("imbalance %s: openings_file: %v", e.Name, err)
				}
			}
		default:
			for g := 0; g < 2; g++ {
				fen, rerr := imbalanceFEN(v, nil, e.FirstRemoves, e.SecondRemoves, g == 1)
				if rerr != nil {
					return nil, fmt.Errorf("imbalance %s: %s: %v", e.Name, rerr.field, rerr.err)
				}
				st.roots[g] = fen
			}
		}
		if err := add(st, e.OpeningsFile); err != nil {
			return nil, err
		}
	}
	for _, e := range cfg.Matches {
		v, err := variant(e.Variant, e.Rules, e.VariantFile)
		if err != nil {
			return nil, err
		}
		na, nb := e.NameA, e.NameB
		first, second := spec(v, e.A), spec(v, e.B)
		first.Engine, second.Engine = e.EngineA, e.EngineB
		if na == "" {
			na = engineLabel(e.EngineA, e.A)
		}
		if nb == "" {
			nb = engineLabel(e.EngineB, e.B)
		}
		if na == nb {
			na, nb = na+" (A)", nb+" (B)"
		}
		st := &stream{name: e.name(), kind: "match", v: v, pairs: e.Pairs, first: first, second: second, firstName: na, secondName: nb,
			sameProgram: e.sameProgram()}
		if e.SPRT != nil {
			s := e.SPRT.sprt()
			st.sprt = &s
		}
		if err := add(st, e.OpeningsFile); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func removesSuffix(r []string) string {
	if len(r) == 0 {
		return ""
	}
	return " -" + strings.Join(r, " -")
}

// playPair plays both games of one pair.
func (st *stream) playPair(ctx context.Context, cfg *Config, factory PlayerFactory, pair int) (*jPair, error) {
	seed := deriveSeed(cfg.Seed, st.name, strconv.Itoa(pair))
	var roots [2]string
	var books [2][]string
	switch {
	case st.imbalanceRoots != nil:
		roots = st.imbalanceRoots[(st.openingsOffset+pair)%len(st.imbalanceRoots)]
	case st.openings != nil:
		fen := st.openings[pair%len(st.openings)]
		roots = [2]string{fen, fen}
	case st.kind == "imbalance":
		// The two games start from different arrays: each gets its own walk.
		for g := 0; g < 2; g++ {
			roots[g] = st.roots[g]
			b, err := st.opener.walk(ctx, roots[g], deriveSeed(seed, "opening", strconv.Itoa(g)))
			if err != nil {
				return nil, err
			}
			books[g] = b
		}
	default:
		b, err := st.opener.walk(ctx, st.roots[0], deriveSeed(seed, "opening"))
		if err != nil {
			return nil, err
		}
		roots = st.roots
		books = [2][]string{b, b}
	}
	p := &jPair{Pair: pair, Seed: seed}
	for g := 0; g < 2; g++ {
		white, black := st.first, st.second
		if g == 1 {
			white, black = black, white
		}
		gs := strconv.Itoa(g)
		white.Seed = deriveSeed(seed, "player", gs, "white")
		black.Seed = deriveSeed(seed, "player", gs, "black")
		start := time.Now()
		game, err := playGame(ctx, &gameSetup{
			v: st.v, root: roots[g], book: books[g], players: [2]PlayerSpec{white, black},
			cfg: cfg, seed: deriveSeed(seed, "sample", gs), factory: factory,
		})
		if err != nil {
			return nil, err
		}
		game.Ms = time.Since(start).Milliseconds()
		p.Games[g] = game
	}
	return p, nil
}

// record journals a finished pair and updates the SPRT state.
func (st *stream) record(p *jPair) error {
	e, err := st.journal.append(p)
	if err != nil {
		return err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.entries = append(st.entries, e)
	if st.sprt != nil {
		st.addOutcome(p)
	}
	return nil
}

// addOutcome counts a pair for the SPRT and advances the decided prefix;
// st.mu must be held.
func (st *stream) addOutcome(p *jPair) {
	st.outcomes[p.Pair] = elo.Pair{outcomeFor(p.Games[0].Result, engine.White), outcomeFor(p.Games[1].Result, engine.Black)}
	for !st.decided {
		pr, ok := st.outcomes[st.prefix]
		if !ok {
			break
		}
		st.pent.Add(pr)
		st.prefix++
		if st.sprt.Decide(st.sprt.LLRPentanomial(st.pent)) != elo.Continue {
			st.decided = true
			if st.cancel != nil {
				st.cancel()
			}
		}
	}
}

func (st *stream) isDecided() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.decided
}

// Run plays a configuration's game pairs into the run directory dir and
// regenerates its outputs; see the package documentation for the files.
// If dir already holds journals of the same configuration, only the
// missing pairs are played (resume); a directory of another configuration
// is refused. Cancelling ctx stops the run cleanly: finished pairs stay in
// the journals, the outputs are regenerated from them, and Run returns
// the context's error with the partial result.
func Run(ctx context.Context, cfg *Config, dir string, opts RunOptions) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := CheckWorkers(opts.Workers); err != nil {
		return nil, fmt.Errorf("workers: %v", err)
	}
	factory := opts.Factory
	if factory == nil {
		factory = DefaultFactory()
	}
	// Outside engines run from game to game (enginePool).
	engines := newEnginePool()
	defer engines.close()
	factory = engines.wrap(factory)
	workers := cfg.Workers
	if opts.Workers > 0 {
		workers = opts.Workers
	}
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	hash, err := cfg.Hash()
	if err != nil {
		return nil, err
	}
	streams, err := buildStreams(cfg, factory, true)
	if err != nil {
		return nil, err
	}
	// Build one player per table now so that a bad table fails before the
	// run directory is touched.
	for _, st := range streams {
		for _, sp := range []PlayerSpec{st.first, st.second} {
			if _, err := factory(sp); err != nil {
				return nil, fmt.Errorf("stream %s: %w", st.name, err)
			}
		}
	}
	tables, err := cfg.DefaultTables()
	if err != nil {
		return nil, err
	}
	unlock, err := openRunDir(dir, cfg, newPlan(cfg, hash, streams), tables)
	if err != nil {
		return nil, err
	}
	defer unlock()
	defer func() {
		for _, st := range streams {
			if st.journal != nil {
				st.journal.close()
			}
		}
	}()
	type task struct {
		st   *stream
		pair int
	}
	var tasks []task
	for _, st := range streams {
		if err := os.MkdirAll(filepath.Join(dir, st.dir), 0o755); err != nil {
			return nil, err
		}
		j, entries, err := openJournal(filepath.Join(dir, st.dir, journalName))
		if err != nil {
			return nil, err
		}
		st.journal, st.entries = j, entries
		done := map[int]bool{}
		for _, e := range entries {
			if e.pair >= st.pairs || !cfg.Shard.Has(e.pair) {
				return nil, fmt.Errorf("%s: pair %d does not belong to this run (stream %s has %d pairs, shard %s)", j.path, e.pair, st.name, st.pairs, cfg.Shard)
			}
			done[e.pair] = true
		}
		if st.sprt != nil {
			st.outcomes = map[int]elo.Pair{}
			files := map[string]*os.File{}
			for _, e := range entries {
				p, err := readEntry(files, e)
				if err != nil {
					return nil, err
				}
				st.addOutcome(p)
			}
			for _, f := range files {
				f.Close()
			}
		}
		if st.decided {
			continue
		}
		for i := 0; i < st.pairs; i++ {
			if cfg.Shard.Has(i) && !done[i] {
				tasks = append(tasks, task{st, i})
			}
		}
	}

	start := time.Now()
	prog := newProgress(opts.Progress, len(tasks), opts.LogInterval)
	var cmu sync.Mutex
	perStream := map[string]int{}
	total := 0

	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers)
	streamCtx := map[*stream]context.Context{}
	for _, st := range streams {
		sctx, cancel := context.WithCancel(gctx)
		defer cancel()
		st.cancel = cancel
		streamCtx[st] = sctx
	}
	for _, t := range tasks {
		if gctx.Err() != nil {
			break
		}
		if t.st.isDecided() {
			continue
		}
		g.Go(func() error {
			sctx := streamCtx[t.st]
			if sctx.Err() != nil {
				return nil
			}
			p, err := t.st.playPair(sctx, cfg, factory, t.pair)
			if err != nil {
				if sctx.Err() != nil && errors.Is(err, sctx.Err()) {
					return nil // cancelled or decided: the pair is played again on resume
				}
				return fmt.Errorf("stream %s, pair %d: %w", t.st.name, t.pair, err)
			}
			if err := t.st.record(p); err != nil {
				return err
			}
			cmu.Lock()
			perStream[t.st.name]++
			total++
			cmu.Unlock()
			prog.pairDone()
			if opts.afterPair != nil {
				opts.afterPair(t.st.name, t.pair)
			}
			return nil
		})
	}
	runErr := g.Wait()
	prog.finish()
	wall := time.Since(start)
	if runErr == nil && ctx.Err() != nil {
		runErr = ctx.Err()
	}

	res, err := writeRunOutputs(dir, cfg, hash, streams)
	if err != nil {
		return nil, errors.Join(runErr, err)
	}
	tm := &Timing{Workers: workers, WallSeconds: wall.Seconds(), PairsPlayed: total, GamesPlayed: 2 * total}
	if s := wall.Seconds(); s > 0 {
		tm.GamesPerHour = float64(2*total) / s * 3600
	}
	for i, st := range streams {
		ts := res.streamTiming[i]
		ts.GamesPlayed = 2 * perStream[st.name]
		tm.Streams = append(tm.Streams, ts)
	}
	res.Timing = tm
	if err := fsx.WriteJSON(filepath.Join(dir, TimingName), tm); err != nil {
		return nil, errors.Join(runErr, err)
	}
	return &res.Result, runErr
}

// runOutputs is what writeRunOutputs produces.
type runOutputs struct {
	Result
	streamTiming []StreamTiming
}

// writeRunOutputs regenerates every stream's outputs and summary.json.
func writeRunOutputs(dir string, cfg *Config, hash string, streams []*stream) (*runOutputs, error) {
	sum := &Summary{Format: formatVersion, ConfigHash: hash, Shard: cfg.Shard.String(), Complete: true}
	out := &runOutputs{}
	for _, st := range streams {
		st.mu.Lock()
		entries := append([]jEntry(nil), st.entries...)
		st.mu.Unlock()
		ss, ms, err := st.writeOutputs(dir, entries)
		if err != nil {
			return nil, err
		}
		if ss.Pairs < ss.PairsPlanned && (ss.SPRT == nil || ss.SPRT.DecidedAt == 0) {
			sum.Complete = false
		}
		sum.Streams = append(sum.Streams, ss)
		ts := StreamTiming{Name: st.name, GameSeconds: float64(ms) / 1000}
		if ms > 0 {
			ts.GamesPerCoreHour = float64(ss.Games) / (float64(ms) / 1000) * 3600
		}
		out.streamTiming = append(out.streamTiming, ts)
	}
	if err := fsx.WriteJSON(filepath.Join(dir, SummaryName), sum); err != nil {
		return nil, err
	}
	out.Summary = sum
	return out, nil
}

// ReadSummary reads a summary.json.
func ReadSummary(path string) (*Summary, error) {
	var s Summary
	if err := fsx.ReadJSON(path, &s, ""); err != nil {
		return nil, err
	}
	return &s, nil
}
