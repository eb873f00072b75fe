package tune

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"slices"
	"strings"
	"tamerlane/internal/stats"

	"gonum.org/v1/gonum/mat"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/selfplay"
	"tamerlane/tune/choice"
	"tamerlane/tune/texel"
	"tamerlane/variantfile"
)

// MoveOptions select the move-choice fit (package tune/choice): the
// weights are fitted so that the evaluation of each move's quiet leaf
// picks the move played in the games, with the game results as a second
// term. It learns from every move of every game of the runs given (or
// of one player, Player), so give it the games of the player to imitate
// (for example Fairy-Stockfish playing itself).
type MoveOptions struct {
	// ResultWeight is μ, the weight of the result term (see package
	// choice).
	ResultWeight float64 `json:"result_weight"`
	// Ridge is ρ, the penalty per squared centipawn of a weight's distance
	// from the starting table.
	Ridge float64 `json:"ridge"`
	// Every takes every n-th ply of a game (1: all).
	Every int `json:"every"`
	// Skip leaves out the first plies after the opening book.
	Skip int `json:"skip"`
	// Player, "a" or "b", takes only the moves of each stream's first or
	// second player ("": both); Every then counts that player's moves.
	// Against an outside engine it learns the engine's replies in the
	// positions the other player's games lead to.
	Player string `json:"player,omitempty"`
	// Label, if set, is an outside engine whose move in each sampled
	// position is the move to fit instead of the move played (the game
	// still continues with the move played, and the result term keeps the
	// game's result).
	Label *selfplay.EngineSpec `json:"label,omitempty"`
}

// Defaults of the move-choice fit's position sampling.
const (
	// DefaultMovesEvery takes every second ply: neighbouring positions
	// share most of their moves' leaves.
	DefaultMovesEvery = 2
	// DefaultMovesSkip leaves out the first four plies after the book.
	DefaultMovesSkip = 4
)

// MoveData is the move-choice data of one variant.
type MoveData struct {
	Variant      string
	Train, Valid *choice.Set
	// Read counts the positions considered; Dropped counts them by reason.
	Read    int
	Dropped map[string]int
	// Sources lists the run directories read.
	Sources []string

	v    *engine.Variant // the variant the games were played in
	file string          // the variant file the run recorded for it ("": built in)
}

// moveRuns returns the self-play run directories of dirs: a measurement
// stands for its regression self-play runs; a file (a positions.jsonl)
// has no moves and is an error.
func moveRuns(dirs []string) ([]string, error) {
	var out []string
	for _, dir := range dirs {
		st, err := os.Stat(dir)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("%s: the move-choice fit reads the moves from self-play run directories (their journals), not from a positions file", dir)
		}
		runs, err := measurementRuns(dir)
		if err != nil {
			return nil, err
		}
		if runs == nil {
			runs = []string{dir}
		}
		out = append(out, runs...)
	}
	return out, nil
}

