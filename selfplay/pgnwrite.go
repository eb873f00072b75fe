package selfplay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"tamerlane/engine"
)

// writeGame replays a journal game, writes it as PGN and its sampled
// positions as data-set records, and returns the number of records.
func (st *stream) writeGame(pgn, ds *bufio.Writer, pair, g int, id int64, game *jGame, startFEN string) (int, error) {
	root, err := engine.ParseFEN(st.v, game.FEN)
	if err != nil {
		return 0, err
	}
	white, black := st.firstName, st.secondName
	if g == 1 {
		white, black = black, white
	}
	tag := func(k, v string) {
		fmt.Fprintf(pgn, "[%s %s]\n", k, pgnQuote(v))
	}
	tag("Event", st.name)
	tag("Site", "?")
	tag("Date", "????.??.??")
	tag("Round", fmt.Sprintf("%d.%d", pair+1, g+1))
	tag("White", white)
	tag("Black", black)
	tag("Result", game.Result)
	tag("Variant", st.v.Name)
	if o := st.v.Options.String(); o != "" {
		tag("Rules", o)
	}
	if rootFEN := root.FEN(); rootFEN != startFEN {
		tag("SetUp", "1")
		tag("FEN", rootFEN)
	}
	tag("GameId", strconv.FormatInt(id, 10))
	tag("PlyCount", strconv.Itoa(len(game.Book)+len(game.Moves)))
	tag("Termination", game.Termination)
	pgn.WriteByte('\n')

	var line lineWriter
	line.w = pgn
	fullmove := 1
	if f := strings.Fields(game.FEN); len(f) >= 6 {
		if n, err := strconv.Atoi(f[5]); err == nil && n > 0 {
			fullmove = n
		}
	}
	mustNumber := true
	move := func(pos *engine.Position, m engine.Move, comment string) {
		if pos.SideToMove() == engine.White {
			line.word(strconv.Itoa(fullmove) + ".")
		} else if mustNumber {
			line.word(strconv.Itoa(fullmove) + "...")
		}
		line.word(pos.SAN(m))
		line.word("{" + comment + "}")
		mustNumber = true // every move carries a comment
		if pos.SideToMove() == engine.Black {
			fullmove++
		}
	}
	records := 0
	sample := func(rec Record) error {
		data, err := json.Marshal(&rec)
		if err != nil {
			return err
		}
		ds.Write(data)
		ds.WriteByte('\n')
		records++
		return nil
	}
	if err := st.replayGame(root, game, id, move, sample); err != nil {
		return 0, err
	}
	line.word(game.Result)
	line.flush()
	pgn.WriteByte('\n')
	return records, nil
}

// sampleRecord is the data-set record of the position pos before the
// searched move i of game (the game with id id).
func (st *stream) sampleRecord(pos *engine.Position, game *jGame, i int, id int64) Record {
	mv := game.Moves[i]
	rec := Record{
		FEN: pos.FEN(), Result: float64(outcomeFor(game.Result, engine.White)) / 2, Score: mv.S, Mate: mv.Mt,
		Ply: len(game.Book) + i, Game: id, Variant: st.v.Name, Rules: st.v.Options.String(),
	}
	if pos.SideToMove() == engine.Black {
		rec.Score, rec.Mate = -rec.Score, -rec.Mate
	}
	return rec
}

// gameRecords replays game (id id) and calls fn for its sampled
// positions' records, as writeGame writes them.
func (st *stream) gameRecords(game *jGame, id int64, fn func(Record) error) error {
	root, err := engine.ParseFEN(st.v, game.FEN)
	if err != nil {
		return err
	}
	return st.replayGame(root, game, id, nil, fn)
}

// replayGame plays game (id id) from pos, its root position: move (if not
// nil) sees every move with its comment ("book" or the score) before it
// is made, sample every sampled position's record before its move.
func (st *stream) replayGame(pos *engine.Position, game *jGame, id int64, move func(*engine.Position, engine.Move, string), sample func(Record) error) error {
	play := func(mv, comment string) error {
		m, err := pos.ParseCoord(mv)
		if err != nil {
			return err
		}
		if move != nil {
			move(pos, m, comment)
		}
		pos.Make(m)
		return nil
	}
	for _, mv := range game.Book {
		if err := play(mv, "book"); err != nil {
			return err
		}
	}
	si := 0
	for i, mv := range game.Moves {
		if si < len(game.Samples) && game.Samples[si] == i {
			si++
			if err := sample(st.sampleRecord(pos, game, i, id)); err != nil {
				return err
			}
		}
		comment := ""
		if move != nil {
			comment = scoreComment(mv)
		}
		if err := play(mv.M, comment); err != nil {
			return err
		}
	}
	if si != len(game.Samples) {
		return fmt.Errorf("sample indices %v out of order or range", game.Samples)
	}
	return nil
}

// scoreComment formats a move's score from the mover's view in pawns and
// its depth, "+0.25/12", or a mate "+M3/12".
func scoreComment(m jMove) string {
	switch {
	case m.Mt > 0:
		return fmt.Sprintf("+M%d/%d", m.Mt, m.D)
	case m.Mt < 0:
		return fmt.Sprintf("-M%d/%d", -m.Mt, m.D)
	}
	return fmt.Sprintf("%+.2f/%d", float64(m.S)/100, m.D)
}

func pgnQuote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// lineWriter wraps PGN movetext at 79 characters.
type lineWriter struct {
	w *bufio.Writer
	n int
}

func (l *lineWriter) word(s string) {
	if l.n > 0 && l.n+1+len(s) > 79 {
		l.w.WriteByte('\n')
		l.n = 0
	}
	if l.n > 0 {
		l.w.WriteByte(' ')
		l.n++
	}
	l.w.WriteString(s)
	l.n += len(s)
}

func (l *lineWriter) flush() {
	if l.n > 0 {
		l.w.WriteByte('\n')
		l.n = 0
	}
}
