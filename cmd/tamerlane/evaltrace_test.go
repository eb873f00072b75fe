package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/engine/eval"
)

// TestEvalTermsAddUp checks, in every variant and along a game of each,
// that the terms "tamerlane eval" lists add up to the evaluation (up to
// its rounding to the centipawn), largest first, with the side to move's
// sign.
func TestEvalTermsAddUp(t *testing.T) {
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, engine.Options{})
		w, err := eval.Default(v)
		if err != nil {
			t.Fatal(err)
		}
		ev := eval.New(w)
		pos := engine.NewPosition(v)
		var ml engine.MoveList
		for ply := 0; ply < 40; ply++ {
			tr, err := traceEval(ev, pos)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			for i, term := range tr.Terms {
				sum += term.Total
				if math.Abs(term.MG+term.EG-term.Total) > 1e-9 {
					t.Fatalf("%s ply %d: %+v: mg+eg is not the total", name, ply, term)
				}
				if i > 0 && math.Abs(term.Total) > math.Abs(tr.Terms[i-1].Total) {
					t.Fatalf("%s ply %d: terms not sorted by size at %d", name, ply, i)
				}
			}
			if math.Abs(sum-float64(tr.White)) > 0.5+1e-6 {
				t.Fatalf("%s ply %d (%s): terms add up to %.4f, the evaluation is %d", name, ply, tr.FEN, sum, tr.White)
			}
			if want := tr.White * (1 - 2*int(pos.SideToMove())); tr.ToMove != want {
				t.Fatalf("%s ply %d: to_move %d, want %d", name, ply, tr.ToMove, want)
			}
			pos.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			pos.Make(ml.Moves[(ply*7)%ml.N])
		}
	}
}

// TestEvalTermFollowsWeight checks that a term's share is its weight
// times its count: doubling the tempo weights doubles the tempo term.
func TestEvalTermFollowsWeight(t *testing.T) {
	v := engine.MustVariant("chess", engine.Options{})
	w, err := eval.Default(v)
	if err != nil {
		t.Fatal(err)
	}
	tempo := func(w *eval.Weights) float64 {
		tr, err := traceEval(eval.New(w), engine.NewPosition(v))
		if err != nil {
			t.Fatal(err)
		}
		for _, term := range tr.Terms {
			if term.Term == "tempo" {
				return term.Total
			}
		}
		t.Fatal("no tempo term at the start position")
		return 0
	}
	base := tempo(w)
	w2 := w.Clone()
	x, _ := w2.Get("tempo.mg")
	if err := w2.Set("tempo.mg", 2*x); err != nil {
		t.Fatal(err)
	}
	if got := tempo(w2); base == 0 || math.Abs(got-2*base) > 1e-9 {
		t.Errorf("tempo term %.4f with the weight doubled, %.4f before", got, base)
	}
}

// TestEvalCommand checks the command's JSON and text output and its
// errors.
func TestEvalCommand(t *testing.T) {
	code, out, errs := runCLI(t, "eval", "--variant", "chess", "--moves", "e2e4 e7e5 g1f3", "--top", "3", "--json")
	if code != 0 {
		t.Fatal(errs)
	}
	var res evalJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Side != "black" || res.ToMove != -res.White || len(res.Terms) != 3 || res.PhaseMax != eval.Phase ||
		!strings.HasPrefix(res.FEN, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/") {
		t.Errorf("got %+v", res)
	}
	code, out, errs = runCLI(t, "eval", "--variant", "shatranj")
	if code != 0 || !strings.Contains(out, "static    ") || !strings.Contains(out, "tempo") {
		t.Errorf("exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval"}, "--variant is required"},
		{[]string{"eval", "--variant", "chess", "--top", "-1"}, "--top -1"},
		{[]string{"eval", "--variant", "chess", "--moves", "e2e5"}, "--moves: move 1"},
		{[]string{"eval", "--variant", "chess", "--weights", "/nonexistent.yaml"}, "nonexistent.yaml"},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want it to contain %q", tc.args, code, errs, tc.want)
		}
	}
}
