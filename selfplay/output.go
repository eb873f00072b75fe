package selfplay

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
	"tamerlane/internal/stats"
	"tamerlane/selfplay/elo"
)

// File names in a run directory.
const (
	// PGNName is a stream's games, in the stream's directory.
	PGNName = "games.pgn"
	// DatasetName is a stream's sampled positions, in the stream's directory.
	DatasetName = "positions.jsonl"
	// SummaryName is the run's statistics (Summary).
	SummaryName = "summary.json"
	// TimingName is the last session's speed (Timing).
	TimingName = "timing.json"
	// ConfigName is the run's effective configuration.
	ConfigName = "config.yaml"
	// RunInfoName is the run's identity: format, configuration hash, shard.
	RunInfoName = "run.json"
)

// Float is a float64 that encodes to JSON rounded to 4 decimals, and as
// null when it is infinite or NaN (which JSON cannot hold); null decodes
// to NaN (package stats).
type Float = stats.Float4

// WDL counts wins, draws and losses from one side's point of view; Score
// is the mean score per game.
type WDL struct {
	Wins   int   `json:"wins"`
	Draws  int   `json:"draws"`
	Losses int   `json:"losses"`
	Score  Float `json:"score"`
}

func (w *WDL) add(o elo.Outcome) {
	switch o {
	case elo.Win:
		w.Wins++
	case elo.Draw:
		w.Draws++
	default:
		w.Losses++
	}
}

func (w *WDL) finish() {
	if n := w.Wins + w.Draws + w.Losses; n > 0 {
		w.Score = Float((float64(w.Wins) + 0.5*float64(w.Draws)) / float64(n))
	} else {
		w.Score = Float(math.NaN())
	}
}

// EloEstimate is an Elo difference with the half-width of its 95%
// interval and the likelihood of superiority.
type EloEstimate struct {
	Elo    Float `json:"elo"`
	Margin Float `json:"margin"`
	LOS    Float `json:"los"`
}

// String formats the estimate as the report prints it: "+12.3 ± 4.5",
// "+12.3 ± –" when the margin is unknown, "–" when the Elo is.
func (e EloEstimate) String() string {
	if math.IsNaN(float64(e.Elo)) || math.IsInf(float64(e.Elo), 0) {
		return "–"
	}
	return fmt.Sprintf("%+.1f ± %s", float64(e.Elo), e.Margin.Format(1))
}

func estimate(e elo.Estimate) EloEstimate {
	return EloEstimate{Float(e.Elo), Float(e.Margin), Float(e.LOS)}
}

// Interval is a mean score with its 95% confidence interval.
type Interval struct {
	Mean Float `json:"mean"`
	Low  Float `json:"low"`
	High Float `json:"high"`
}

// SPRTSummary is the state of a match's SPRT.
type SPRTSummary struct {
	Elo0     Float  `json:"elo0"`
	Elo1     Float  `json:"elo1"`
	Alpha    Float  `json:"alpha"`
	Beta     Float  `json:"beta"`
	Model    string `json:"model"`
	LLR      Float  `json:"llr"`
	Lower    Float  `json:"lower"`
	Upper    Float  `json:"upper"`
	Decision string `json:"decision"` // "H0", "H1" or "continue"
	// DecidedAt is the number of pairs after which the test stopped (0:
	// not decided). Only those pairs are in the outputs.
	DecidedAt int `json:"decided_at"`
}

// StreamSummary is one stream's part of summary.json. Outcomes of the
// "first player" are those of the player who is White in the first game
// of each pair (player A in a match, the first side of an imbalance).
type StreamSummary struct {
	Name          string   `json:"name"`
	Dir           string   `json:"dir"`
	Kind          string   `json:"kind"` // "selfplay", "imbalance" or "match"
	Variant       string   `json:"variant"`
	Rules         string   `json:"rules"`
	First         string   `json:"first"`
	Second        string   `json:"second"`
	FirstRemoves  []string `json:"first_removes,omitempty"`
	SecondRemoves []string `json:"second_removes,omitempty"`
	// PairsPlanned is the number of pairs of this stream in this shard.
	PairsPlanned int `json:"pairs_planned"`
	// Pairs is the number of pairs in the outputs.
	Pairs     int   `json:"pairs"`
	Games     int   `json:"games"`
	Plies     int   `json:"plies"`
	MeanPlies Float `json:"mean_plies"`
	Positions int   `json:"positions"`
	// White counts the games from White's point of view.
	White WDL `json:"white"`
	// FirstPlayer counts the games from the first player's point of view.
	FirstPlayer WDL `json:"first_player"`
	// Pentanomial counts the pairs by the first player's points: 0, 1/2,
	// 1, 3/2, 2 (fastchess's Ptnml(0-2)).
	Pentanomial [5]int `json:"pentanomial"`
	// Score is the first player's mean score per game with its 95%
	// interval from the pentanomial (pair) variance.
	Score Interval `json:"score"`
	// Elo is the first player's logistic Elo over the second (pentanomial).
	Elo EloEstimate `json:"elo"`
	// NElo is the normalized Elo (pentanomial, fastchess's nElo).
	NElo EloEstimate `json:"nelo"`
	// WhiteElo is White's advantage in Elo (trinomial, games).
	WhiteElo     EloEstimate    `json:"white_elo"`
	Terminations map[string]int `json:"terminations"`
	SPRT         *SPRTSummary   `json:"sprt,omitempty"`
}

