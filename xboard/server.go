package xboard

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/engine/search"
	"tamerlane/internal/lineio"
	"tamerlane/internal/timeman"
	"tamerlane/variantfile"
)

// Server is a CECP (XBoard/WinBoard protocol version 2) engine on one
// input and one output stream. Create it with NewServer and call Run once.
type Server struct {
	name string

	outMu sync.Mutex
	out   *bufio.Writer

	v        *engine.Variant
	files    variantfile.Catalog // variants read from variant files (AddVariantFile)
	b        *board
	pos      *engine.Position
	searcher *search.Searcher
	hashMiB  int

	force  bool         // play neither side
	engine engine.Color // the side the engine plays
	post   bool         // print thinking output
	over   bool         // the game has ended (no more moves from us)

	depth    int           // sd (0: none)
	moveTime time.Duration // st (0: none)
	mps      int           // level: moves per time control (0: all)
	inc      time.Duration // level: increment
	myTime   time.Duration // time: our clock
	movesAt  int           // ply at which the current level started counting

	cancel context.CancelFunc
	gen    int // search generation; results of older searches are dropped
	found  chan searchDone
}

// searchDone is a finished search's answer.
type searchDone struct {
	gen int
	res search.Result
}

// overhead is the time reserved per move for pipe and GUI latency.
const overhead = 50 * time.Millisecond

// NewServer returns a server that introduces itself as name, playing
// chess until XBoard names another variant.
func NewServer(name string) *Server {
	s := &Server{name: name, hashMiB: 64, post: true, engine: engine.Black, found: make(chan searchDone, 1)}
	s.setVariant("chess")
	s.myTime = 5 * time.Minute
	return s
}

// Run serves CECP commands read from in, writing to out, until quit, the
// end of in, or the cancellation of ctx. Bad input gets an "Error" or
// "Illegal move" reply and is otherwise ignored.
func (s *Server) Run(ctx context.Context, in io.Reader, out io.Writer) error {
	s.out = bufio.NewWriter(out)
	lines, readErr := lineio.Lines(ctx, in, 1<<20)
	defer s.stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case d := <-s.found:
			s.finish(d)
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

func (s *Server) send(format string, args ...any) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	fmt.Fprintf(s.out, format, args...)
	s.out.WriteByte('\n')
	s.out.Flush()
}

// handle executes one command and reports whether to go on.
func (s *Server) handle(ctx context.Context, line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return true
	}
	cmd, args := f[0], f[1:]
	arg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), cmd))
	switch cmd {
	case "xboard", "accepted", "rejected", "random", "hard", "easy", "computer", "name", "rating", "ics", "draw", "hint", "bk", "cores", "otim", "white", "black", "exit", ".":
		// Nothing to do (draw offers are declined by silence).
	case "protover":
		s.features()
	case "quit":
		return false
	case "new":
		s.stop()
		s.setVariant("chess")
		s.force, s.engine, s.depth, s.over = false, engine.Black, 0, false
	case "variant":
		s.stop()
		name := arg
		if _, rest, ok := strings.Cut(name, "_"); ok && strings.Contains(name[:strings.IndexByte(name, '_')], "x") {
			name = rest // a board-size prefix such as 11x10_
		}
		if name == "normal" {
			name = "chess"
		}
		if !s.setVariant(name) {
			s.send("Error (unknown variant): %s", arg)
			return true
		}
		if su := s.b.setup(s.pos); su != "" {
			s.send("%s", su)
			for _, pc := range pieceCommands(s.b) {
				s.send("%s", pc)
			}
		}
	case "force":
		s.stop()
		s.force = true
	case "go":
		s.stop()
		s.force = false
		s.engine = s.pos.SideToMove()
		s.think(ctx)
	case "playother":
		s.stop()
		s.force = false
		s.engine = s.pos.SideToMove().Other()
	case "?":
		s.moveNow()
	case "level":
		s.level(args)
	case "st":
		if d, ok := clockArg(arg, time.Second); ok && d > 0 {
			s.moveTime = d
		} else {
			s.send("Error (bad value): %s", line)
		}
	case "sd":
		n, err := strconv.Atoi(arg)
		if errors.Is(err, strconv.ErrRange) && n > 0 {
			n, err = search.MaxPly, nil // deeper than any search: as deep as one goes
		}
		if err == nil && n > 0 {
			s.depth = min(n, search.MaxPly)
		} else {
			s.send("Error (bad value): %s", line)
		}
	case "time":
		if d, ok := clockArg(arg, 10*time.Millisecond); ok {
			s.myTime = max(d, 0) // a flagged clock is sent negative
		} else {
			s.send("Error (bad value): %s", line)
		}
	case "memory":
		if n, err := strconv.Atoi(arg); err == nil && search.ValidateHashMiB(n) == nil {
			s.hashMiB, s.searcher = n, nil
		} else {
			s.send("Error (bad value): %s", line)
		}
	case "ping":
		s.send("pong %s", arg)
	case "post":
		s.post = true
	case "nopost":
		s.post = false
	case "result":
		s.stop()
		s.over = true
	case "setboard":
		s.stop()
		pos, err := s.b.parseFEN(arg)
		if err != nil {
			s.send("tellusererror Illegal position: %v", err)
			s.send("Error (bad FEN): %s", arg)
			return true
		}
		s.pos, s.over = pos, false
	case "usermove":
		s.userMove(ctx, arg)
	case "undo", "remove":
		s.stop()
		n := 1
		if cmd == "remove" {
			n = 2
		}
		for ; n > 0 && s.pos.LastMove() != engine.NullMove; n-- {
			s.pos.Unmake()
		}
		s.over = false
	case "analyze":
		s.send("Error (not supported): analyze")
	default:
		// Protocol version 1 sends moves without "usermove".
		if _, err := s.b.parseMove(s.pos, cmd); err == nil && len(f) == 1 {
			s.userMove(ctx, cmd)
			return true
		}
		s.send("Error (unknown command): %s", cmd)
	}
	return true
}

