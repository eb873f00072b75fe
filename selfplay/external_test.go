package selfplay

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"tamerlane/engine"
	"tamerlane/engine/search"
	"tamerlane/internal/notation"
	"tamerlane/uci"
)

// fakeEngineEnv makes the test binary act as a UCI engine (see TestMain):
// "uci" is this project's UCI server; the others misbehave on purpose.
const fakeEngineEnv = "TAMERLANE_TEST_ENGINE"

// fakeEngineLogEnv, if set, names a file to which the "uci" fake engine
// appends every command it receives.
const fakeEngineLogEnv = "TAMERLANE_TEST_ENGINE_LOG"

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEngineEnv); mode != "" {
		fakeEngine(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeEngine serves stdin/stdout as the engine of the given mode:
//
//	uci      the real server (package uci)
//	crash    handshake, then exits at the first go
//	illegal  answers every go with an illegal move
//	hang     never answers go
//	slow     answers go with a legal first move after 400 ms
//	mute     never answers uci
//	scripted answers the first go with fixed info lines and e2e4, the
//	         next with e7e5 and no info line
func fakeEngine(mode string) {
	if mode == "uci" {
		var in io.Reader = os.Stdin
		if p := os.Getenv(fakeEngineLogEnv); p != "" {
			// Record what the engine was sent (tests read it back).
			f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
			if err == nil {
				defer f.Close()
				in = io.TeeReader(os.Stdin, f)
			}
		}
		uci.NewServer("fake", "test").Run(context.Background(), in, os.Stdout)
		return
	}
	sc := bufio.NewScanner(os.Stdin)
	var pos string
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			if mode == "mute" {
				continue
			}
			fmt.Println("id name fake-" + mode)
			fmt.Println("option name UCI_Variant type combo default chess var chess var shatranj")
			fmt.Println("uciok")
		case "isready":
			fmt.Println("readyok")
		case "position":
			pos = sc.Text()
		case "go":
			switch mode {
			case "crash":
				os.Exit(3)
			case "illegal":
				fmt.Println("info depth 1 score cp 10")
				fmt.Println("bestmove e2e5")
			case "scripted":
				if !strings.Contains(pos, " moves ") {
					fmt.Println("info depth 3 score cp 25 nodes 500 pv d2d4")
					fmt.Println("info string depth 99 score cp 77")
					fmt.Println("info depth 4 seldepth 7 score mate 2 nodes 900 pv e2e4")
					fmt.Println("bestmove e2e4 ponder e7e5")
				} else {
					fmt.Println("bestmove e7e5")
				}
			case "slow":
				time.Sleep(400 * time.Millisecond)
				m := "e2e4"
				if strings.Contains(pos, " moves ") {
					m = "e7e5"
				}
				fmt.Println("bestmove " + m)
			}
		case "quit":
			return
		}
	}
}

// fakeSpec returns an engine spec that runs the test binary in mode.
func fakeSpec(t *testing.T, mode string) *EngineSpec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(fakeEngineEnv, mode)
	return &EngineSpec{Cmd: exe, Name: "fake-" + mode, TimeoutMs: 3000}
}

