package tune

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/selfplay"
)

// smallRun plays a short greedy self-play run of chess into a temporary
// directory and returns it.
func smallRun(t *testing.T) string {
	t.Helper()
	return greedyRun(t, "seed: 5\nnodes: 100\nmax_plies: 60\nopenings: {plies: 4, max_score: 0}\n"+
		"dataset: {positions_per_game: 8, skip_plies: 4}\nvariants:\n  - {variant: chess, pairs: 6}\n")
}

// greedyRun plays the self-play config cfgText with the greedy player
// into a temporary directory and returns it.
func greedyRun(t *testing.T, cfgText string) string {
	t.Helper()
	dir := t.TempDir()
	cfgPath := filepath.Join(t.TempDir(), "run.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := selfplay.LoadConfig(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := selfplay.Run(context.Background(), cfg, dir, selfplay.RunOptions{Workers: 1, Factory: selfplay.GreedyFactory()}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestLoadMovesLeaves checks the move-choice positions of a run against
// the games' journals: one leaf per legal move, the move played among
// them, its leaf the features of the quiet child signed for the mover,
// and the sampling and filters as documented.
func TestLoadMovesLeaves(t *testing.T) {
	dir := smallRun(t)
	mo := MoveOptions{Every: 3, Skip: 2}
	data, err := LoadMoves(context.Background(), []string{dir}, LoadOptions{ValidFraction: 0.5, Seed: 1}, mo)
	if err != nil {
		t.Fatal(err)
	}
	d := data["chess"]
	if d == nil || d.Train.Len() == 0 || d.Valid.Len() == 0 {
		t.Fatalf("no train or validation positions: %d, %d", d.Train.Len(), d.Valid.Len())
	}
	dropped := 0
	for _, n := range d.Dropped {
		dropped += n
	}
	if d.Read != d.Train.Len()+d.Valid.Len()+dropped {
		t.Errorf("read %d, kept %d+%d, dropped %v", d.Read, d.Train.Len(), d.Valid.Len(), d.Dropped)
	}
	// Recount the sampled positions and legal moves from the journals.
	var sampled, leaves int
	for g, err := range selfplay.Games(dir) {
		if err == nil {
			err = g.Walk(func(ply int, pos *engine.Position, m engine.Move) error {
				if after := ply - g.BookPlies; after >= mo.Skip && after%mo.Every == 0 {
					sampled++
					var ml, legal engine.MoveList
					if _, _, why := moveLeaves(pos, m, eval.New(mustDefault(t, pos.Variant())), nil, &ml, new([]eval.Feature)); why == "" {
						pos.GenerateLegal(&legal) // counted apart from moveLeaves
						leaves += legal.N
					}
				}
				return nil
			})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if sampled != d.Read || leaves != d.Train.Leaves()+d.Valid.Leaves() {
		t.Errorf("journals: %d positions sampled, %d leaves; LoadMoves: %d read, %d leaves", sampled, leaves, d.Read,
			d.Train.Leaves()+d.Valid.Leaves())
	}
}

// TestLoadMovesPlayer: with Player the fit reads only the moves of the
// stream's first (a) or second (b) player, and Every counts that
// player's moves; a and b together read what both do.
func TestLoadMovesPlayer(t *testing.T) {
	dir := smallRun(t)
	load := func(mo MoveOptions) *MoveData {
		t.Helper()
		data, err := LoadMoves(context.Background(), []string{dir}, LoadOptions{}, mo)
		if err != nil {
			t.Fatal(err)
		}
		return data["chess"]
	}
	read := func(mo MoveOptions) int { return load(mo).Read }
	// recount counts the positions of player ("a" or "b") and their
	// legal moves from the journals.
	recount := func(player string, every, skip int) (positions, leaves int) {
		t.Helper()
		ev := eval.New(mustDefault(t, engine.MustVariant("chess", nil)))
		for g, err := range selfplay.Games(dir) {
			own := 0
			if err == nil {
				err = g.Walk(func(ply int, pos *engine.Position, m engine.Move) error {
					if ply < g.BookPlies || g.FirstToMove(pos) != (player == "a") {
						return nil
					}
					if ply-g.BookPlies >= skip && own%every == 0 {
						positions++
						var ml, legal engine.MoveList
						if _, _, why := moveLeaves(pos, m, ev, nil, &ml, new([]eval.Feature)); why == "" {
							pos.GenerateLegal(&legal)
							leaves += legal.N
						}
					}
					own++
					return nil
				})
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		return positions, leaves
	}
	both := read(MoveOptions{Every: 1, Skip: 2})
	a, b := read(MoveOptions{Every: 1, Skip: 2, Player: "a"}), read(MoveOptions{Every: 1, Skip: 2, Player: "b"})
	if a == 0 || b == 0 || a+b != both {
		t.Errorf("player a %d + player b %d positions, want both players' %d", a, b, both)
	}
	for _, p := range []string{"a", "b"} {
		d := load(MoveOptions{Every: 2, Skip: 3, Player: p})
		positions, leaves := recount(p, 2, 3)
		if d.Read != positions || d.Train.Leaves() != leaves {
			t.Errorf("player %s, every 2, skip 3: read %d positions with %d leaves, the journals have %d with %d",
				p, d.Read, d.Train.Leaves(), positions, leaves)
		}
	}
}

func mustDefault(t *testing.T, v *engine.Variant) *eval.Weights {
	t.Helper()
	w, err := eval.Default(v)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestMoveLeavesSigned: a leaf is the evaluation's features of the child
// after its quiescence line, negated when Black moves, so that the leaf's
// score is the child's evaluation for the mover.
func TestMoveLeavesSigned(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	// Black to move can take a queen with the pawn (d5xe4) or not.
	pos, err := engine.ParseFEN(v, "k7/8/8/3p4/4Q3/8/8/4K3 b - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	w := mustDefault(t, v)
	ev := eval.New(w)
	var ml engine.MoveList
	pos.GenerateLegal(&ml)
	take, err := pos.ParseCoord("d5e4")
	if err != nil {
		t.Fatal(err)
	}
	leaves, chosen, why := moveLeaves(pos, take, ev, QuietLine(nil), &ml, new([]eval.Feature))
	if why != "" {
		t.Fatal(why)
	}
	if len(leaves) != ml.N || pos.Coord(ml.Moves[chosen]) != "d5e4" {
		t.Fatalf("%d leaves for %d moves; chosen %s", len(leaves), ml.N, pos.Coord(ml.Moves[chosen]))
	}
	score := func(l int) float64 {
		var x float64
		for _, f := range leaves[l] {
			x += w.Values[f.Index] * float64(f.Value)
		}
		return x
	}
	for l := range leaves {
		if l != chosen && !(score(chosen) > score(l)+500) {
			t.Errorf("leaf of %s scores %.0f for Black, the queen capture %.0f", pos.Coord(ml.Moves[l]), score(l), score(chosen))
		}
	}
	pos.Make(take)
	if want := float64(-ev.EvaluateWhite(pos)); math.Abs(score(chosen)-want) > 1 {
		t.Errorf("capture leaf %.2f, evaluation for Black %.0f", score(chosen), want)
	}
}

// TestRunMoves runs `tamerlane tune` with a moves: section end to end:
// the table is written with the move-choice provenance, the tempo and
// the weights outside free stay, and a positions file is refused with a
// message saying why.
func TestRunMoves(t *testing.T) {
	dir := smallRun(t)
	cfg, err := ParseConfig([]byte("variants: [chess]\nvalidation: 0.2\nfree: [material., mobility., tempo]\nmoves: {ridge: 1e-5, every: 2, result_weight: 0}\n"), "t.yaml")
	if err != nil {
		t.Fatal(err)
	}
	opt := cfg.Options(QuietLine(nil))
	out := t.TempDir()
	rep, err := Run(context.Background(), []string{dir}, out, opt)
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Fit("chess")
	if f == nil || f.Moves == nil {
		t.Fatalf("no move-choice fit in the report: %+v", rep.Fits)
	}
	if f.Moves.Options.Ridge != 1e-5 || f.Moves.Options.Every != 2 || f.Moves.Options.ResultWeight != 0 || f.Moves.Options.Skip != DefaultMovesSkip {
		t.Errorf("options %+v", f.Moves.Options)
	}
	moved := 0
	for _, w := range f.Weights {
		free := strings.HasPrefix(w.Name, "material.") || strings.HasPrefix(w.Name, "mobility.")
		if !free && w.Value != w.Start {
			t.Errorf("%s moved from %v to %v", w.Name, w.Start, w.Value)
		}
		if free && w.Value != w.Start {
			moved++
		}
	}
	if moved == 0 {
		t.Error("no free weight moved")
	}
	if !(f.Moves.Result.End.CE < f.Moves.Result.Start.CE) {
		t.Errorf("training cross-entropy %v -> %v", f.Moves.Result.Start.CE, f.Moves.Result.End.CE)
	}
	w, err := eval.LoadFile(engine.MustVariant("chess", nil), filepath.Join(out, "tables", "chess.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if w.Provenance.Source != "move-choice tuning" || !strings.Contains(w.Provenance.Notes, "top-1") {
		t.Errorf("provenance %+v", w.Provenance)
	}
	if _, err := ReadReport(out); err != nil {
		t.Fatalf("tune.json does not read back: %v", err)
	}
	_, err = Run(context.Background(), []string{filepath.Join(dir, "chess", selfplay.DatasetName)}, t.TempDir(), opt)
	if err == nil || !strings.Contains(err.Error(), "not from a positions file") {
		t.Errorf("positions file: %v", err)
	}
}

// TestMovesConfigErrors: the moves: section's mistakes, and options the
// move-choice fit would silently ignore, name the file, line and field.
func TestMovesConfigErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"moves: {ridge: -1}\n", "t.yaml:1: moves.ridge: -1 is not a penalty"},
		{"moves: {result_weight: -2}\n", "t.yaml:1: moves.result_weight: -2 is not a weight"},
		{"moves: {every: -1}\n", "t.yaml:1: moves.every: must not be negative"},
		{"moves: {skip: -1}\n", "t.yaml:1: moves.skip: must not be negative"},
		{"moves: {player: white}\n", `t.yaml:1: moves.player: must be a (the first player of each stream) or b (the second), not "white"`},
		{"moves: {rige: 1}\n", `t.yaml:1: moves.rige: unknown field "rige"`},
		{"prior_sd: 5\nmoves: {}\n", "t.yaml:1: prior_sd: is not used by the move-choice fit"},
		{"lambda: 0.5\nmoves: {}\n", "t.yaml:1: lambda: is not used by the move-choice fit"},
	} {
		_, err := ParseConfig([]byte(tc.yaml), "t.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.yaml, err, tc.want)
		}
	}
}

// TestInValidationFraction: pairs go to the validation set at about the
// fraction asked, the same ones for the same seed, others for another.
func TestInValidationFraction(t *testing.T) {
	opt := LoadOptions{ValidFraction: 0.2, Seed: 1}
	n, same, other := 0, 0, 0
	for p := range 2000 {
		a := inValidation(opt, 0, "chess", p)
		if a {
			n++
		}
		if a == inValidation(opt, 0, "chess", p) {
			same++
		}
		if a != inValidation(LoadOptions{ValidFraction: 0.2, Seed: 2}, 0, "chess", p) {
			other++
		}
	}
	if n < 340 || n > 460 || same != 2000 || other < 200 {
		t.Errorf("%d of 2000 pairs held out (want about 400), %d repeat, %d differ under another seed", n, same, other)
	}
	if inValidation(LoadOptions{}, 0, "chess", 1) {
		t.Error("a pair held out without a validation fraction")
	}
}

// TestExperimentTuneConfigs: the tuning configs under configs/experiments
// load and validate.
func TestExperimentTuneConfigs(t *testing.T) {
	files, err := filepath.Glob("../configs/experiments/tune/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no tuning experiment configs: %v", err)
	}
	for _, f := range files {
		if _, err := LoadConfig(f); err != nil {
			t.Error(err)
		}
	}
}

// TestLoadMovesCancelled: a cancelled context stops the loading with the
// context's error.
func TestLoadMovesCancelled(t *testing.T) {
	dir := smallRun(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LoadMoves(ctx, []string{dir}, LoadOptions{}, MoveOptions{Every: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want %v", err, context.Canceled)
	}
}

// TestQuietLineFollowsTable: the quiescence line is the given table's, not
// the embedded one's. Under the embedded table the queen does not take a
// knight a pawn defends; under a table in which a knight is worth far more
// than a queen it does.
func TestQuietLineFollowsTable(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	pos, err := engine.ParseFEN(v, "k7/8/2p5/3n4/8/8/3Q4/K7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if line := QuietLine(nil)(pos); len(line) != 0 {
		t.Errorf("embedded table: quiescence line %v, want none", line)
	}
	rich := mustDefault(t, v).Clone()
	for name, x := range map[string]float64{"material.N.mg": 3000, "material.N.eg": 3000, "material.Q.mg": 100, "material.Q.eg": 100} {
		if err := rich.Set(name, x); err != nil {
			t.Fatal(err)
		}
	}
	line := QuietLine(func(*engine.Variant) (*eval.Weights, error) { return rich, nil })(pos)
	if len(line) == 0 || pos.Coord(line[0]) != "d2d5" {
		t.Errorf("knight-rich table: quiescence line %v, want it to begin with d2d5", line)
	}
}

// TestQuietLineTableFailsOnce: a table that fails to load leaves the
// positions as they are and is asked for once, not once per position.
func TestQuietLineTableFailsOnce(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	pos, err := engine.ParseFEN(v, "k7/8/2p5/3n4/8/8/3Q4/K7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	quiet := QuietLine(func(*engine.Variant) (*eval.Weights, error) { calls++; return nil, errors.New("no table") })
	for range 3 {
		if line := quiet(pos); line != nil {
			t.Errorf("line %v from a table that failed", line)
		}
	}
	if calls != 1 {
		t.Errorf("the table was asked for %d times, want 1", calls)
	}
}
