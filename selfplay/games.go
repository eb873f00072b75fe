package selfplay

import (
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
)

// Game is one finished game of a self-play run as Games reads it from
// the run's journals: what replaying it needs, its result and its stream.
type Game struct {
	// Stream, Kind ("selfplay", "imbalance" or "match"), FirstRemoves and
	// SecondRemoves describe the game's stream as StreamSummary does.
	Stream        string
	Kind          string
	FirstRemoves  []string
	SecondRemoves []string
	// SameProgram marks a match whose two sides are the same program
	// (PlayerSpec.SameProgram): self-play of that program.
	SameProgram bool
	// Variant is the stream's variant with its rule options.
	Variant *engine.Variant
	// Pair is the pair index; FirstWhite says the stream's first player
	// had White (the pair's first game).
	Pair       int
	FirstWhite bool
	// FEN is the game's root position, Moves every move from it
	// (opening moves included) in coordinate notation, Result "1-0",
	// "0-1" or "1/2-1/2".
	FEN    string
	Moves  []string
	Result string
	// Termination says why the game ended (a rule, or Term* of this
	// package for an adjudication or a forfeit).
	Termination string
	// BookPlies is the number of opening moves at the start of Moves
	// (played from the book, not chosen by the players).
	BookPlies int
	// where names the journal line for errors.
	where string
}

// FirstPlayer returns the game's result for its stream's first player as
// the counts of one game (a win, a draw or a loss), and false for a game
// without a decisive or drawn result.
func (g *Game) FirstPlayer() (WDL, bool) {
	var w WDL
	if _, ok := WhiteScore(g.Result); !ok {
		return w, false
	}
	first := engine.White
	if !g.FirstWhite {
		first = engine.Black
	}
	w.add(outcomeFor(g.Result, first))
	return w, true
}

// Replay returns the game's root position and its moves, checked by the
// rules; an error names the journal line and the ply.
func (g *Game) Replay() (*engine.Position, []engine.Move, error) {
	pos, err := engine.ParseFEN(g.Variant, g.FEN)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", g.where, err)
	}
	start, moves, err := replay(pos, g.Moves)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", g.where, err)
	}
	return start, moves, nil
}

// Walk replays the game (Replay) and calls fn with the ply of each move
// (from the root, book moves included), the position before it and the
// move, then makes it. An error of the replay or of fn ends the walk and
// is returned.
func (g *Game) Walk(fn func(ply int, pos *engine.Position, m engine.Move) error) error {
	pos, moves, err := g.Replay()
	if err != nil {
		return err
	}
	for ply, m := range moves {
		if err := fn(ply, pos, m); err != nil {
			return err
		}
		pos.Make(m)
	}
	return nil
}

// FirstToMove reports whether the stream's first player is to move in
// pos, a position of the game.
func (g *Game) FirstToMove(pos *engine.Position) bool {
	return (pos.SideToMove() == engine.White) == g.FirstWhite
}

// InProgress reports whether dir is a self-play run directory whose run
// has not written its outputs (run.json without summary.json): a run
// still playing, or one that was stopped and can be resumed.
func InProgress(dir string) bool {
	_, errRun := os.Stat(filepath.Join(dir, RunInfoName))
	_, errSum := os.Stat(filepath.Join(dir, SummaryName))
	return errRun == nil && os.IsNotExist(errSum)
}

