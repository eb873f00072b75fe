package uci

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/engine/search"
	"tamerlane/internal/lineio"
	"tamerlane/internal/notation"
	"tamerlane/internal/timeman"
	"tamerlane/variantfile"
)

// Defaults of the engine options.
const (
	DefaultHashMiB      = 64
	DefaultMoveOverhead = 50 * time.Millisecond
	maxLine             = 4 << 20 // longest accepted input line (a long game's position command)
)

// Server is a UCI engine on one input and one output stream: the state of
// one GUI session (options, position, searcher). Create it with NewServer
// and call Run once.
type Server struct {
	name, author string

	outMu sync.Mutex
	out   *bufio.Writer

	variant  string
	rules    string
	weights  string
	hashMiB  int
	overhead time.Duration

	v        *engine.Variant
	files    variantfile.Catalog // variants read from variant files (AddVariantFile)
	pos      *engine.Position
	searcher *search.Searcher // nil: built at the next isready or go
	builtFor string           // the variant, rules and weights searcher evaluates

	lag [2]timeman.LagTracker // by side to move: latency the GUI's clock sees beyond the engine's own time

	cancel context.CancelFunc // cancels the running search
	done   chan struct{}      // closed when the running search has printed bestmove
}

// NewServer returns a server that introduces itself as name, playing
// chess from the start position until told otherwise.
func NewServer(name, author string) *Server {
	v := engine.MustVariant("chess", nil)
	return &Server{
		name: name, author: author,
		variant: "chess", hashMiB: DefaultHashMiB, overhead: DefaultMoveOverhead,
		v: v, pos: engine.NewPosition(v),
	}
}

// Run serves UCI commands read from in, writing answers to out, until
// quit, the end of in, or the cancellation of ctx; a running search is
// stopped (its bestmove printed) before Run returns. Bad input is
// answered with an "info string error" line and otherwise ignored.
func (s *Server) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	s.out = bufio.NewWriter(out)
	lines, readErr := lineio.Lines(ctx, in, maxLine)
	defer s.stopSearch()
	for {
		select {
		case <-ctx.Done():
			return nil
		case line, ok := <-lines:
			if !ok {
				return <-readErr
			}
			if !s.handle(ctx, line) {
				return nil
			}
		}
	}
}

// handle executes one command line and reports whether to go on.
func (s *Server) handle(ctx context.Context, line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	cmd, args := f[0], f[1:]
	switch cmd {
	case "uci":
		s.printUCI()
	case "isready":
		if !s.searching() {
			s.ensureSearcher()
		}
		s.send("readyok")
	case "debug":
	case "quit":
		return false
	case "stop":
		s.stopSearch()
	case "ponderhit":
		// Pondering is not offered; nothing to do.
	case "ucinewgame":
		s.stopSearch()
		s.lag[0].Reset()
		s.lag[1].Reset()
		s.ensureSearcher()
		if s.searcher != nil {
			s.searcher.Clear()
		}
	case "setoption":
		s.stopSearch()
		s.setOption(args)
	case "position":
		s.stopSearch()
		s.setPosition(args)
	case "go":
		s.stopSearch()
		s.goCmd(ctx, args)
	case "d":
		s.stopSearch()
		s.send("Fen: " + s.pos.FEN())
	default:
		s.errorf("unknown command %q", cmd)
	}
	return true
}

// send writes one line and flushes it.
func (s *Server) send(line string) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.out.WriteString(line)
	s.out.WriteByte('\n')
	s.out.Flush()
}

// errorf reports bad input as an info string.
func (s *Server) errorf(format string, args ...any) {
	s.send("info string error: " + fmt.Sprintf(format, args...))
}

func (s *Server) printUCI() {
	s.send("id name " + s.name)
	s.send("id author " + s.author)
	combo := "option name UCI_Variant type combo default " + s.variant
	for _, n := range s.variantNames() {
		combo += " var " + n
	}
	s.send(combo)
	s.send("option name VariantFile type string default <empty>")
	s.send("option name Rules type string default <empty>")
	s.send("option name Weights type string default <empty>")
	s.send(fmt.Sprintf("option name Hash type spin default %d min 1 max %d", DefaultHashMiB, search.MaxHashMiB))
	s.send("option name Clear Hash type button")
	s.send(fmt.Sprintf("option name Move Overhead type spin default %d min 0 max 5000", DefaultMoveOverhead.Milliseconds()))
	s.send("uciok")
}

