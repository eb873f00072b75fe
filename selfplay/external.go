package selfplay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"tamerlane/engine"
	"tamerlane/engine/search"
	"tamerlane/internal/notation"
	"tamerlane/variantfile"
)

// Terminations of games lost by an outside engine's failure rather than
// by the rules (the opponent wins; the PGN's Termination tag says which).
const (
	// TermTimeForfeit: the engine ran out of its clock (EngineSpec.TC) or
	// did not answer within its move timeout.
	TermTimeForfeit = "time forfeit"
	// TermIllegalMove: the engine played a move that is not legal or not
	// a move at all.
	TermIllegalMove = "illegal move"
	// TermEngineCrash: the engine's process ended or could not be started.
	TermEngineCrash = "engine crash"
)

// EngineSpec names an outside UCI engine that plays one side of a match
// (MatchConfig.EngineA/EngineB, or `tamerlane match --engine-b`):
//
//	b_engine: {cmd: /usr/bin/fairy-stockfish, options: {Hash: "16"}, nodes: 20000}
//
// The engine gets UCI_Variant (Fairy-Stockfish's name of the variant, or
// ours if it offers it) and, if the engine has a Rules option and the
// variant's rule options are not the defaults, Rules. Its per-move limit
// is TC if set, else MoveTime, else Nodes/Depth, else the stream's node
// and depth limits. A node limit varies by the stream's nodes_jitter, as
// this engine's does, so that the two games of a pair between
// deterministic engines (an engine against itself) are not one game
// played twice.
type EngineSpec struct {
	// Cmd is the engine's executable (looked up in PATH if it has no slash).
	Cmd string `yaml:"cmd" json:"cmd"`
	// Args are its command-line arguments.
	Args []string `yaml:"args,omitempty" json:"args,omitempty"`
	// Options are UCI options set after the handshake (name: value).
	Options map[string]string `yaml:"options,omitempty" json:"options,omitempty"`
	// Name is the player's name in the PGN (default: Cmd's base name).
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// Nodes and Depth limit each move ("go nodes N depth D").
	Nodes int64 `yaml:"nodes,omitempty" json:"nodes,omitempty"`
	// Depth limits each move's depth.
	Depth int `yaml:"depth,omitempty" json:"depth,omitempty"`
	// MoveTime is a fixed time per move in milliseconds ("go movetime").
	MoveTime int `yaml:"movetime,omitempty" json:"movetime,omitempty"`
	// TC is a clock "SECONDS+INCREMENT" (e.g. "10+0.1") kept per game.
	// The engine loses on time when a move takes longer than its clock.
	// It is told its own clock for both sides (the opponent's is not
	// known to this player).
	TC string `yaml:"tc,omitempty" json:"tc,omitempty"`
	// TimeoutMs bounds the wait for a move under node, depth or movetime
	// limits and for the handshake (default 60000).
	TimeoutMs int `yaml:"timeout_ms,omitempty" json:"timeout_ms,omitempty"`
	// Restart starts the engine afresh for every game (cutechess-cli's
	// restart=on), for engines that keep state across ucinewgame. By
	// default a run keeps its engines from game to game.
	Restart bool `yaml:"restart,omitempty" json:"restart,omitempty"`
}

// Label is the engine's name in the PGN.
func (e *EngineSpec) Label() string {
	if e.Name != "" {
		return e.Name
	}
	return filepath.Base(e.Cmd)
}

// engineLabel names a player by its outside engine, else by its table.
func engineLabel(e *EngineSpec, table string) string {
	if e != nil {
		return e.Label()
	}
	return label(table)
}

// Validate checks the spec without starting the engine: the command
// exists on this machine (exec.LookPath) and the limits parse.
func (e *EngineSpec) Validate() error { return e.validate(true) }

// ValidateOffline checks the spec as Validate does except whether the
// command exists on this machine: what reading the files of a run the
// engine played needs (on another machine, say).
func (e *EngineSpec) ValidateOffline() error { return e.validate(false) }