// LoadMoves reads the games of the self-play run directories (finished,
// running or stopped; measurements stand for their regression runs) and
// builds, per variant, the positions of the move-choice fit: every
// mo.Every-th ply (with mo.Player, every mo.Every-th move of that player)
// from mo.Skip plies after the opening book (and from opt.MinPly), leaving
// out positions in check and positions where a move ends the game. The
// move to fit is the move played, or mo.Label's move there. Each move's
// child is resolved by opt.Quiet (nil: the child itself) and its features
// taken with the engine's evaluation.
// Games go to the validation set by pairs (opt.ValidFraction, opt.Seed).
// Loading takes minutes for thousands of games; it stops, with ctx's
// error, between games once ctx is done.
func LoadMoves(ctx context.Context, dirs []string, opt LoadOptions, mo MoveOptions) (map[string]*MoveData, error) {
	runs, err := moveRuns(dirs)
	if err != nil {
		return nil, err
	}
	if mo.Every < 1 {
		return nil, fmt.Errorf("moves: every must be at least 1 (got %d)", mo.Every)
	}
	want := map[string]bool{}
	for _, v := range opt.Variants {
		want[v] = true
	}
	type builder struct {
		data *MoveData
		ev   *eval.Evaluator
	}
	builders := map[string]*builder{}
	labelers := map[string]*selfplay.ExternalPlayer{} // by variant name
	defer func() {
		for _, l := range labelers {
			l.Close()
		}
	}()
	var games int64
	var ml engine.MoveList
	var buf []eval.Feature
	for ri, dir := range runs {
		for g, err := range selfplay.Games(dir) {
			if err != nil {
				return nil, err
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			name := g.Variant.Name
			if len(want) > 0 && !want[name] {
				continue
			}
			score, ok := selfplay.WhiteScore(g.Result)
			if !ok {
				continue
			}
			result := float32(score)
			b := builders[name]
			if b == nil {
				w, err := eval.Default(g.Variant)
				if err != nil {
					return nil, err
				}
				vfile, _ := variantfile.RecordedFile(dir, name)
				b = &builder{data: &MoveData{Variant: name, Dropped: map[string]int{}, v: g.Variant, file: vfile,
					Train: &choice.Set{}, Valid: &choice.Set{}}, ev: eval.New(w)}
				builders[name] = b
			}
			d := b.data
			if !slices.Contains(d.Sources, dir) {
				d.Sources = append(d.Sources, dir)
			}
			set := d.Train
			if inValidation(opt, ri, g.Stream, g.Pair) {
				set = d.Valid
			}
			games++ // the game's identifier: its number in the order read
			pos, moves, err := g.Replay()
			if err != nil {
				return nil, err
			}
			var label *selfplay.ExternalPlayer
			if mo.Label != nil {
				if label = labelers[name]; label == nil {
					label = selfplay.NewExternalPlayer(*mo.Label, g.Variant, selfplay.Limits{})
					labelers[name] = label
				}
				label.NewGame()
			}
			own := 0 // the moves of mo.Player so far, after the book
			for ply, played := range moves {
				after := ply - g.BookPlies
				take := after >= mo.Skip && ply >= opt.MinPly
				switch {
				case mo.Player == "":
					take = take && after%mo.Every == 0
				case after >= 0 && (pos.SideToMove() == engine.White) == (g.FirstWhite == (mo.Player == "a")):
					take = take && own%mo.Every == 0
					own++
				default:
					take = false
				}
				if take {
					d.Read++
					target := played
					if label != nil && !pos.InCheck() { // positions in check are left out anyway
						if target, _, err = label.Move(ctx, pos); err != nil {
							return nil, fmt.Errorf("%s: pair %d ply %d: moves.label: %w", dir, g.Pair, ply, err)
						}
					}
					leaves, chosen, why := moveLeaves(pos, target, b.ev, opt.Quiet, &ml, &buf)
					if why != "" {
						d.Dropped[why]++
					} else {
						r := result
						if pos.SideToMove() == engine.Black {
							r = 1 - r
						}
						if err := set.Add(leaves, chosen, r, games); err != nil {
							return nil, fmt.Errorf("%s: pair %d ply %d: %w", dir, g.Pair, ply, err)
						}
					}
				}
				pos.Make(played)
			}
		}
	}
	out := map[string]*MoveData{}
	for name, b := range builders {
		if b.data.Train.Len() == 0 {
			return nil, fmt.Errorf("variant %s: no training positions for the move-choice fit (%v)", name, b.data.Dropped)
		}
		out[name] = b.data
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no finished games of variants %v in %v", opt.Variants, dirs)
	}
	return out, nil
}

// moveLeaves returns the feature vectors of the quiet leaves of every
// legal move of pos (signed for the side to move) and the index of the
// move played, or the reason the position is left out.
func moveLeaves(pos *engine.Position, played engine.Move, ev *eval.Evaluator, quiet QuietFunc, ml *engine.MoveList, buf *[]eval.Feature) ([][]texel.Feature, int, string) {
	if pos.InCheck() {
		return nil, 0, "in check"
	}
	ml.N = 0
	pos.GenerateLegal(ml)
	if ml.N < 2 {
		return nil, 0, "fewer than two moves"
	}
	sign := float32(1)
	if pos.SideToMove() == engine.Black {
		sign = -1
	}
	chosen := -1
	leaves := make([][]texel.Feature, 0, ml.N)
	for _, m := range ml.Slice() {
		pos.Make(m)
		if r, _ := pos.Outcome(); r != engine.Ongoing {
			pos.Unmake()
			return nil, 0, "a move ends the game"
		}
		var line []engine.Move
		if quiet != nil {
			line = quiet(pos)
		}
		for _, q := range line {
			pos.Make(q)
		}
		*buf = ev.Features(pos, (*buf)[:0])
		for range line {
			pos.Unmake()
		}
		pos.Unmake()
		leaf := make([]texel.Feature, len(*buf))
		for i, f := range *buf {
			leaf[i] = texel.Feature{Index: f.Index, Value: sign * f.Value}
		}
		if m == played {
			chosen = len(leaves)
		}
		leaves = append(leaves, leaf)
	}
	if chosen < 0 {
		return nil, 0, "move played not legal"
	}
	return leaves, chosen, ""
}

// inValidation reports whether a game pair goes to the validation set:
// a hash of the seed, the run, the stream and the pair below the
// fraction (the two games of a pair share their opening).
func inValidation(opt LoadOptions, run int, stream string, pair int) bool {
	if opt.ValidFraction <= 0 {
		return false
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%d/%s/%d", opt.Seed, run, stream, pair)
	return float64(mix64(h.Sum64())>>11)/(1<<53) < opt.ValidFraction
}

// mix64 is SplitMix64's finaliser: FNV-1a alone leaves the high bits of
// strings that differ in their last characters nearly equal.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// movesFrozen marks the weights the move-choice fit keeps: those outside
// the free prefixes (when given) and the tempo, whose feature differs
// between a position's leaves only by the parity of their quiescence
// lines, which says nothing about the moves.
func movesFrozen(reg *eval.Registry, free []string) []bool {
	frozen := make([]bool, reg.Len())
	for i := range frozen {
		name := reg.Name(i)
		isFree := len(free) == 0
		for _, p := range free {
			isFree = isFree || strings.HasPrefix(name, p)
		}
		frozen[i] = !isFree || strings.HasPrefix(name, "tempo.")
	}
	return frozen
}

// FitMoves fits a variant's weights to the moves of d (package choice),
// starting from table start.
func FitMoves(d *MoveData, start *eval.Weights, opt FitOptions, mo MoveOptions) (*VariantFit, error) {
	if start.Variant() != d.Variant {
		return nil, fmt.Errorf("tune: table of %s for data of %s", start.Variant(), d.Variant)
	}
	reg := start.Registry()
	frozen := movesFrozen(reg, opt.Free)
	res, err := choice.Fit(d.Train, d.Valid, start.Values, choice.Options{ResultWeight: mo.ResultWeight, Ridge: mo.Ridge,
		Frozen: frozen, MaxIterations: opt.MaxIterations, Workers: opt.Workers})
	if err != nil {
		return nil, fmt.Errorf("tune %s: %w", d.Variant, err)
	}
	nan := stats.Float(math.NaN())
	f := &VariantFit{
		Variant: d.Variant, Positions: d.Train.Len(), ValidPositions: d.Valid.Len(), Games: d.Train.NumGames(), Read: d.Read,
		Dropped: d.Dropped, Sources: d.Sources, K: stats.Float(res.K), StartTrainMSE: stats.Float(res.Start.MSE), TrainMSE: stats.Float(res.End.MSE),
		StartValidMSE: nan, ValidMSE: nan, StartValidResultMSE: nan, ValidResultMSE: nan,
		Iterations: res.Iterations, Converged: true, Status: res.Status,
		SEMethod: "none (move-choice fit)", Moves: &MovesFit{Options: mo, Result: *res},
	}
	if d.Valid.Len() > 0 {
		f.StartValidMSE, f.ValidMSE = stats.Float(res.StartValid.MSE), stats.Float(res.EndValid.MSE)
		f.StartValidResultMSE, f.ValidResultMSE = f.StartValidMSE, f.ValidMSE
	}
	for i, x := range res.Weights {
		f.Weights = append(f.Weights, Weight{Name: reg.Name(i), Start: stats.Float(start.Values[i]), Value: stats.Float(x), SE: nan, Frozen: frozen[i]})
	}
	f.cov = nanCov(len(res.Weights))
	f.pieceValues(start)
	return f, nil
}

// MovesFit is what a move-choice fit reports besides the weights.
type MovesFit struct {
	Options MoveOptions   `json:"options"`
	Result  choice.Result `json:"result"`
}

// nanCov returns a covariance matrix of NaNs: the move-choice fit
// computes no standard errors.
func nanCov(dim int) *mat.SymDense {
	c := mat.NewSymDense(dim, nil)
	for i := range dim {
		for j := i; j < dim; j++ {
			c.SetSym(i, j, math.NaN())
		}
	}
	return c
}
