package selfplay

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tamerlane/engine"
)

// constScorer scores every position score centipawns for the side to move.
type constScorer struct{ score int }

func (constScorer) NewGame() {}

func (c constScorer) Move(_ context.Context, pos *engine.Position) (engine.Move, MoveInfo, error) {
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	return ml.Moves[0], MoveInfo{Score: c.score}, nil
}

// TestGenerateOpenings checks that the openings are distinct, that each
// FEN is where its walk leads, that every kept score is within max_score,
// that a seed gives the same set and another seed another, and that a
// scorer that finds nothing balanced is an error, not a short file.
func TestGenerateOpenings(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	cfg := OpeningConfig{Plies: 6, MaxScore: 100, ScoreNodes: 50, Material: true, Attempts: 16}
	gen := func(seed uint64) []Opening {
		ops, err := GenerateOpenings(context.Background(), v, cfg, PlayerSpec{}, testFactory(), 12, seed)
		if err != nil {
			t.Fatal(err)
		}
		return ops
	}
	ops := gen(5)
	if len(ops) != 12 {
		t.Fatalf("%d openings, want 12", len(ops))
	}
	seen := map[string]bool{}
	for _, op := range ops {
		if seen[fenKey(op.FEN)] {
			t.Errorf("opening %s twice", op.FEN)
		}
		seen[fenKey(op.FEN)] = true
		if op.Score > cfg.MaxScore || op.Score < -cfg.MaxScore {
			t.Errorf("%s: score %d beyond max_score %d", op.FEN, op.Score, cfg.MaxScore)
		}
		pos := engine.NewPosition(v)
		for _, s := range op.Moves {
			m, err := pos.ParseCoord(s)
			if err != nil {
				t.Fatalf("%v: %v", op.Moves, err)
			}
			pos.Make(m)
		}
		if pos.FEN() != op.FEN || len(op.Moves) != cfg.Plies {
			t.Errorf("walk %v leads to %s, recorded %s", op.Moves, pos.FEN(), op.FEN)
		}
	}
	if again := gen(5); !slices.EqualFunc(ops, again, func(a, b Opening) bool { return a.FEN == b.FEN }) {
		t.Error("the same seed gave other openings")
	}
	if other := gen(6); other[0].FEN == ops[0].FEN && other[1].FEN == ops[1].FEN {
		t.Error("another seed gave the same openings")
	}

	// Every position +300 for the side to move: the start scores +300 for
	// White, and after 6 plies White is again to move, so the walks score
	// +300 too and pass; with 7 plies Black is to move (-300 for White) and
	// none passes.
	biased := func(PlayerSpec) (Player, error) { return constScorer{300}, nil }
	cfg.Plies = 7
	_, err := GenerateOpenings(context.Background(), v, cfg, PlayerSpec{}, biased, 3, 1)
	if err == nil || !strings.Contains(err.Error(), "only 0 of 3") {
		t.Fatalf("err = %v, want only 0 of 3", err)
	}
	cfg.Plies = 6
	if got, err := GenerateOpenings(context.Background(), v, cfg, PlayerSpec{}, biased, 3, 1); err != nil || got[0].Score != 0 {
		t.Fatalf("even plies: %v, %v", got, err)
	}

	// Every scorer is closed after use: an outside engine's process ends
	// (they once piled up, one per scored walk).
	var opened, closed int
	closing := func(PlayerSpec) (Player, error) {
		opened++
		return &closingScorer{constScorer{0}, &closed}, nil
	}
	if _, err := GenerateOpenings(context.Background(), v, cfg, PlayerSpec{}, closing, 3, 1); err != nil {
		t.Fatal(err)
	}
	if opened == 0 || closed != opened {
		t.Errorf("%d scorers opened, %d closed", opened, closed)
	}

	// The start position is searched once, not once per walk.
	startHash := engine.NewPosition(v).Hash()
	rootScored, walksScored := 0, 0
	counting := func(spec PlayerSpec) (Player, error) {
		if spec.Seed == startHash {
			rootScored++
		} else {
			walksScored++
		}
		return constScorer{0}, nil
	}
	if _, err := GenerateOpenings(context.Background(), v, cfg, PlayerSpec{}, counting, 5, 1); err != nil {
		t.Fatal(err)
	}
	if rootScored != 1 || walksScored < 5 {
		t.Errorf("start position scored %d times, walks %d times; want once, and at least 5", rootScored, walksScored)
	}
}

// closingScorer is a constScorer that counts its Close calls.
type closingScorer struct {
	constScorer
	closed *int
}

func (c *closingScorer) Close() error { *c.closed++; return nil }

// TestWriteOpenings checks that the written file reads back as the
// openings of a match, and that an existing file is kept unless
// overwriting is asked for.
func TestWriteOpenings(t *testing.T) {
	v := engine.MustVariant("shatranj", nil)
	ops, err := GenerateOpenings(context.Background(), v, OpeningConfig{Plies: 4, Attempts: 4}, PlayerSpec{}, testFactory(), 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "openings.txt")
	if err := WriteOpenings(path, []string{"five shatranj openings", "unscored"}, ops, false); err != nil {
		t.Fatal(err)
	}
	fens, err := ReadFENs(v, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(fens) != len(ops) {
		t.Fatalf("read %d FENs, wrote %d", len(fens), len(ops))
	}
	for i := range fens {
		if fens[i] != ops[i].FEN {
			t.Errorf("FEN %d: read %s, wrote %s", i, fens[i], ops[i].FEN)
		}
	}
	before, _ := os.ReadFile(path)
	if err := WriteOpenings(path, nil, ops[:1], false); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Fatalf("overwrote without asking: %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Fatal("the refused write changed the file")
	}
	if err := WriteOpenings(path, nil, ops[:1], true); err != nil {
		t.Fatal(err)
	}
	if fens, err := ReadFENs(v, path); err != nil || len(fens) != 1 {
		t.Fatalf("after overwriting: %v, %v", fens, err)
	}
}