// Summary is summary.json. It depends only on the finished games, never on
// timing, so that equal runs give byte-identical files.
type Summary struct {
	Format     string `json:"format"`
	ConfigHash string `json:"config_hash"`
	Shard      string `json:"shard"`
	// Complete is true when every planned pair has been played (or its
	// SPRT has decided).
	Complete bool            `json:"complete"`
	Streams  []StreamSummary `json:"streams"`
}

// Timing is timing.json: the speed of the session that wrote it.
type Timing struct {
	Workers      int     `json:"workers"`
	WallSeconds  float64 `json:"wall_seconds"`
	PairsPlayed  int     `json:"pairs_played"`
	GamesPlayed  int     `json:"games_played"`
	GamesPerHour float64 `json:"games_per_hour"`
	// Streams gives per-stream figures over all journal games: the summed
	// game time and the games per hour of one worker.
	Streams []StreamTiming `json:"streams"`
}

// StreamTiming is one stream's part of timing.json.
type StreamTiming struct {
	Name             string  `json:"name"`
	GamesPlayed      int     `json:"games_played"`
	GameSeconds      float64 `json:"game_seconds"`
	GamesPerCoreHour float64 `json:"games_per_core_hour"`
}

// outcomeFor returns the outcome of a result for the given colour.
func outcomeFor(result string, c engine.Color) elo.Outcome {
	switch {
	case result == "1/2-1/2":
		return elo.Draw
	case (result == "1-0") == (c == engine.White):
		return elo.Win
	}
	return elo.Loss
}

// selectEntries sorts the entries by pair and, for a stream with an SPRT,
// cuts them at the first prefix of consecutive pairs on which the test
// decides. It returns the pairs kept and the SPRT state.
func (st *stream) selectEntries(files map[string]*os.File, entries []jEntry) ([]jEntry, *SPRTSummary, error) {
	entries = slices.Clone(entries)
	slices.SortFunc(entries, func(a, b jEntry) int { return a.pair - b.pair })
	if st.sprt == nil {
		return entries, nil, nil
	}
	s := *st.sprt
	lo, hi := s.Bounds()
	sum := &SPRTSummary{Elo0: Float(s.Elo0), Elo1: Float(s.Elo1), Alpha: Float(s.Alpha), Beta: Float(s.Beta),
		Model: string(s.Model), Lower: Float(lo), Upper: Float(hi), Decision: "continue"}
	var pent elo.Pentanomial
	for i, e := range entries {
		if e.pair != i {
			break // a gap: later pairs cannot be counted yet
		}
		p, err := readEntry(files, e)
		if err != nil {
			return nil, nil, err
		}
		pent.Add(elo.Pair{outcomeFor(p.Games[0].Result, engine.White), outcomeFor(p.Games[1].Result, engine.Black)})
		llr := s.LLRPentanomial(pent)
		sum.LLR = Float(llr)
		if d := s.Decide(llr); d != elo.Continue {
			sum.Decision = d.String()
			sum.DecidedAt = i + 1
			return entries[:i+1], sum, nil
		}
	}
	return entries, sum, nil
}

