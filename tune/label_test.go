package tune

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/internal/notation"
	"tamerlane/selfplay"
)

// fakeLabelEnv makes the test binary act as a UCI engine that answers
// every go with the alphabetically first legal move (see TestMain).
const fakeLabelEnv = "TAMERLANE_TEST_LABEL_ENGINE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeLabelEnv) != "" {
		firstMoveEngine()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// firstMoveEngine serves stdin/stdout as a chess UCI engine whose move is
// the legal move with the smallest coordinate notation.
func firstMoveEngine() {
	v := engine.MustVariant("chess", nil)
	var pos *engine.Position
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "uci":
			fmt.Println("id name fake-first")
			fmt.Println("option name UCI_Variant type combo default chess var chess")
			fmt.Println("uciok")
		case "isready":
			fmt.Println("readyok")
		case "position": // position fen F1 ... F6 [moves ...]
			i := slices.Index(f, "moves")
			if i < 0 {
				i = len(f)
			}
			var err error
			if pos, err = engine.ParseFEN(v, strings.Join(f[2:i], " ")); err != nil {
				fmt.Println("info string error:", err)
				continue
			}
			for _, s := range f[min(i+1, len(f)):] {
				m, err := notation.ParseMove(pos, s)
				if err != nil {
					fmt.Println("info string error:", err)
					break
				}
				pos.Make(m)
			}
		case "go":
			fmt.Println("bestmove " + firstMove(pos))
		case "quit":
			return
		}
	}
}

// firstMove returns the legal move of pos with the smallest coordinate
// notation.
func firstMove(pos *engine.Position) string {
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	var names []string
	for _, m := range ml.Slice() {
		names = append(names, notation.FormatMove(pos, m))
	}
	return slices.Min(names)
}

// TestLoadMovesLabel: with moves.label the move fitted in each sampled
// position is the labelling engine's (here the alphabetically first
// legal move), not the move played, while the positions stay those of
// the games.
func TestLoadMovesLabel(t *testing.T) {
	dir := smallRun(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(fakeLabelEnv, "1")
	mo := MoveOptions{Every: 1, Skip: 2, Player: "a"}
	played, err := LoadMoves(context.Background(), []string{dir}, LoadOptions{}, mo)
	if err != nil {
		t.Fatal(err)
	}
	mo.Label = &selfplay.EngineSpec{Cmd: exe, Nodes: 1, TimeoutMs: 5000}
	labelled, err := LoadMoves(context.Background(), []string{dir}, LoadOptions{}, mo)
	if err != nil {
		t.Fatal(err)
	}
	p, l := played["chess"].Train, labelled["chess"].Train
	if p.Len() == 0 || p.Len() != l.Len() || p.Leaves() != l.Leaves() {
		t.Fatalf("labelled: %d positions, %d leaves; played: %d, %d", l.Len(), l.Leaves(), p.Len(), p.Leaves())
	}
	// The expected targets, from the journals.
	ev := eval.New(mustDefault(t, engine.MustVariant("chess", nil)))
	var want []int
	for g, err := range selfplay.Games(dir) {
		if err == nil {
			err = g.Walk(func(ply int, pos *engine.Position, _ engine.Move) error {
				if ply-g.BookPlies < mo.Skip || !g.FirstToMove(pos) || pos.InCheck() {
					return nil
				}
				first, err := notation.ParseMove(pos, firstMove(pos))
				if err != nil {
					return err
				}
				var ml engine.MoveList
				if _, chosen, why := moveLeaves(pos, first, ev, nil, &ml, new([]eval.Feature)); why == "" {
					want = append(want, chosen)
				}
				return nil
			})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(want) != l.Len() {
		t.Fatalf("%d labelled positions, the journals have %d", l.Len(), len(want))
	}
	differ := 0
	for i, w := range want {
		if l.Chosen(i) != w {
			t.Errorf("position %d: target %d, want the first move's %d", i, l.Chosen(i), w)
		}
		if p.Chosen(i) != w {
			differ++
		}
	}
	if differ == 0 {
		t.Error("the labels never differ from the moves played: the test cannot tell them apart")
	}
}

// TestMovesLabelConfigErrors: a label engine needs a command and a
// per-move limit.
func TestMovesLabelConfigErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"moves: {label: {cmd: sf}}\n", "moves.label: needs a per-move limit"},
		{"moves: {label: {cmd: sf, tc: 10+0.1}}\n", "moves.label: needs a per-move limit"},
		{"moves: {label: {nodes: 100}}\n", "moves.label: engine: cmd is empty"},
	} {
		_, err := ParseConfig([]byte(tc.yaml), "t.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.yaml, err, tc.want)
		}
	}
	if _, err := ParseConfig([]byte("moves: {label: {cmd: sf, nodes: 5000}, player: a}\n"), "t.yaml"); err != nil {
		t.Errorf("a valid label: %v", err)
	}
}