// features answers protover 2.
func (s *Server) features() {
	names := make([]string, 0, 8)
	for _, n := range engine.VariantNames() {
		if x, ok := native[n]; ok {
			n = x
		}
		names = append(names, n)
	}
	names = append(names, s.files.Names()...)
	s.send(`feature done=0`)
	s.send(`feature ping=1 setboard=1 playother=1 usermove=1 san=0 time=1 draw=0 sigint=0 sigterm=0 reuse=1 analyze=0 colors=0 memory=1 name=0 myname="%s" variants="%s"`,
		s.name, strings.Join(names, ","))
	s.send("feature done=1")
}

// setVariant switches to the named variant's start position; false if
// there is no such variant.
func (s *Server) setVariant(name string) bool {
	v, err := s.newVariant(name)
	if err != nil {
		return false
	}
	s.useVariant(v)
	return true
}

// useVariant switches to v's start position.
func (s *Server) useVariant(v *engine.Variant) {
	s.v, s.b, s.pos, s.searcher, s.over = v, newBoard(v), engine.NewPosition(v), nil, false
}

// level handles "level MPS BASE INC" (BASE minutes or minutes:seconds).
func (s *Server) level(args []string) {
	if len(args) != 3 {
		s.send("Error (bad level): level %s", strings.Join(args, " "))
		return
	}
	mps, err1 := strconv.Atoi(args[0])
	inc, ok2 := clockArg(args[2], time.Second)
	mins, secs, _ := strings.Cut(args[1], ":")
	m, ok3 := clockArg(mins, time.Minute)
	sec, ok4 := time.Duration(0), true
	if secs != "" {
		sec, ok4 = clockArg(secs, time.Second)
	}
	if err1 != nil || !ok2 || !ok3 || !ok4 || mps < 0 || inc < 0 || m < 0 || sec < 0 {
		s.send("Error (bad level): level %s", strings.Join(args, " "))
		return
	}
	s.mps, s.inc, s.moveTime, s.movesAt = mps, inc, 0, s.pos.GamePly()
	s.myTime = min(m+sec, maxClock)
}

// maxClock bounds every time CECP gives (st, time, level): a day, more
// than any game here lasts, and far from where a time.Duration
// overflows (a clock of 1e20 seconds came out negative).
const maxClock = 24 * time.Hour