func (e *EngineSpec) validate(lookPath bool) error {
	if e.Cmd == "" {
		return errors.New("engine: cmd is empty")
	}
	if lookPath {
		if _, err := exec.LookPath(e.Cmd); err != nil {
			return fmt.Errorf("engine: cmd %q: %v", e.Cmd, err)
		}
	}
	if e.Nodes < 0 || e.Depth < 0 || e.MoveTime < 0 || e.TimeoutMs < 0 {
		return fmt.Errorf("engine %s: nodes, depth, movetime and timeout_ms must not be negative", e.Label())
	}
	if e.MoveTime > maxClockSeconds*1000 || e.TimeoutMs > maxClockSeconds*1000 {
		return fmt.Errorf("engine %s: movetime and timeout_ms must be at most %d ms (a day)", e.Label(), maxClockSeconds*1000)
	}
	if e.TC != "" {
		if _, _, err := ParseTC(e.TC); err != nil {
			return fmt.Errorf("engine %s: %v", e.Label(), err)
		}
	}
	return nil
}

// check validates a spec that may be absent (nil is valid); lookPath:
// see Validate and ValidateOffline.
func (e *EngineSpec) check(lookPath bool) error {
	if e == nil {
		return nil
	}
	return e.validate(lookPath)
}

// maxClockSeconds bounds a clock, an increment and a time per move: a
// day, far beyond any game played here, and far below the 292 years at
// which a time.Duration overflows.
const maxClockSeconds = 24 * 60 * 60

// ParseTC reads a clock "SECONDS[+INCREMENT]" such as "10+0.1": SECONDS
// from 0.001 (a millisecond) and INCREMENT (default 0) from 0, both at
// most a day. NaN, Inf and larger numbers are refused: as durations they
// overflowed, and the games then ran by nodes or were lost on time.
func ParseTC(s string) (base, inc time.Duration, err error) {
	b, i, hasInc := strings.Cut(s, "+")
	if !hasInc {
		i = "0"
	}
	// A number beyond float64's range parses to ±Inf with ErrRange, which
	// the bounds below refuse with the others.
	bs, err1 := strconv.ParseFloat(b, 64)
	is, err2 := strconv.ParseFloat(i, 64)
	switch {
	case err1 != nil && !errors.Is(err1, strconv.ErrRange) || err2 != nil && !errors.Is(err2, strconv.ErrRange):
		return 0, 0, fmt.Errorf("tc %q: want SECONDS+INCREMENT, e.g. 10+0.1", s)
	case !(bs >= 0.001 && bs <= maxClockSeconds):
		return 0, 0, fmt.Errorf("tc %q: SECONDS must be a number from 0.001 to %d (a day), not %s", s, maxClockSeconds, b)
	case !(is >= 0 && is <= maxClockSeconds):
		return 0, 0, fmt.Errorf("tc %q: INCREMENT must be a number from 0 to %d (a day), not %s", s, maxClockSeconds, i)
	}
	return time.Duration(bs * float64(time.Second)), time.Duration(is * float64(time.Second)), nil
}

// ForfeitError is a player's failure that loses the game instead of
// stopping the run: an outside engine that crashed, hung, ran out of
// time or played an illegal move. Termination is one of the Term*
// constants above.
type ForfeitError struct {
	Termination string
	Err         error
}

// Error says why the game was lost.
func (f *ForfeitError) Error() string { return f.Termination + ": " + f.Err.Error() }

// Unwrap returns the underlying error.
func (f *ForfeitError) Unwrap() error { return f.Err }

// ExternalFactory returns a factory that builds an outside-engine player
// for a PlayerSpec with an Engine and asks base for the others.
func ExternalFactory(base PlayerFactory) PlayerFactory {
	return func(spec PlayerSpec) (Player, error) {
		if spec.Engine == nil {
			return base(spec)
		}
		if spec.Variant == nil {
			return nil, errors.New("selfplay: engine player without a variant")
		}
		if err := spec.Engine.Validate(); err != nil {
			return nil, err
		}
		p := NewExternalPlayer(*spec.Engine, spec.Variant, spec.Limits)
		p.jitter, p.seed, p.rng = spec.NodesJitter, spec.Seed, newRNG(spec.Seed)
		return p, nil
	}
}

