package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"

	"tamerlane/engine"
	"tamerlane/engine/eval"
)

// evalJSON is the --json output of "tamerlane eval".
type evalJSON struct {
	Variant  string     `json:"variant"`
	Rules    string     `json:"rules"`
	FEN      string     `json:"fen"`
	Side     string     `json:"side_to_move"`
	InCheck  bool       `json:"in_check"`
	Phase    int        `json:"phase"`     // eval.Phase with every start piece on the board, 0 with none
	PhaseMax int        `json:"phase_max"` // eval.Phase
	White    int        `json:"white"`     // the static evaluation, centipawns, White's point of view
	ToMove   int        `json:"to_move"`   // the same from the side to move's point of view (what the search uses)
	Terms    []evalTerm `json:"terms"`     // every term whose count is not 0, largest contribution first
}

// evalTerm is one term's share of the evaluation, White's point of view.
type evalTerm struct {
	Term  string  `json:"term"`  // the weights' name without ".mg"/".eg"
	Raw   int     `json:"raw"`   // White's count minus Black's
	MG    float64 `json:"mg"`    // weight.mg · raw · phase/Phase, centipawns
	EG    float64 `json:"eg"`    // weight.eg · raw · (Phase−phase)/Phase
	Total float64 `json:"total"` // MG + EG
}

// runEval prints the static evaluation of a position term by term: the
// raw count of each term, its tapered middlegame and endgame shares in
// centipawns, and their sum (Stockfish's "eval" command for this
// evaluation). The terms add up to the evaluation but for its rounding
// to the centipawn.
func runEval(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stderr)
	var vf variantFlags
	vf.register(fs, "")
	vf.registerMoves(fs)
	weights := fs.String("weights", "", "eval table (YAML); default: the embedded table of the variant")
	top := fs.Int("top", 0, "print only the N largest terms (0: every non-zero term)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	v, pos, err := vf.position()
	if err != nil {
		return err
	}
	if *top < 0 {
		return fmt.Errorf("--top %d: must not be negative", *top)
	}
	w, err := eval.LoadOrDefault(v, *weights)
	if err != nil {
		return err
	}
	out, err := traceEval(eval.New(w), pos)
	if err != nil {
		return err
	}
	if *top > 0 && len(out.Terms) > *top {
		out.Terms = out.Terms[:*top]
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(out)
	}
	fmt.Fprintf(stdout, "variant   %s\nrules     %s\nfen       %s\n", out.Variant, orNone(out.Rules), out.FEN)
	fmt.Fprintf(stdout, "phase     %d of %d (middlegame share %.2f)\n", out.Phase, out.PhaseMax, float64(out.Phase)/float64(out.PhaseMax))
	fmt.Fprintf(stdout, "static    %+d cp for White, %+d for %s (to move)", out.White, out.ToMove, out.Side)
	if out.InCheck {
		fmt.Fprint(stdout, "; in check, where the search does not use it")
	}
	fmt.Fprintf(stdout, "\n\n%-28s %6s %9s %9s %9s\n", "term", "raw", "mg cp", "eg cp", "total")
	for _, t := range out.Terms {
		fmt.Fprintf(stdout, "%-28s %+6d %+9.1f %+9.1f %+9.1f\n", t.Term, t.Raw, t.MG, t.EG, t.Total)
	}
	return nil
}

// traceEval splits ev's evaluation of pos into its terms: term i with raw
// count x at phase p contributes weight.mg·x·p/Phase + weight.eg·x·(Phase−p)/Phase.
func traceEval(ev *eval.Evaluator, pos *engine.Position) (evalJSON, error) {
	reg := ev.Registry()
	w := ev.Weights()
	raw, phase := ev.Raw(pos)
	mg := float64(phase) / eval.Phase
	out := evalJSON{Variant: pos.Variant().Name, Rules: pos.Variant().Options.String(), FEN: pos.FEN(),
		Side: pos.SideToMove().String(), InCheck: pos.InCheck(), Phase: phase, PhaseMax: eval.Phase,
		White: ev.EvaluateWhite(pos), ToMove: ev.Evaluate(pos), Terms: make([]evalTerm, 0, len(raw))}
	index := map[string]int{} // a term's middlegame weight index, for ties
	for term, x := range raw {
		i, ok := reg.Index(term + ".mg")
		if !ok {
			return evalJSON{}, fmt.Errorf("eval: term %q has no weight %q", term, term+".mg")
		}
		t := evalTerm{Term: term, Raw: x}
		if phase > 0 { // at phase 0 (or Phase) a share is 0, never −0
			t.MG = w.Values[i] * float64(x) * mg
		}
		if phase < eval.Phase {
			t.EG = w.Values[i+1] * float64(x) * (1 - mg)
		}
		t.Total = t.MG + t.EG
		out.Terms = append(out.Terms, t)
		index[term] = i
	}
	sort.Slice(out.Terms, func(i, j int) bool {
		a, b := math.Abs(out.Terms[i].Total), math.Abs(out.Terms[j].Total)
		if a != b {
			return a > b
		}
		return index[out.Terms[i].Term] < index[out.Terms[j].Term]
	})
	return out, nil
}