// clockArg reads a CECP time argument in units of unit (st: seconds,
// time: centiseconds, level: minutes and seconds): a decimal number, of
// either sign. A number too large for any clock, however many digits it
// has, is taken as maxClock (below -maxClock, as -maxClock), the same
// for every command; NaN, Inf and what is not a number are refused.
func clockArg(s string, unit time.Duration) (time.Duration, bool) {
	x, err := strconv.ParseFloat(s, 64)
	switch {
	case errors.Is(err, strconv.ErrRange):
		// Too many digits for a float64: x is ±Inf or 0, as it should be.
	case err != nil || math.IsNaN(x) || math.IsInf(x, 0):
		return 0, false
	}
	limit := float64(maxClock) / float64(unit)
	return time.Duration(max(-limit, min(x, limit)) * float64(unit)), true
}

// userMove plays the opponent's move and, unless in force mode, answers.
func (s *Server) userMove(ctx context.Context, mv string) {
	s.stop()
	m, err := s.b.parseMove(s.pos, mv)
	if err != nil {
		s.send("Illegal move (%v): %s", err, mv)
		return
	}
	s.pos.Make(m)
	if s.announce() {
		return
	}
	if !s.force && s.pos.SideToMove() == s.engine {
		s.think(ctx)
	}
}

// announce prints the result if the game is over and reports whether it is.
func (s *Server) announce() bool {
	res, reason := s.pos.Outcome()
	if res == engine.Ongoing {
		return false
	}
	s.over = true
	s.send("%s {%s}", res, reason)
	return true
}

// ensureSearcher builds the searcher for the current variant.
func (s *Server) ensureSearcher() bool {
	if s.searcher != nil {
		return true
	}
	w, err := eval.Default(s.v)
	if err != nil {
		s.send("Error (no evaluation table): %v", err)
		return false
	}
	s.searcher = search.New(eval.New(w), s.hashMiB)
	return true
}

// think starts a search for the side to move within the time control.
func (s *Server) think(ctx context.Context) {
	if s.over || !s.ensureSearcher() {
		return
	}
	if s.announce() {
		return
	}
	lim := search.Limits{Depth: s.depth}
	switch {
	case s.moveTime > 0:
		lim.MoveTime = max(time.Millisecond, s.moveTime-overhead)
	default:
		mtg := 0
		if s.mps > 0 {
			played := (s.pos.GamePly() - s.movesAt) / 2
			mtg = s.mps - played%s.mps
		}
		lim.Optimum, lim.MoveTime = timeman.Budget(timeman.Clock{Left: s.myTime, Inc: s.inc, MovesToGo: mtg,
			Overhead: overhead, Ply: s.pos.GamePly()})
	}
	root := s.pos.Clone()
	pos := s.pos.Clone()
	b := s.b
	if s.post {
		lim.Info = func(r search.Result) { s.send("%s", b.thinking(root, r)) }
	}
	sctx, cancel := context.WithCancel(ctx)
	s.gen++
	gen, searcher, found := s.gen, s.searcher, s.found
	done := make(chan struct{})
	s.cancel = func() { cancel(); <-done }
	go func() {
		defer close(done)
		r := searcher.Search(sctx, pos, lim)
		found <- searchDone{gen: gen, res: r}
	}()
}

// finish plays a finished search's move, if it is still wanted.
func (s *Server) finish(d searchDone) {
	if d.gen != s.gen {
		return
	}
	s.cancel = nil
	s.gen++
	if d.res.Best == engine.NullMove {
		s.announce()
		return
	}
	mv := s.b.formatMove(s.pos, d.res.Best)
	s.pos.Make(d.res.Best)
	s.send("move %s", mv)
	s.announce()
}

// moveNow stops the search and plays its best move so far.
func (s *Server) moveNow() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.finish(<-s.found)
	s.cancel = nil
}

// stop abandons the running search, if any, without playing its move.
func (s *Server) stop() {
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	<-s.found
	s.gen++
}

// thinking formats a search result as XBoard thinking output:
// ply score time(centiseconds) nodes pv.
func (b *board) thinking(root *engine.Position, r search.Result) string {
	score := r.Score
	if r.Mate != 0 {
		// XBoard's convention for mate scores: 100000 + moves.
		score = 100000 + r.Mate
		if r.Mate < 0 {
			score = -100000 + r.Mate
		}
	}
	var pv []string
	q := root.Clone()
	for _, m := range r.PV {
		pv = append(pv, b.formatMove(q, m))
		q.Make(m)
	}
	return fmt.Sprintf("%d %d %d %d %s", max(r.Depth, 1), score, r.Elapsed.Milliseconds()/10, r.Nodes, strings.Join(pv, " "))
}