// setOption handles "setoption name N [value V]".
func (s *Server) setOption(args []string) {
	if len(args) < 2 || args[0] != "name" {
		s.errorf("setoption needs: name <name> [value <value>]")
		return
	}
	name, value, hasValue := strings.Join(args[1:], " "), "", false
	if i := indexOf(args, "value"); i > 0 {
		name, value, hasValue = strings.Join(args[1:i], " "), strings.Join(args[i+1:], " "), true
	}
	if value == "<empty>" {
		value = ""
	}
	switch strings.ToLower(name) {
	case "uci_variant":
		s.setVariant(value, s.rules)
	case "variantfile":
		if err := s.AddVariantFile(value); err != nil {
			s.errorf("option VariantFile: %v", err)
		}
	case "rules":
		s.setVariant(s.variant, value)
	case "weights":
		s.weights = value
		s.searcher = nil
	case "hash":
		n, err := strconv.Atoi(value)
		if err == nil {
			err = search.ValidateHashMiB(n)
		}
		if err != nil || !hasValue {
			s.errorf("option Hash: bad value %q (1..%d MiB)", value, search.MaxHashMiB)
			return
		}
		s.hashMiB = n
		s.searcher = nil
	case "move overhead":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 || n > 5000 {
			s.errorf("option Move Overhead: bad value %q (0..5000 ms)", value)
			return
		}
		s.overhead = time.Duration(n) * time.Millisecond
	case "clear hash":
		if s.searcher != nil {
			s.searcher.Clear()
		}
	default:
		s.errorf("unknown option %q", name)
	}
}

// setVariant switches to variant name with rule options rules and resets
// the position to its start. Rules that do not apply to the variant are
// reported and the variant is played without them (they are kept, so the
// options may come in either order); an unknown variant changes nothing.
func (s *Server) setVariant(name, rules string) {
	opts, err := engine.ParseOptions(rules)
	if err != nil {
		s.errorf("option Rules: %v", err)
		return
	}
	v, err := s.newVariant(name, opts)
	if err != nil && rules != "" {
		if plain, err2 := s.newVariant(name, nil); err2 == nil {
			s.errorf("variant %q with rules %q: %v; playing %s without them", name, rules, err, name)
			v, err = plain, nil
		}
	}
	if err != nil {
		s.errorf("variant %q: %v", name, err)
		return
	}
	s.variant, s.rules, s.v = name, rules, v
	s.pos = engine.NewPosition(v)
	s.searcher = nil
}

// ensureSearcher builds the searcher for the current variant, rules,
// weights and hash size if they changed. A weights file that cannot be
// loaded is reported and the embedded table used instead.
func (s *Server) ensureSearcher() {
	key := fmt.Sprintf("%s\x00%s\x00%s", s.variant, s.v.Options, s.weights)
	if s.searcher != nil && s.builtFor == key {
		return
	}
	var w *eval.Weights
	var err error
	if s.weights != "" {
		if w, err = eval.LoadFile(s.v, s.weights); err != nil {
			s.errorf("option Weights: %v; using the embedded table", err)
		}
	}
	if w == nil {
		if w, err = eval.Default(s.v); err != nil {
			s.errorf("no evaluation table for %s: %v", s.variant, err)
			return
		}
	}
	s.searcher = search.New(eval.New(w), s.hashMiB)
	s.builtFor = key
}

