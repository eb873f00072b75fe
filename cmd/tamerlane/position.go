package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"tamerlane/engine"
	"tamerlane/internal/notation"
)

// positionJSON is the --json output of "tamerlane position".
type positionJSON struct {
	Variant string         `json:"variant"`
	Rules   string         `json:"rules"`
	FEN     string         `json:"fen"`
	Side    string         `json:"side_to_move"`
	InCheck bool           `json:"in_check"`
	Moves   []positionMove `json:"legal_moves"`
	Result  string         `json:"result"`           // "*" while the game goes on
	Reason  string         `json:"reason,omitempty"` // why it ended
}

// positionMove is one legal move in every notation.
type positionMove struct {
	Coord string `json:"coord"` // docs/rules.md coordinate form
	UCI   string `json:"uci"`   // what "tamerlane uci" writes (Fairy-Stockfish's dialect where it applies)
	SAN   string `json:"san"`
}

// runPosition prints what the rules say about a position: its legal
// moves, check, and the outcome if the game is over.
func runPosition(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("position", stderr)
	var vf variantFlags
	vf.register(fs, "")
	vf.registerMoves(fs)
	asJSON := fs.Bool("json", false, "print one JSON object")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	v, pos, err := vf.position()
	if err != nil {
		return err
	}
	out := positionJSON{Variant: v.Name, Rules: v.Options.String(), FEN: pos.FEN(), Side: pos.SideToMove().String(),
		InCheck: pos.InCheck(), Moves: []positionMove{}, Result: "*"}
	res, reason := pos.Outcome()
	if res != engine.Ongoing {
		out.Result, out.Reason = res.String(), string(reason)
	} else {
		var ml engine.MoveList
		pos.GenerateLegal(&ml)
		for _, m := range ml.Slice() {
			out.Moves = append(out.Moves, positionMove{Coord: pos.Coord(m), UCI: notation.FormatMove(pos, m), SAN: pos.SAN(m)})
		}
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(out)
	}
	fmt.Fprintf(stdout, "variant   %s\nrules     %s\nfen       %s\nto move   %s\nin check  %v\n", out.Variant, orNone(out.Rules), out.FEN, out.Side, out.InCheck)
	if res != engine.Ongoing {
		fmt.Fprintf(stdout, "outcome   %s (%s)\n", out.Result, out.Reason)
		return nil
	}
	fmt.Fprintf(stdout, "outcome   ongoing\nlegal moves (%d):\n", len(out.Moves))
	for _, m := range out.Moves {
		alt := ""
		if m.UCI != m.Coord {
			alt = "  (uci " + m.UCI + ")"
		}
		fmt.Fprintf(stdout, "  %-8s %s%s\n", m.Coord, m.SAN, alt)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