// ExternalPlayer is a Player that asks an outside UCI engine for its
// moves. The process starts at the first NewGame or Move and is
// restarted if it died; Close ends it (and reaps it). A failure of the
// engine during a game is returned as a *ForfeitError.
type ExternalPlayer struct {
	spec     EngineSpec
	v        *engine.Variant
	lim      Limits
	timeout  time.Duration
	base     time.Duration // clock at the start of a game (TC)
	inc      time.Duration
	clock    time.Duration // time left in this game (TC)
	proc     *process
	startErr error
	combo    map[string]bool // UCI_Variant values the engine offers
	options  map[string]bool // option names the engine offers (lowercase)
	// node-limit jitter (PlayerSpec.NodesJitter), drawn from rng, which
	// NewGame restarts from seed
	jitter float64
	seed   uint64
	rng    rng
	// pool, when set, keeps the process between games (enginePool);
	// idle reports that the engine has answered everything it was sent,
	// so that it may serve another game.
	pool *enginePool
	idle bool
}

// NewExternalPlayer returns a player for the engine spec in variant v;
// lim is used when spec has no limits of its own. spec should have
// passed Validate.
func NewExternalPlayer(spec EngineSpec, v *engine.Variant, lim Limits) *ExternalPlayer {
	p := &ExternalPlayer{spec: spec, v: v, lim: lim, timeout: 60 * time.Second}
	if spec.TimeoutMs > 0 {
		p.timeout = time.Duration(spec.TimeoutMs) * time.Millisecond
	}
	if spec.TC != "" {
		p.base, p.inc, _ = ParseTC(spec.TC)
	}
	p.clock = p.base
	return p
}

// start starts the engine and does the handshake: uci/uciok, the
// variant and options, isready/readyok.
func (p *ExternalPlayer) start() error {
	if p.pool != nil {
		if e := p.pool.take(p.poolKey()); e != nil {
			p.proc, p.combo, p.options = e.proc, e.combo, e.options
			return nil
		}
	}
	cmd := exec.Command(p.spec.Cmd, p.spec.Args...)
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	pr := startProcess(cmd, stdin, stdout)
	p.proc = pr
	p.combo, p.options = map[string]bool{}, map[string]bool{}
	if err := p.send("uci"); err != nil {
		return err
	}
	if _, err := p.waitFor(context.Background(), "uciok", p.timeout, func(l engineLine) {
		if name, rest, ok := optionLine(l.text); ok {
			p.options[strings.ToLower(name)] = true
			if strings.EqualFold(name, "UCI_Variant") {
				f := strings.Fields(rest)
				for i := 0; i+1 < len(f); i++ {
					if f[i] == "var" {
						p.combo[f[i+1]] = true
					}
				}
			}
		}
	}); err != nil {
		return err
	}
	if err := p.setVariant(); err != nil {
		return err
	}
	names := make([]string, 0, len(p.spec.Options))
	for n := range p.spec.Options {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := p.send("setoption name " + n + " value " + p.spec.Options[n]); err != nil {
			return err
		}
	}
	return p.ready(context.Background())
}

// setVariant tells the engine the variant and its rule options.
func (p *ExternalPlayer) setVariant() error {
	name := p.v.Name
	if len(p.combo) > 0 || p.v.Name != "chess" {
		fsf, known := notation.FSFName(p.v.Name)
		switch {
		case p.combo[p.v.Name]:
		case known && p.combo[fsf]:
			name = fsf
		default:
			return fmt.Errorf("engine %s does not offer UCI_Variant %s", p.spec.Label(), p.v.Name)
		}
		if err := p.send("setoption name UCI_Variant value " + name); err != nil {
			return err
		}
	}
	rules := p.v.Options.String()
	if !variantfile.IsBuiltin(p.v) || rules == engine.MustVariant(p.v.Name, nil).Options.String() {
		return nil
	}
	if !p.options["rules"] {
		return fmt.Errorf("engine %s has no Rules option for the rule options %s", p.spec.Label(), rules)
	}
	return p.send("setoption name Rules value " + rules)
}

// optionLine splits "option name N type ..." into N and the rest.
func optionLine(l string) (name, rest string, ok bool) {
	after, found := strings.CutPrefix(l, "option name ")
	if !found {
		return "", "", false
	}
	i := strings.Index(after, " type ")
	if i < 0 {
		return strings.TrimSpace(after), "", true
	}
	return after[:i], after[i+6:], true
}