// engineSelfPlay returns a config of pairs game pairs of the engine spec
// against itself in variant, from two-ply openings that are not scored,
// with the given seed and ply cap.
func engineSelfPlay(t *testing.T, variant string, spec *EngineSpec, pairs int, seed uint64, maxPlies int) *Config {
	t.Helper()
	cfg := DefaultConfig()
	cfg.Seed, cfg.MaxPlies = seed, maxPlies
	cfg.Openings.Plies = 2
	cfg.Openings.MaxScore = 0
	cfg.Matches = []MatchConfig{{Variant: variant, Pairs: pairs, EngineA: spec, EngineB: spec}}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// reaped reports whether the process pid no longer exists (it has
// exited and was waited for: no zombie).
func reaped(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// TestExternalWholeGames plays a whole game of every variant between two
// copies of this project's UCI server, driven through pipes by the
// outside-engine player: every move crosses the protocol (position fen
// ... moves ..., go nodes, bestmove) and must be legal, and the game must
// end by a rule or the ply cap, never by a forfeit.
func TestExternalWholeGames(t *testing.T) {
	for _, name := range engine.VariantNames() {
		t.Run(name, func(t *testing.T) {
			spec := fakeSpec(t, "uci")
			spec.Nodes = 60
			maxPlies := 160
			if testing.Short() {
				maxPlies = 40 // the -race suite: still every variant through the protocol
			}
			cfg := engineSelfPlay(t, name, spec, 1, 7, maxPlies)
			cfg.Workers = 1
			dir := t.TempDir()
			res, err := Run(context.Background(), cfg, dir, RunOptions{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			s := res.Summary.Streams[0]
			if s.Games != 2 {
				t.Fatalf("%d games, want 2", s.Games)
			}
			t.Logf("terminations %v, mean length %.0f plies", s.Terminations, s.MeanPlies)
			for term, n := range s.Terminations {
				switch term {
				case TermTimeForfeit, TermIllegalMove, TermEngineCrash:
					t.Errorf("%d games ended by %q", n, term)
				}
			}
			pgn, err := os.ReadFile(dir + "/" + s.Name + "/games.pgn")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(pgn), `[White "fake-uci (A)"]`) {
				t.Errorf("PGN does not name the engine:\n%.400s", pgn)
			}
		})
	}
}

// TestExternalForfeits checks that an engine's crash, illegal move, hang,
// slowness under a clock and failed handshake lose the game with the
// matching Termination, the opponent winning, and that no engine process
// is left behind.
func TestExternalForfeits(t *testing.T) {
	for _, tc := range []struct {
		mode, tc, term string
	}{
		{"crash", "", TermEngineCrash},
		{"illegal", "", TermIllegalMove},
		{"hang", "", TermTimeForfeit},
		{"slow", "0.3+0", TermTimeForfeit},
		{"mute", "", TermEngineCrash},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			spec := fakeSpec(t, tc.mode)
			spec.TC = tc.tc
			// The timeout bounds the handshake too: the fake engine is this
			// test binary started again, which under -race on a loaded
			// machine can take more than half a second to answer uci, and
			// a hang would then be scored as a failed handshake.
			spec.TimeoutMs = 2000
			v := engine.MustVariant("chess", nil)
			g := &gameSetup{
				v: v, root: engine.NewPosition(v).FEN(), cfg: DefaultConfig(),
				players: [2]PlayerSpec{{Variant: v, Engine: spec}, {Variant: v}},
				factory: ExternalFactory(GreedyFactory()),
			}
			game, err := playGame(context.Background(), g)
			if err != nil {
				t.Fatal(err)
			}
			if game.Termination != tc.term || game.Result != "0-1" {
				t.Errorf("result %s by %q, want 0-1 by %q", game.Result, game.Termination, tc.term)
			}
			if kids := children(t); len(kids) > 0 {
				t.Errorf("engine processes left after the game: %v", kids)
			}
		})
	}
}

// children lists the processes whose parent is this test process,
// zombies included (Linux /proc; the test is skipped elsewhere).
func children(t *testing.T) []string {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	var out []string
	me := os.Getpid()
	for _, e := range ents {
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == fmt.Sprint(me) {
			out = append(out, e.Name()+" "+f[0])
		}
	}
	return out
}

// TestExternalCancelKills checks that cancelling a move stops and reaps
// the engine and that the next game restarts it.
func TestExternalCancelKills(t *testing.T) {
	spec := fakeSpec(t, "hang")
	v := engine.MustVariant("chess", nil)
	p := NewExternalPlayer(*spec, v, Limits{Nodes: 10})
	p.NewGame()
	if p.startErr != nil {
		t.Fatal(p.startErr)
	}
	pid := p.proc.cmd.Process.Pid
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, _, err := p.Move(ctx, engine.NewPosition(v))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Move: %v, want the context's error", err)
	}
	if !reaped(pid) {
		t.Errorf("engine %d not reaped after cancel", pid)
	}
	p.NewGame()
	if p.startErr != nil || p.proc == nil || p.proc.cmd.Process.Pid == pid {
		t.Fatalf("engine not restarted: %v", p.startErr)
	}
	pid = p.proc.cmd.Process.Pid
	p.Close()
	if !reaped(pid) {
		t.Errorf("engine %d not reaped after Close", pid)
	}
}

// TestExternalMoveInfo checks that a move carries what the info lines
// before its bestmove said (the last depth, score and nodes; info string
// lines ignored), and only those: the next answer, with no info lines,
// has none.
func TestExternalMoveInfo(t *testing.T) {
	spec := fakeSpec(t, "scripted")
	v := engine.MustVariant("chess", nil)
	p := NewExternalPlayer(*spec, v, Limits{Nodes: 10})
	defer p.Close()
	p.NewGame()
	pos := engine.NewPosition(v)
	m, info, err := p.Move(context.Background(), pos)
	if err != nil {
		t.Fatal(err)
	}
	if got := notation.FormatMove(pos, m); got != "e2e4" {
		t.Errorf("move %s, want e2e4", got)
	}
	want := MoveInfo{Depth: 4, Nodes: 900, Mate: 2, Score: search.MateScore - 3}
	if info != want {
		t.Errorf("info %+v, want %+v", info, want)
	}
	pos.Make(m)
	m, info, err = p.Move(context.Background(), pos)
	if err != nil {
		t.Fatal(err)
	}
	if got := notation.FormatMove(pos, m); got != "e7e5" || info != (MoveInfo{}) {
		t.Errorf("second move %s with info %+v, want e7e5 and none", got, info)
	}
}

