package selfplay

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
)

// ReadFENs reads a file of FENs of v, one per line (a match's openings,
// positions to judge); blank lines and lines starting with '#' are
// skipped, and a position whose game is over is an error. Errors name the
// file and line.
func ReadFENs(v *engine.Variant, path string) ([]string, error) {
	var fens []string
	err := readFENLines(v, path, func(p *engine.Position) error {
		fens = append(fens, p.FEN())
		return nil
	})
	return fens, err
}

// readFENLines calls each for every position of a file of FENs of v (as
// ReadFENs reads it); each's error is returned with the file and line.
// The file must be a regular file of at most fsx.MaxListBytes.
func readFENLines(v *engine.Variant, path string, each func(p *engine.Position) error) error {
	b, err := fsx.ReadFile(path, fsx.MaxListBytes)
	if err != nil {
		return err
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		p, err := engine.ParseFEN(v, s)
		if err != nil {
			return fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if res, _ := p.Outcome(); res != engine.Ongoing {
			return fmt.Errorf("%s:%d: the game is already over in %s", path, line, s)
		}
		if err := each(p); err != nil {
			return fmt.Errorf("%s:%d: %v", path, line, err)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: %v", path, line+1, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: no FEN in the file", path)
	}
	return nil
}

// imbalanceOpenings reads an imbalance stream's openings file (see
// ImbalanceConfig.OpeningsFile) and returns, for each of its positions,
// the start positions of the two games of a pair. A position without the
// pieces to remove is an error naming the file, line and field.
func imbalanceOpenings(v *engine.Variant, path string, first, second []string) ([][2]string, error) {
	var out [][2]string
	r := newRemover(v)
	err := readFENLines(v, path, func(p *engine.Position) error {
		roots, err := r.pairRoots(p, first, second)
		out = append(out, roots)
		return err
	})
	return out, err
}

// pairRoots returns the start positions of the two games of a pair from
// root (imbalanceFEN); the error names the field.
func (r *remover) pairRoots(root *engine.Position, first, second []string) ([2]string, error) {
	var roots [2]string
	for g := range roots {
		fen, rerr := r.fen(root, first, second, g == 1)
		if rerr != nil {
			return roots, fmt.Errorf("%s: %v", rerr.field, rerr.err)
		}
		roots[g] = fen
	}
	return roots, nil
}

// ImbalanceRemoves are the pieces the two sides of an imbalance do
// without (ImbalanceConfig.FirstRemoves and SecondRemoves), under a name
// for errors.
type ImbalanceRemoves struct {
	Name          string
	First, Second []string
}

// CheckImbalanceOpenings reads a file of FENs of v once and checks that
// every imbalance of ims can start from every one of its positions: both
// games of a pair have the pieces to remove, and no removal leaves a
// position no game reaches (ImbalanceConfig.OpeningsFile). For a planner
// that chooses its matches as it goes, to learn at once, not rounds into
// a run, that a file does not suit one of them. The error names the file,
// line, imbalance and field.
func CheckImbalanceOpenings(v *engine.Variant, path string, ims []ImbalanceRemoves) error {
	r := newRemover(v)
	return readFENLines(v, path, func(p *engine.Position) error {
		for _, im := range ims {
			if _, err := r.pairRoots(p, im.First, im.Second); err != nil {
				return fmt.Errorf("imbalance %q: %v", im.Name, err)
			}
		}
		return nil
	})
}

// removeError is an imbalance piece that cannot be removed; field names
// the offending list.
type removeError struct {
	field string
	err   error
}

// imbalanceFEN returns the start position of an imbalance game: root
// (nil: the variant's start position) without the first player's and the
// second player's pieces. swapped says the first player plays Black (the
// second game of a pair). See ImbalanceConfig for the choice of the
// pieces; the orientation of Black's scan is the variant's start array's
// whatever root is. A root's en passant square and clocks are not kept
// (engine.Position.Setup).
func imbalanceFEN(v *engine.Variant, root *engine.Position, first, second []string, swapped bool) (string, *removeError) {
	return newRemover(v).fen(root, first, second, swapped)
}

// remover takes imbalances' pieces off positions of one variant
// (imbalanceFEN); it holds what does not depend on the position, so that
// a file of positions is not charged for it on every line.
type remover struct {
	v       *engine.Variant
	start   *engine.Position
	rotated bool // Black's array is White's rotated (arrayRotated)
}

func newRemover(v *engine.Variant) *remover {
	start := engine.NewPosition(v)
	return &remover{v: v, start: start, rotated: arrayRotated(v, boardOf(v, start.Setup()))}
}

// fen is imbalanceFEN.
func (r *remover) fen(root *engine.Position, first, second []string, swapped bool) (string, *removeError) {
	v, start, rotated := r.v, r.start, r.rotated
	if root == nil {
		root = start
	}
	setup := root.Setup()
	board := boardOf(v, setup)
	where := func() string { // for an error only: a root's FEN is not free
		if root != start {
			return "pieces in " + root.FEN()
		}
		return "array in " + v.Name
	}
	sides := [2]struct {
		color engine.Color
		toks  []string
		field string
	}{{engine.White, first, "first_removes"}, {engine.Black, second, "second_removes"}}
	if swapped {
		sides[0].color, sides[1].color = engine.Black, engine.White
	}
	for _, sd := range sides {
		for i, tok := range sd.toks {
			field := fmt.Sprintf("%s[%d]", sd.field, i)
			tok, added, replace := strings.Cut(tok, ">")
			var put engine.Piece
			if replace {
				t, ok := v.PieceByToken(added)
				if !ok || v.Def(t).Royal {
					return "", &removeError{field, fmt.Errorf("%q: the piece after > must be a non-royal piece of %s, not %q", tok+">"+added, v.Name, added)}
				}
				put = engine.MakePiece(t, sd.color)
			}
			piece, file, err := splitRemove(v, tok)
			if err != nil {
				return "", &removeError{field, err}
			}
			match, err := tokenMatcher(v, piece)
			if err != nil {
				return "", &removeError{field, err}
			}
			s, ok := findRemovable(v, board, sd.color, rotated, match, file)
			if !ok {
				return "", &removeError{field, fmt.Errorf("no piece %q left to remove from %s's %s", tok, sd.color, where())}
			}
			board[s] = engine.Empty
			setup.Remove(s)
			if replace {
				if err := setup.Put(s, put); err != nil {
					return "", &removeError{field, err}
				}
				// The new piece stays on the board and is never removed again.
			}
		}
	}
	// The setup drops the rights whose pieces are gone (a removed Rook's
	// castling, a removed Prince's double step). From a given position a
	// removed blocker can expose the king of the side not to move, which
	// ParseFEN refuses: no game reaches it.
	q, err := setup.Position()
	if err != nil {
		return "", &removeError{"first_removes", fmt.Errorf("the imbalance gives an invalid position: %v", err)}
	}
	if res, _ := q.Outcome(); res != engine.Ongoing {
		return "", &removeError{"first_removes", fmt.Errorf("the imbalance gives a finished game: %s", q.FEN())}
	}
	return q.FEN(), nil
}

// boardOf returns the pieces of a setup square by square.
func boardOf(v *engine.Variant, setup *engine.Setup) *[engine.NumSquares]engine.Piece {
	var board [engine.NumSquares]engine.Piece
	for r := 0; r < v.Ranks; r++ {
		for f := 0; f < v.Files; f++ {
			s := engine.SquareAt(f, r)
			board[s] = setup.At(s)
		}
	}
	return &board
}

// splitRemove splits a remove "X" or "X@f" into the piece token and the
// file of the player's array it must stand on (-1: any file).
func splitRemove(v *engine.Variant, tok string) (string, int, error) {
	piece, fileName, ok := strings.Cut(tok, "@")
	if !ok {
		return tok, -1, nil
	}
	f := -1
	if len(fileName) == 1 && fileName[0] >= 'a' && fileName[0] <= 'z' {
		f = int(fileName[0] - 'a')
	}
	if f < 0 || f >= v.Files {
		return "", 0, fmt.Errorf("%q: the file after @ must be a letter from a to %c (%s has %d files)", tok, 'a'+v.Files-1, v.Name, v.Files)
	}
	return piece, f, nil
}

// tokenMatcher returns a test for the piece types a remove token names.
func tokenMatcher(v *engine.Variant, tok string) (func(engine.PieceType) bool, error) {
	if t, ok := v.PieceByToken(tok); ok {
		if v.Def(t).Royal {
			return nil, fmt.Errorf("%q is a royal piece and cannot be removed", tok)
		}
		return func(x engine.PieceType) bool { return x == t }, nil
	}
	if strings.EqualFold(tok, "P") {
		return func(x engine.PieceType) bool { return v.Def(x).Pawn }, nil
	}
	var toks []string
	for t := 1; t <= v.NumTypes(); t++ {
		toks = append(toks, v.Def(engine.PieceType(t)).Token)
	}
	return nil, fmt.Errorf("no piece %q in %s (pieces: %s)", tok, v.Name, strings.Join(toks, " "))
}

// arrayRotated reports whether Black's start array is White's rotated by
// 180 degrees rather than mirrored across the middle rank (whichever
// matches more squares).
func arrayRotated(v *engine.Variant, board *[engine.NumSquares]engine.Piece) bool {
	mirror, rot := 0, 0
	for r := 0; r < v.Ranks; r++ {
		for f := 0; f < v.Files; f++ {
			pc := board[engine.SquareAt(f, r)]
			if pc == engine.Empty || pc.Color() != engine.White {
				continue
			}
			want := engine.MakePiece(pc.Type(), engine.Black)
			if board[engine.SquareAt(f, v.Ranks-1-r)] == want {
				mirror++
			}
			if board[engine.SquareAt(v.Files-1-f, v.Ranks-1-r)] == want {
				rot++
			}
		}
	}
	return rot > mirror
}

// findRemovable finds the piece of colour c to remove (see
// ImbalanceConfig); file, unless -1, is the file of the player's array
// it must stand on (for Black in a rotated array, the mirrored board file).
func findRemovable(v *engine.Variant, board *[engine.NumSquares]engine.Piece, c engine.Color, rotated bool, match func(engine.PieceType) bool, file int) (engine.Square, bool) {
	for i := 0; i < v.Ranks; i++ {
		r := i
		if c == engine.Black {
			r = v.Ranks - 1 - i
		}
		for j := 0; j < v.Files; j++ {
			if file >= 0 && j != file {
				continue
			}
			f := j
			if c == engine.Black && rotated {
				f = v.Files - 1 - j
			}
			s := engine.SquareAt(f, r)
			if pc := board[s]; pc != engine.Empty && pc.Color() == c && match(pc.Type()) {
				return s, true
			}
		}
	}
	return engine.NoSquare, false
}

// mateScore is the score a mate is counted as, in centipawns.
const mateScore = 30000

// effectiveScore returns a move's score from the mover's view, with a
// found mate counted as ±mateScore.
func effectiveScore(info MoveInfo) int {
	switch {
	case info.Mate > 0:
		return mateScore
	case info.Mate < 0:
		return -mateScore
	}
	return info.Score
}

// opener makes random-walk openings for one start position.
type opener struct {
	v       *engine.Variant
	cfg     OpeningConfig
	factory PlayerFactory
	spec    PlayerSpec // the scoring player; Limits and Seed are set here
	// roots caches the score of each root position (FEN → int): every
	// walk from a root is measured against the same score, so it is
	// searched once, not once per walk (a scorer is deterministic: the
	// same position, limits and seed give the same score)
	roots sync.Map
}

// rootScore is quickScore of the root position start (FEN root), cached.
func (o *opener) rootScore(ctx context.Context, root string, start *engine.Position) (int, error) {
	if s, ok := o.roots.Load(root); ok {
		return s.(int), nil
	}
	s, err := o.quickScore(ctx, start)
	if err != nil {
		return 0, err
	}
	o.roots.Store(root, s)
	return s, nil
}

// quickScore scores pos from White's view with a fresh player. The
// player searches a copy: a search may leave the order of a position's
// piece lists, and so the order its moves are generated in, changed, and
// the walks draw their moves from the root's generation order, which must
// not depend on whether this process scored the root before.
func (o *opener) quickScore(ctx context.Context, pos *engine.Position) (int, error) {
	pos = pos.Clone()
	spec := o.spec
	spec.Limits = Limits{Nodes: o.cfg.ScoreNodes}
	spec.TTMiB = 1 // a small search needs no big table
	spec.Seed = pos.Hash()
	pl, err := o.factory(spec)
	if err != nil {
		return 0, err
	}
	if cl, ok := pl.(io.Closer); ok {
		defer cl.Close() // an outside engine: end its process
	}
	pl.NewGame()
	_, info, err := pl.Move(ctx, pos)
	if err != nil {
		return 0, err
	}
	s := effectiveScore(info)
	if pos.SideToMove() == engine.Black {
		s = -s
	}
	return s, nil
}

// materialDiff returns, per piece type, White's count minus Black's.
func materialDiff(pos *engine.Position) []int {
	v := pos.Variant()
	d := make([]int, v.NumTypes()+1)
	for t := 1; t <= v.NumTypes(); t++ {
		d[t] = pos.Count(engine.PieceType(t), engine.White) - pos.Count(engine.PieceType(t), engine.Black)
	}
	return d
}

// walk returns the coordinate moves of a random-walk opening from root,
// drawn with seed (see OpeningConfig), or no moves if no walk passes.
func (o *opener) walk(ctx context.Context, root string, seed uint64) ([]string, error) {
	op, err := o.scoredWalk(ctx, root, seed)
	if op == nil {
		return nil, err
	}
	return op.Moves, err
}

// scoredWalk is walk returning the accepted walk as an Opening: its
// moves, the position they reach and its score from White's view
// relative to root's (0 when max_score is 0: not scored); nil if no walk
// passes.
func (o *opener) scoredWalk(ctx context.Context, root string, seed uint64) (*Opening, error) {
	if o.cfg.Plies == 0 {
		return nil, nil
	}
	start, err := engine.ParseFEN(o.v, root)
	if err != nil {
		return nil, err
	}
	rootMat := materialDiff(start)
	rootScore := 0
	if o.cfg.MaxScore > 0 {
		if rootScore, err = o.rootScore(ctx, root, start); err != nil {
			return nil, err
		}
	}
	r := newRNG(seed)
	var ml engine.MoveList
attempts:
	for a := 0; a < o.cfg.Attempts; a++ {
		pos := start.Clone()
		moves := make([]string, 0, o.cfg.Plies)
		for i := 0; i < o.cfg.Plies; i++ {
			pos.GenerateLegal(&ml)
			if ml.N == 0 {
				continue attempts
			}
			m := ml.Moves[r.intn(ml.N)]
			moves = append(moves, pos.Coord(m))
			pos.Make(m)
			if res, _ := pos.Outcome(); res != engine.Ongoing {
				continue attempts
			}
		}
		if o.cfg.Material {
			d := materialDiff(pos)
			for t := range d {
				if d[t] != rootMat[t] {
					continue attempts
				}
			}
		}
		score := 0
		if o.cfg.MaxScore > 0 {
			s, err := o.quickScore(ctx, pos)
			if err != nil {
				return nil, err
			}
			if s-rootScore > o.cfg.MaxScore || rootScore-s > o.cfg.MaxScore {
				continue attempts
			}
			score = s - rootScore
		}
		return &Opening{FEN: pos.FEN(), Moves: moves, Score: score}, nil
	}
	return nil, nil
}