// send writes one command line to the engine.
func (p *ExternalPlayer) send(line string) error {
	if _, err := io.WriteString(p.proc.stdin, line+"\n"); err != nil {
		return &ForfeitError{TermEngineCrash, fmt.Errorf("engine %s: writing %q: %v", p.spec.Label(), line, err)}
	}
	return nil
}

// errTimeout marks a wait that ran out of time.
var errTimeout = errors.New("no answer in time")

// waitFor reads lines until one whose first word is want, passing every
// other line but info lines to each; it fails with a ForfeitError if the
// engine exits or does not answer within d. The line returned carries
// what the info lines before it said.
func (p *ExternalPlayer) waitFor(ctx context.Context, want string, d time.Duration, each func(engineLine)) (engineLine, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case l, ok := <-p.proc.lines:
			if !ok {
				return engineLine{}, &ForfeitError{TermEngineCrash, fmt.Errorf("engine %s exited while we waited for %s", p.spec.Label(), want)}
			}
			if f := strings.Fields(l.text); len(f) > 0 && f[0] == want {
				return l, nil
			}
			if each != nil {
				each(l)
			}
		case <-t.C:
			return engineLine{}, &ForfeitError{TermTimeForfeit, fmt.Errorf("engine %s: %w (waited %v for %s)", p.spec.Label(), errTimeout, d, want)}
		case <-ctx.Done():
			return engineLine{}, ctx.Err()
		}
	}
}

// ready sends isready and waits for readyok.
func (p *ExternalPlayer) ready(ctx context.Context) error {
	if err := p.send("isready"); err != nil {
		return err
	}
	_, err := p.waitFor(ctx, "readyok", p.timeout, nil)
	return err
}

// alive reports whether the engine process is running.
func (p *ExternalPlayer) alive() bool {
	return p.proc != nil && p.proc.running()
}

// NewGame resets the clock and starts (or restarts) the engine if it is
// not running, then sends ucinewgame. A failure to start is reported by
// the next Move, as a forfeit.
func (p *ExternalPlayer) NewGame() {
	p.clock = p.base
	p.rng = newRNG(p.seed)
	p.startErr = nil
	p.idle = false
	if !p.alive() {
		p.Close()
		if err := p.start(); err != nil {
			p.startErr = err
			p.Close()
			return
		}
	}
	if err := p.send("ucinewgame"); err != nil {
		p.startErr = err
		return
	}
	p.startErr = p.ready(context.Background())
	p.idle = p.startErr == nil
}

// Move sends the game so far and a go command, and returns the engine's
// bestmove with the score and depth of its last info line.
func (p *ExternalPlayer) Move(ctx context.Context, pos *engine.Position) (engine.Move, MoveInfo, error) {
	if err := ctx.Err(); err != nil {
		return engine.NullMove, MoveInfo{}, err
	}
	if p.startErr == nil && !p.alive() {
		p.NewGame()
	}
	if p.startErr != nil {
		return engine.NullMove, MoveInfo{}, &ForfeitError{TermEngineCrash, p.startErr}
	}
	p.idle = false // until a legal answer: an engine that failed is not reused
	goCmd, wait := p.goCommand()
	start := time.Now()
	// One write for both lines: a write is a system call and a wakeup.
	if err := p.send(positionCommand(pos) + "\n" + goCmd); err != nil {
		return engine.NullMove, MoveInfo{}, err
	}
	answer, err := p.waitFor(ctx, "bestmove", wait, nil)
	elapsed := time.Since(start)
	if err != nil {
		if ctx.Err() != nil {
			p.Close()
			return engine.NullMove, MoveInfo{}, ctx.Err()
		}
		p.Close() // a hung engine is restarted for the next game
		return engine.NullMove, MoveInfo{}, err
	}
	if p.base > 0 {
		if elapsed > p.clock {
			return engine.NullMove, MoveInfo{}, &ForfeitError{TermTimeForfeit,
				fmt.Errorf("engine %s used %v with %v on its clock", p.spec.Label(), elapsed.Round(time.Millisecond), p.clock)}
		}
		p.clock += p.inc - elapsed
	}
	f := strings.Fields(answer.text)
	if len(f) < 2 {
		return engine.NullMove, MoveInfo{}, &ForfeitError{TermIllegalMove, fmt.Errorf("engine %s: %q has no move", p.spec.Label(), answer.text)}
	}
	m, err := notation.ParseMove(pos, f[1])
	if err != nil {
		return engine.NullMove, MoveInfo{}, &ForfeitError{TermIllegalMove, fmt.Errorf("engine %s: %v", p.spec.Label(), err)}
	}
	p.idle = true
	return m, answer.info, nil
}

