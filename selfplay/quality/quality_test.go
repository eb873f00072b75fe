package quality

import (
	"context"
	"math"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/selfplay"
)

// middlegames are chess positions from the middle of games (the bench's
// and a few of the engine's own games).
var middlegames = []string{
	"rnb1kb1r/p3ppp1/2p5/1p1p3p/P2P1BP1/2q2N1P/1PP1PP1R/R3KB2 w Qkq - 0 11",
	"r1bqr1k1/1p1n1pbp/2p1pn2/p2p4/3N1B2/Q1PP1N1P/PP2PPP1/R3KB1R w KQ - 6 13",
	"r2qk2r/pb3ppp/2nbp3/5n2/2PP4/2N2P2/1P2NKPP/R1BQ1B1R w kq - 0 14",
	"r3kb1r/1p2pppp/pqnpbn2/8/4P3/2NB1N2/PP1B1PPP/1R1Q1RK1 b kq - 9 12",
	"rnbqk2r/1pppbp1p/5n2/p3N1p1/1PP1P3/8/PB1P1PPP/RN1QKB1R b KQkq - 2 7",
	"3r4/5kpp/2b2p2/2Pn4/4B2P/4B1P1/r4P2/3R2KR w - - 1 26",
	"r1b1k3/1pq2pp1/p1nbp1n1/3p2P1/3P4/2N5/PPPQBN1P/R3K2R w KQq - 1 17",
	"rn2k2r/2qbn1p1/2p2p2/p2p4/3PP3/2NNP1b1/P1P3B1/1RBQ1RK1 w kq - 2 17",
}

// firstMoveFactory builds search players, except for the table "first":
// a player that plays the first legal move in generation order (a bad
// player the oracle must find worse).
func firstMoveFactory() selfplay.PlayerFactory {
	search := selfplay.SearchFactory()
	return func(s selfplay.PlayerSpec) (selfplay.Player, error) {
		if s.Table == "first" {
			return firstMove{}, nil
		}
		return search(s)
	}
}

type firstMove struct{}

func (firstMove) NewGame() {}
func (firstMove) Move(_ context.Context, pos *engine.Position) (engine.Move, selfplay.MoveInfo, error) {
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	return ml.Moves[0], selfplay.MoveInfo{}, nil
}

func search(nodes int64) selfplay.PlayerSpec {
	return selfplay.PlayerSpec{Limits: selfplay.Limits{Nodes: nodes}, TTMiB: 1}
}