// TestExternalSpecErrors checks that a bad engine spec is a config
// error naming the field.
func TestExternalSpecErrors(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Matches = []MatchConfig{{Variant: "chess", Pairs: 1, EngineB: &EngineSpec{Cmd: "/nonexistent/engine"}},
		{Name: "m2", Variant: "chess", Pairs: 1, EngineA: &EngineSpec{Cmd: "sh", TC: "fast"}}}
	err := cfg.Validate()
	if err == nil || !strings.Contains(err.Error(), "matches[0].b_engine") || !strings.Contains(err.Error(), "/nonexistent/engine") ||
		!strings.Contains(err.Error(), "matches[1].a_engine") || !strings.Contains(err.Error(), `tc "fast"`) {
		t.Errorf("Validate: %v", err)
	}
}

// TestParseInfo checks the reading of the engine's last info line.
func TestParseInfo(t *testing.T) {
	var info MoveInfo
	parseInfo("info depth 7 seldepth 9 score cp -35 nodes 1234 nps 1 pv e2e4 e7e5", &info)
	if info.Depth != 7 || info.Score != -35 || info.Nodes != 1234 || info.Mate != 0 {
		t.Errorf("%+v", info)
	}
	parseInfo("info depth 9 score mate -2 nodes 99", &info)
	if info.Mate != -2 || info.Score >= 0 || info.Depth != 9 {
		t.Errorf("%+v", info)
	}
	parseInfo("info string depth 100", &info)
	if info.Depth != 9 {
		t.Errorf("info string changed the depth: %+v", info)
	}
}

// TestExternalPairGamesDiffer plays one pair between two copies of this
// project's UCI server (deterministic at a fixed node count) and checks
// that nodes_jitter reaches the outside engines' node limits: with it the
// pair's two games differ, without it the second game repeats the first.
func TestExternalPairGamesDiffer(t *testing.T) {
	for _, jitter := range []float64{0.1, 0} {
		spec := fakeSpec(t, "uci")
		spec.Nodes = 300
		// 100 plies: long enough that jittered limits change a move
		// somewhere (at 40 plies one table's pair repeated)
		cfg := engineSelfPlay(t, "chess", spec, 1, 3, 100)
		cfg.NodesJitter = jitter
		dir := t.TempDir()
		if _, err := Run(context.Background(), cfg, dir, RunOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		var games [][]string
		for g, err := range Games(dir) {
			if err != nil {
				t.Fatal(err)
			}
			games = append(games, g.Moves)
		}
		if len(games) != 2 {
			t.Fatalf("jitter %v: %d games, want 2", jitter, len(games))
		}
		same := strings.Join(games[0], " ") == strings.Join(games[1], " ")
		if jitter > 0 && same {
			t.Errorf("jitter %v: the pair's two games are the same game:\n%v", jitter, games[0])
		}
		if jitter == 0 && !same {
			t.Errorf("without jitter the deterministic engines played two different games:\n%v\n%v", games[0], games[1])
		}
	}
}

// TestExternalNodeJitter checks the go command's node limits under
// jitter: within nodes·[0.9, 1.1], not all equal, the same sequence for
// the same seed and none without jitter.
func TestExternalNodeJitter(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	spec := fakeSpec(t, "uci") // never started: only go commands are built
	spec.Nodes = 1000
	limits := func(jitter float64, seed uint64) []int {
		pl, err := ExternalFactory(nil)(PlayerSpec{Variant: v, Engine: spec, NodesJitter: jitter, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		p := pl.(*ExternalPlayer)
		var out []int
		for range 20 {
			cmd, _ := p.goCommand()
			var n int
			if _, err := fmt.Sscanf(cmd, "go nodes %d", &n); err != nil {
				t.Fatalf("%q: %v", cmd, err)
			}
			out = append(out, n)
		}
		return out
	}
	a, b, c := limits(0.1, 1), limits(0.1, 1), limits(0.1, 2)
	distinct := map[int]bool{}
	for i, n := range a {
		if n < 900 || n > 1100 {
			t.Fatalf("node limit %d outside [900, 1100]", n)
		}
		if n != b[i] {
			t.Fatalf("same seed, different limits: %v and %v", a, b)
		}
		distinct[n] = true
	}
	if len(distinct) < 2 || fmt.Sprint(a) == fmt.Sprint(c) {
		t.Fatalf("limits do not vary: %v (seed 2: %v)", a, c)
	}
	for _, n := range limits(0, 1) {
		if n != 1000 {
			t.Fatalf("without jitter a limit of %d, want 1000", n)
		}
	}
}