// goCommand returns the go command for pos and how long to wait for its
// bestmove.
func (p *ExternalPlayer) goCommand() (string, time.Duration) {
	e := p.spec
	switch {
	case p.base > 0:
		ms := max(p.clock.Milliseconds(), 1)
		inc := p.inc.Milliseconds()
		// Waiting past the clock only decides how late the forfeit is
		// noticed; the check after the answer is exact.
		return fmt.Sprintf("go wtime %d btime %d winc %d binc %d", ms, ms, inc, inc), p.clock + time.Second
	case e.MoveTime > 0:
		return fmt.Sprintf("go movetime %d", e.MoveTime), time.Duration(e.MoveTime)*time.Millisecond + p.timeout
	}
	nodes, depth := e.Nodes, e.Depth
	if nodes == 0 && depth == 0 {
		nodes, depth = p.lim.Nodes, p.lim.Depth
	}
	cmd := "go"
	if nodes > 0 {
		if p.jitter > 0 {
			nodes = jitterNodes(nodes, p.jitter, &p.rng)
		}
		cmd += fmt.Sprintf(" nodes %d", nodes)
	}
	if depth > 0 {
		cmd += fmt.Sprintf(" depth %d", depth)
	}
	if cmd == "go" {
		cmd = "go depth 1"
	}
	return cmd, p.timeout
}

// positionCommand writes pos as "position fen ROOT moves ...", the
// game's moves from its root, so that the engine sees repetitions.
func positionCommand(pos *engine.Position) string {
	q := pos.Clone()
	var line []engine.Move
	for q.LastMove() != engine.NullMove {
		line = append(line, q.LastMove())
		q.Unmake()
	}
	var b strings.Builder
	b.WriteString("position fen ")
	b.WriteString(q.FEN())
	if len(line) > 0 {
		b.WriteString(" moves")
		for i := len(line) - 1; i >= 0; i-- {
			b.WriteByte(' ')
			b.WriteString(notation.FormatMove(q, line[i]))
			q.Make(line[i])
		}
	}
	return b.String()
}

// parseInfo reads the depth, score and nodes of an info line into info.
func parseInfo(l string, info *MoveInfo) {
	f := strings.Fields(l)
	if len(f) == 0 || f[0] != "info" {
		return
	}
	for i := 1; i+1 < len(f); i++ {
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		switch f[i] {
		case "string", "pv":
			return
		case "depth":
			if err == nil {
				info.Depth = int(n)
			}
		case "nodes":
			if err == nil {
				info.Nodes = n
			}
		case "score":
			if i+2 < len(f) {
				v, err := strconv.Atoi(f[i+2])
				if err != nil {
					continue
				}
				switch f[i+1] {
				case "cp":
					info.Score, info.Mate = v, 0
				case "mate":
					info.Mate = v
					plies := 2*v - 1
					if v <= 0 {
						plies = -2 * v
						info.Score = -(search.MateScore - plies)
					} else {
						info.Score = search.MateScore - plies
					}
				}
			}
		}
	}
}

// Close ends the engine: quit, then a kill if it has not exited within
// a short grace period; the process is always reaped. A player with a
// pool gives an idle, running engine back to the pool instead. Close is
// safe to call more than once.
func (p *ExternalPlayer) Close() error {
	pr := p.proc
	if pr == nil {
		return nil
	}
	p.proc = nil
	if p.pool != nil && p.idle && pr.running() &&
		p.pool.put(p.poolKey(), &idleEngine{proc: pr, combo: p.combo, options: p.options}) {
		p.idle = false
		return nil
	}
	p.idle = false
	pr.end()
	return nil
}