// writeOutputs regenerates a stream's games.pgn and positions.jsonl from
// its journal entries, in pair order, and returns its summary.
func (st *stream) writeOutputs(dir string, entries []jEntry) (sum StreamSummary, ms int64, err error) {
	files := map[string]*os.File{}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	entries, sprt, err := st.selectEntries(files, entries)
	if err != nil {
		return sum, ms, err
	}
	sdir := filepath.Join(dir, st.dir)
	if err := os.MkdirAll(sdir, 0o755); err != nil {
		return sum, ms, err
	}
	pgn, err := fsx.Create(filepath.Join(sdir, PGNName))
	if err != nil {
		return sum, ms, err
	}
	defer func() {
		if err != nil {
			pgn.Abort()
		}
	}()
	ds, err := fsx.Create(filepath.Join(sdir, DatasetName))
	if err != nil {
		return sum, ms, err
	}
	defer func() {
		if err != nil {
			ds.Abort()
		}
	}()
	sum = StreamSummary{
		Name: st.name, Dir: st.dir, Kind: st.kind, Variant: st.v.Name, Rules: st.v.Options.String(),
		First: st.firstName, Second: st.secondName, FirstRemoves: st.firstRemoves, SecondRemoves: st.secondRemoves,
		PairsPlanned: st.planned, Terminations: map[string]int{}, SPRT: sprt,
	}
	var pent elo.Pentanomial
	var tri elo.Trinomial
	startFEN := engine.NewPosition(st.v).FEN()
	for _, e := range entries {
		p, err := readEntry(files, e)
		if err != nil {
			return sum, ms, err
		}
		if p.Pair != e.pair {
			return sum, ms, fmt.Errorf("%s: pair %d, want %d", e.where(), p.Pair, e.pair)
		}
		var pr elo.Pair
		for g, game := range p.Games {
			firstColor := engine.White
			if g == 1 {
				firstColor = engine.Black
			}
			id := int64(2*p.Pair + g)
			n, err := st.writeGame(pgn.Writer, ds.Writer, p.Pair, g, id, game, startFEN)
			if err != nil {
				return sum, ms, fmt.Errorf("%s: pair %d game %d: %v", e.where(), p.Pair, g, err)
			}
			pr[g] = outcomeFor(game.Result, firstColor)
			sum.FirstPlayer.add(pr[g])
			wo := outcomeFor(game.Result, engine.White)
			sum.White.add(wo)
			tri.Add(wo)
			sum.Games++
			sum.Plies += len(game.Book) + len(game.Moves)
			sum.Positions += n
			sum.Terminations[game.Termination]++
		}
		pent.Add(pr)
		sum.Pairs++
		ms += p.Games[0].Ms + p.Games[1].Ms
	}
	if err := pgn.Commit(); err != nil {
		return sum, ms, err
	}
	if err := ds.Commit(); err != nil {
		return sum, ms, err
	}
	sum.White.finish()
	sum.FirstPlayer.finish()
	sum.Pentanomial = pent
	sum.MeanPlies = Float(math.NaN())
	if sum.Games > 0 {
		sum.MeanPlies = Float(float64(sum.Plies) / float64(sum.Games))
	}
	sum.Score = pairScore(pent)
	sum.Elo = estimate(pent.Elo())
	sum.NElo = estimate(pent.NormalizedElo())
	sum.WhiteElo = estimate(tri.Elo())
	return sum, ms, nil
}

// pairScore returns the mean score per game and its 95% interval from
// the variance of the pair scores (normal approximation, clipped to
// [0, 1]).
func pairScore(p elo.Pentanomial) Interval {
	n := float64(p.Pairs())
	if n == 0 {
		nan := Float(math.NaN())
		return Interval{nan, nan, nan}
	}
	var mean, sq float64
	for i, c := range p {
		x := float64(i) / 4
		mean += float64(c) * x
		sq += float64(c) * x * x
	}
	mean /= n
	variance := sq/n - mean*mean
	half := stats.Z95 * math.Sqrt(max(variance, 0)/n)
	return Interval{Float(mean), Float(max(0, mean-half)), Float(min(1, mean+half))}
}

// writeGame replays a journal game, writes it as PGN and its sampled
// positions as data-set records, and returns the number of records.
func (st *stream) writeGame(pgn, ds *bufio.Writer, pair, g int, id int64, game *jGame, startFEN string) (int, error) {
	pos, err := engine.ParseFEN(st.v, game.FEN)
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
	if rootFEN := pos.FEN(); rootFEN != startFEN {
		tag("SetUp", "1")
		tag("FEN", rootFEN)
	}
	tag("GameId", strconv.FormatInt(id, 10))
	tag("PlyCount", strconv.Itoa(len(game.Book)+len(game.Moves)))
	tag("Termination", game.Termination)
	pgn.WriteByte('\n')

	result := outcomeFor(game.Result, engine.White)
	resultScore := float64(result) / 2
	var line lineWriter
	line.w = pgn
	fullmove := 1
	if f := strings.Fields(game.FEN); len(f) >= 6 {
		if n, err := strconv.Atoi(f[5]); err == nil && n > 0 {
			fullmove = n
		}
	}
	mustNumber := true
	play := func(mv, comment string) error {
		m, err := pos.ParseCoord(mv)
		if err != nil {
			return err
		}
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
		pos.Make(m)
		return nil
	}
	for _, mv := range game.Book {
		if err := play(mv, "book"); err != nil {
			return 0, err
		}
	}
	records := 0
	si := 0
	for i, mv := range game.Moves {
		if si < len(game.Samples) && game.Samples[si] == i {
			si++
			rec := Record{
				FEN: pos.FEN(), Result: resultScore, Score: mv.S, Mate: mv.Mt,
				Ply: len(game.Book) + i, Game: id, Variant: st.v.Name, Rules: st.v.Options.String(),
			}
			if pos.SideToMove() == engine.Black {
				rec.Score, rec.Mate = -rec.Score, -rec.Mate
			}
			data, err := json.Marshal(&rec)
			if err != nil {
				return 0, err
			}
			ds.Write(data)
			ds.WriteByte('\n')
			records++
		}
		if err := play(mv.M, scoreComment(mv)); err != nil {
			return 0, err
		}
	}
	if si != len(game.Samples) {
		return 0, fmt.Errorf("sample indices %v out of order or range", game.Samples)
	}
	line.word(game.Result)
	line.flush()
	pgn.WriteByte('\n')
	return records, nil
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