func TestIdenticalPlayersDoNotDiffer(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	rep, err := Measure(context.Background(), v, middlegames[:4], Options{
		Players: []Player{{Name: "a", Spec: search(400)}, {Name: "b", Spec: search(400)}},
		Oracle:  Player{Name: "oracle", Spec: search(3000)}, Factory: firstMoveFactory(), Workers: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	b := rep.Players[1]
	if b.Same != 4 || b.Diff.Value != 0 || b.Mean != rep.Players[0].Mean {
		t.Errorf("identical players: same %d/4, diff %v, means %v and %v", b.Same, b.Diff.Value, rep.Players[0].Mean, b.Mean)
	}
	for _, r := range rep.Rows {
		if len(r.Moves) != 2 || r.Moves[0] != r.Moves[1] || r.Values[0] <= 0 || r.Values[0] >= 1 {
			t.Errorf("row %+v: want one move twice, valued in (0, 1)", r)
		}
	}
}

// TestWorsePlayerValuedLower: the first legal move is worse than a
// search's choice; a sign mistake anywhere between the oracle's score and
// the move's value would show it better.
func TestWorsePlayerValuedLower(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	_, sampled, err := SampleRun(greedyRun(t), 2)
	if err != nil {
		t.Fatal(err)
	}
	fens := append(append([]string(nil), middlegames...), sampled...)
	rep, err := Measure(context.Background(), v, fens, Options{
		Players: []Player{{Name: "search", Spec: search(1000)}, {Name: "first", Spec: selfplay.PlayerSpec{Table: "first"}}},
		Oracle:  Player{Name: "oracle", Spec: search(4000)}, Factory: firstMoveFactory(), Workers: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := rep.Players[1].Diff; !(d.Hi < 0) {
		t.Errorf("first legal move minus search over %d positions: %s, want clearly negative", len(fens), d.Format(4))
	}
	md := rep.Markdown()
	for _, want := range []string{"| first |", "minus search", "phase 0.75-1.00"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}

// TestMateIsWorthAWin: a move that mates ends the game; its value is the
// win (the oracle is not asked about a finished game).
func TestMateIsWorthAWin(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	rep, err := Measure(context.Background(), v, []string{"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"}, Options{
		Players: []Player{{Name: "a", Spec: search(2000)}},
		Oracle:  Player{Name: "oracle", Spec: search(2000)}, Factory: firstMoveFactory(),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		if r.Moves[0] != "a1a8" && r.Moves[0] != "a8a1" || r.Values[0] < 0.999 || r.Scores[0] != MateCP {
			t.Errorf("%s: move %s valued %v (%d cp), want the mate worth a win", r.FEN, r.Moves[0], r.Values[0], r.Scores[0])
		}
	}
}

func TestValue(t *testing.T) {
	for _, c := range []struct {
		cp, mate int
		want     float64
	}{
		{0, 0, 0.5},
		{-400, 0, 1 / 1.1}, // the opponent is 400 cp down after the move
		{400, 0, 1 - 1/1.1},
		{50000, 0, 1 / (1 + math.Pow(10, 5))}, // scores are bounded by MateCP
		{0, 3, 1 / (1 + math.Pow(10, 5))},     // the opponent mates
		{0, -2, 1 / (1 + math.Pow(10, -5))},   // the opponent is mated
	} {
		if got := Value(c.cp, c.mate); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Value(%d, %d) = %v, want %v", c.cp, c.mate, got, c.want)
		}
	}
}

// greedyRun plays a small chess match run (2 pairs, a 4-ply book) with
// the greedy players and returns its directory.
func greedyRun(t *testing.T) string {
	t.Helper()
	cfg := selfplay.DefaultConfig()
	cfg.Seed = 3
	cfg.Nodes = 50
	cfg.MaxPlies = 30
	cfg.Openings.Plies = 4
	cfg.Openings.MaxScore = 0
	cfg.Matches = []selfplay.MatchConfig{{Name: "m", Variant: "chess", Pairs: 2}}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := selfplay.Run(context.Background(), cfg, dir, selfplay.RunOptions{Workers: 1, Factory: selfplay.GreedyFactory()}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSampleRun samples a small match run: only positions where player A
// is to move after the opening book, every second one.
func TestSampleRun(t *testing.T) {
	dir := greedyRun(t)
	all, want := 0, 0
	var wantFENs []string
	for g, err := range selfplay.Games(dir) {
		if err != nil {
			t.Fatal(err)
		}
		// The positions counted apart from Walk and FirstToMove.
		pos, moves, err := g.Replay()
		if err != nil {
			t.Fatal(err)
		}
		for ply, m := range moves {
			if ply >= g.BookPlies && (pos.SideToMove() == engine.White) == g.FirstWhite {
				if all%2 == 0 {
					want++
					wantFENs = append(wantFENs, pos.FEN())
				}
				all++
			}
			pos.Make(m)
		}
	}
	v, fens, err := SampleRun(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "chess" || len(fens) != want || want == 0 {
		t.Fatalf("sampled %d positions of %s, want %d of chess", len(fens), v.Name, want)
	}
	for i, f := range fens {
		if f != wantFENs[i] {
			t.Fatalf("position %d: %s, want %s", i, f, wantFENs[i])
		}
	}
	// Independently of the journal: never inside the 4-ply book (move 3
	// on), and A plays both colours.
	sides := map[string]bool{}
	for _, f := range fens {
		fields := strings.Fields(f)
		if fields[5] < "3" && len(fields[5]) == 1 {
			t.Errorf("%s: inside the opening book", f)
		}
		sides[fields[1]] = true
	}
	if !sides["w"] || !sides["b"] {
		t.Errorf("sampled sides to move %v, want both (A has White in one game of a pair, Black in the other)", sides)
	}
	if _, _, err := SampleRun(dir, 0); err == nil {
		t.Error("SampleRun accepts every 0")
	}
}

// TestMoverCP: the stored oracle score is the mover's, bounded like the
// value it gives.
func TestMoverCP(t *testing.T) {
	for _, c := range []struct{ cp, mate, want int }{
		{-30, 0, 30}, {50000, 0, -MateCP}, {-50000, 0, MateCP}, {0, 3, -MateCP}, {0, -2, MateCP},
	} {
		if got := moverCP(c.cp, c.mate); got != c.want {
			t.Errorf("moverCP(%d, %d) = %d, want %d", c.cp, c.mate, got, c.want)
		}
	}
}

func TestBand(t *testing.T) {
	for _, c := range []struct {
		phase float64
		want  int
	}{{0, 0}, {0.2499, 0}, {0.25, 1}, {0.5, 2}, {0.99, 3}, {1, 3}} {
		if got := band(c.phase); got != c.want {
			t.Errorf("band(%v) = %d, want %d", c.phase, got, c.want)
		}
	}
}