// setPosition handles "position startpos|fen F [moves M...]". A bad FEN
// leaves the position unchanged; an illegal move is reported and the
// position kept as it stood before that move.
func (s *Server) setPosition(args []string) {
	if len(args) == 0 {
		s.errorf("position needs startpos or fen")
		return
	}
	mi := indexOf(args, "moves")
	head, moves := args, []string(nil)
	if mi >= 0 {
		head, moves = args[:mi], args[mi+1:]
	}
	if len(head) == 0 {
		// "position moves ...": the moves have nothing to start from.
		s.errorf("position needs startpos or fen before moves; position unchanged")
		return
	}
	var pos *engine.Position
	switch head[0] {
	case "startpos":
		if len(head) > 1 {
			s.errorf("unexpected %q after startpos", head[1])
		}
		pos = engine.NewPosition(s.v)
	case "fen":
		p, err := engine.ParseFEN(s.v, strings.Join(head[1:], " "))
		if err != nil {
			s.errorf("bad FEN for %s: %v", s.variant, err)
			return
		}
		pos = p
	default:
		s.errorf("position needs startpos or fen, not %q", head[0])
		return
	}
	for i, mv := range moves {
		m, err := notation.ParseMove(pos, mv)
		if err != nil {
			s.errorf("move %d: %v", i+1, err)
			break
		}
		pos.Make(m)
	}
	s.pos = pos
}

// goParams are the arguments of a go command.
type goParams struct {
	depth, perft                int
	nodes                       int64
	moveTime                    time.Duration
	wtime, btime, winc, binc    time.Duration
	movesToGo                   int
	infinite, hasClock, hasTime bool
	// rejected: an argument was reported and skipped (go then never
	// searches for ever unless told infinite)
	rejected bool
}

// parseGo reads the arguments of go; bad tokens are reported and skipped.
// A depth, node count, mate length or perft depth must be positive.
func (s *Server) parseGo(args []string) goParams {
	var g goParams
	num := func(i int) (int64, bool) {
		if i+1 >= len(args) {
			s.errorf("go %s: missing value", args[i])
			return 0, false
		}
		n, err := strconv.ParseInt(args[i+1], 10, 64)
		if err != nil {
			s.errorf("go %s: bad value %q", args[i], args[i+1])
			return 0, false
		}
		switch args[i] {
		case "depth", "nodes", "mate", "perft":
			if n < 1 {
				s.errorf("go %s: bad value %q (at least 1)", args[i], args[i+1])
				return 0, false
			}
		}
		return n, true
	}
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	for i := 0; i < len(args); i++ {
		key := args[i]
		switch key {
		case "infinite":
			g.infinite = true
			continue
		case "ponder":
			s.errorf("pondering is not supported; searching normally")
			continue
		case "searchmoves":
			s.errorf("searchmoves is not supported; searching every move")
			for i+1 < len(args) && !isGoKeyword(args[i+1]) {
				i++
			}
			continue
		}
		if !isGoKeyword(key) {
			s.errorf("go: unknown argument %q", key)
			g.rejected = true
			continue
		}
		n, ok := num(i)
		i++
		if !ok {
			g.rejected = true
			continue
		}
		// Some GUIs send a negative clock once it has run out; a year
		// of milliseconds is plenty.
		n = min(max(n, 0), 365*24*3600*1000)
		switch key {
		case "depth":
			g.depth = int(min(n, search.MaxPly))
		case "nodes":
			g.nodes = n
		case "movetime":
			g.moveTime, g.hasTime = ms(n), true
		case "wtime":
			g.wtime, g.hasClock = ms(n), true
		case "btime":
			g.btime, g.hasClock = ms(n), true
		case "winc":
			g.winc = ms(n)
		case "binc":
			g.binc = ms(n)
		case "movestogo":
			g.movesToGo = int(min(n, 1000))
		case "mate":
			g.depth = int(min(2*n+1, search.MaxPly))
		case "perft":
			g.perft = int(min(n, 20))
		}
	}
	return g
}

func isGoKeyword(s string) bool {
	switch s {
	case "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate", "perft",
		"infinite", "ponder", "searchmoves":
		return true
	}
	return false
}