// Games iterates over the replayable games of the self-play run
// directory dir, finished or in progress, stream by stream in the order
// of the run's plan (ReadPlan). A finished run's (summary.json written) are
// the games its outputs hold, in their order: by pair, an SPRT's cut
// applied (games.pgn, positions.jsonl, the summary's counts). A run still
// playing (InProgress), or stopped, gives every game its journals hold so
// far, in the order the pairs finished; a torn last journal line, a pair
// still being written, is skipped, as a resumed run would. Games never
// writes, and neither the run's outside engines nor its table and
// opening files need be on this machine (a run begun before streams.json was
// written needs the files). An error (a journal or plan that does not
// read) is the last pair yielded.
func Games(dir string) iter.Seq2[*Game, error] {
	return yieldAll(func(yield func(*Game) error) error {
		return eachJournalPair(dir, func(st *stream, e jEntry, p *jPair) error {
			for i, g := range p.Games {
				moves := make([]string, 0, len(g.Book)+len(g.Moves))
				moves = append(moves, g.Book...)
				for _, m := range g.Moves {
					moves = append(moves, m.M)
				}
				jg := &Game{Stream: st.name, Kind: st.kind, FirstRemoves: st.firstRemoves, SecondRemoves: st.secondRemoves, SameProgram: st.sameProgram,
					Variant: st.v, Pair: p.Pair, FirstWhite: i == 0, FEN: g.FEN, Moves: moves, Result: g.Result, Termination: g.Termination, BookPlies: len(g.Book),
					where: fmt.Sprintf("%s (game %d)", e.where(), i+1)}
				if err := yield(jg); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// InterimRecords iterates over the data-set records of every finished
// game in the journals of the self-play run directory dir, running or
// stopped: the records its positions.jsonl will hold for those games (the
// same game ids, 2·pair + g), in the order of Games. Like Games it never
// writes and skips a torn last journal line.
func InterimRecords(dir string) iter.Seq2[Record, error] {
	return yieldAll(func(yield func(Record) error) error {
		return eachJournalPair(dir, func(st *stream, e jEntry, p *jPair) error {
			for g, game := range p.Games {
				if err := st.gameRecords(game, int64(2*p.Pair+g), yield); err != nil {
					if errors.Is(err, errStopped) {
						return err
					}
					return fmt.Errorf("%s (game %d): %v", e.where(), g+1, err)
				}
			}
			return nil
		})
	})
}

// errStopped is what yieldAll's yield returns once the loop over the
// sequence has stopped: the walk ends without an error.
var errStopped = errors.New("the loop over the games stopped")

// yieldAll makes a sequence of a walk that calls yield for each value:
// yield returns errStopped once the loop has stopped, which ends the walk
// quietly; an error of the walk is yielded last.
func yieldAll[T any](walk func(yield func(T) error) error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		err := walk(func(v T) error {
			if !yield(v, nil) {
				return errStopped
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStopped) {
			var zero T
			yield(zero, err)
		}
	}
}

// SameProgramMatches returns the names of the match streams of the
// self-play run directory dir whose two sides are the same program
// (PlayerSpec.SameProgram), as its plan says (ReadPlan).
func SameProgramMatches(dir string) (map[string]bool, error) {
	plan, err := ReadPlan(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, s := range plan.Streams {
		if s.Kind == "match" && s.SameProgram {
			out[s.Name] = true
		}
	}
	return out, nil
}

// eachJournalPair calls fn for every finished pair in the journals of the
// self-play run directory dir, stream by stream in the order of the run's
// plan and, within a stream, in the order the pairs finished; of a
// finished run only the pairs its outputs hold, in their order (Games).
func eachJournalPair(dir string, fn func(*stream, jEntry, *jPair) error) error {
	// Another kind of run has a config.yaml of another kind: say so
	// rather than report its first field as unknown.
	if kind, err := fsx.DirKind(dir); err != nil {
		return err
	} else if kind != "" && kind != fsx.KindSelfplay {
		return fmt.Errorf("%s is a %s run directory (%s), not a self-play or match run (%s)", dir, kind, fsx.Marker(kind), fsx.Marker(fsx.KindSelfplay))
	}
	plan, err := ReadPlan(dir)
	if err != nil {
		return err
	}
	streams, err := plan.streams(dir)
	if err != nil {
		return fmt.Errorf("%s: %v", filepath.Join(dir, PlanName), err)
	}
	finished := !InProgress(dir)
	for _, st := range streams {
		entries, _, err := scanJournal(filepath.Join(dir, st.dir, journalName))
		if err != nil {
			return err
		}
		files := map[string]*os.File{}
		if finished {
			// The games of the outputs: by pair, an SPRT's cut applied.
			if entries, _, err = st.selectEntries(files, entries); err != nil {
				closeAll(files)
				return err
			}
		}
		for _, e := range entries {
			p, err := readEntry(files, e)
			if err == nil {
				err = fn(st, e, p)
			}
			if err != nil {
				closeAll(files)
				return err
			}
		}
		closeAll(files)
	}
	return nil
}

// closeAll closes the files readEntry opened.
func closeAll(files map[string]*os.File) {
	for _, f := range files {
		f.Close()
	}
}