// goCmd starts a search (or a perft count) as go's arguments say.
func (s *Server) goCmd(ctx context.Context, args []string) {
	start := time.Now()
	g := s.parseGo(args)
	if g.perft > 0 {
		s.startPerft(ctx, g.perft)
		return
	}
	if g.rejected && !g.infinite && g.depth == 0 && g.nodes == 0 && !g.hasTime && !g.hasClock {
		// A bad limit must not turn into an endless search whose
		// bestmove never comes: answer from the smallest search.
		s.send("info string no valid limit: searching depth 1")
		g.depth = 1
	}
	lim := search.Limits{Depth: g.depth, Nodes: g.nodes}
	var lt *timeman.LagTracker // the clock's latency tracker when searching by the clock
	switch {
	case g.hasTime:
		lim.MoveTime = max(time.Millisecond, g.moveTime-s.overhead)
	case g.hasClock && !g.infinite:
		left, inc := g.wtime, g.winc
		if s.pos.SideToMove() == engine.Black {
			left, inc = g.btime, g.binc
		}
		lt = &s.lag[s.pos.SideToMove()]
		lag := lt.Observe(left, inc)
		plan := left
		if g.movesToGo == 0 {
			plan = max(0, left-lt.Floor())
		}
		lim.Optimum, lim.MoveTime = timeman.Budget(timeman.Clock{Left: plan, Inc: inc, MovesToGo: g.movesToGo,
			Overhead: s.overhead + lag, Ply: s.pos.GamePly()})
	}
	infinite := g.infinite || lim.Depth == 0 && lim.Nodes == 0 && lim.MoveTime == 0
	s.ensureSearcher()
	if s.searcher == nil {
		s.send("bestmove (none)")
		return
	}
	// Time spent before the search (parsing, table loading) counts.
	if lim.MoveTime > 0 {
		spent := time.Since(start)
		lim.MoveTime = max(time.Millisecond, lim.MoveTime-spent)
		if lim.Optimum > 0 {
			lim.Optimum = max(time.Millisecond, min(lim.Optimum-spent, lim.MoveTime))
		}
	}
	pos := s.pos.Clone()
	root := pos.Clone()
	searcher := s.searcher
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	s.cancel, s.done = cancel, done
	// The final report repeats the last iteration's only when the search
	// went on after it (a partial iteration's nodes and time).
	reported := int64(-1)
	lim.Info = func(r search.Result) {
		reported = r.Nodes
		s.send(infoLine(root, r))
	}
	go func() {
		defer close(done)
		if res, reason := pos.Outcome(); res != engine.Ongoing {
			s.send(fmt.Sprintf("info string game over: %s (%s)", res, reason))
		}
		r := searcher.Search(sctx, pos, lim)
		if infinite {
			<-sctx.Done() // UCI: no bestmove before stop in infinite mode
		}
		if r.Best == engine.NullMove {
			s.send("info depth 0 score " + scoreString(r))
			s.send("bestmove (none)")
			return
		}
		if r.Nodes != reported {
			s.send(infoLine(root, r))
		}
		s.send("bestmove " + notation.FormatMove(root, r.Best))
		if lt != nil {
			lt.Moved(time.Since(start))
		}
	}()
}

// startPerft starts a perft count on its own goroutine. It is stopped
// as a search is: by stop, quit, the end of the input and any command
// that stops a search; isready is answered meanwhile.
func (s *Server) startPerft(ctx context.Context, depth int) {
	pos := s.pos.Clone()
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	s.cancel, s.done = cancel, done
	go func() {
		defer close(done)
		s.perft(sctx.Done(), pos, depth)
	}()
}

// searching reports whether a search (or a perft count) is running.
func (s *Server) searching() bool {
	if s.done == nil {
		return false
	}
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// stopSearch stops the running search or perft count, if any, and
// waits until it has printed its bestmove (or its last count).
func (s *Server) stopSearch() {
	if s.done == nil {
		return
	}
	s.cancel()
	<-s.done
	s.cancel, s.done = nil, nil
}

// infoLine formats a search result as a UCI info line: depth is the last
// completed iteration (0 if the search stopped in the first) and
// seldepth the longest line searched, which is shorter than depth when
// every line ended early (by a rule, a table cutoff or pruning).
func infoLine(root *engine.Position, r search.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d seldepth %d score %s nodes %d nps %d time %d",
		r.Depth, r.SelDepth, scoreString(r), r.Nodes, r.NPS, r.Elapsed.Milliseconds())
	if len(r.PV) > 0 {
		b.WriteString(" pv ")
		b.WriteString(notation.FormatLine(root, r.PV))
	}
	return b.String()
}

func scoreString(r search.Result) string {
	if r.Mate != 0 {
		return fmt.Sprintf("mate %d", r.Mate)
	}
	return fmt.Sprintf("cp %d", r.Score)
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}
