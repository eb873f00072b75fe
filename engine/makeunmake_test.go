package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// snapshot is everything Unmake must restore, the order of the piece
// lists and of the legal moves included: a search must leave the order of
// move generation as it found it, or whatever draws moves from that order
// (random openings) would depend on what ran before.
type snapshot struct {
	fen       string
	moves     []Move
	hash      uint64
	pieces    [2][]Square
	royals    [2][]Square
	ep        Square
	half, ply int
	last      Move
	check     bool
	pp        [2]int
	waiting   [2]Square
	citadel   bool
	counts    [64]int
}

func sortedSquares(s []Square) []Square {
	out := append([]Square(nil), s...)
	slices.Sort(out)
	return out
}

func takeSnapshot(p *Position) snapshot {
	s := snapshot{fen: p.FEN(), hash: p.Hash(), ep: p.EnPassant(), half: p.HalfmoveClock(), ply: p.GamePly(),
		last: p.LastMove(), check: p.InCheck(), citadel: p.CitadelDraw(), moves: legalMoves(p)}
	for c := White; c <= Black; c++ {
		s.pieces[c] = slices.Clone(p.Pieces(c))
		s.royals[c] = slices.Clone(p.Royals(c))
		s.pp[c] = p.PawnOfPawnsArrivals(c)
		s.waiting[c] = p.WaitingPawnOfPawns(c)
		for t := 1; t <= p.Variant().NumTypes(); t++ {
			s.counts[MakePiece(PieceType(t), c)] = p.Count(PieceType(t), c)
		}
	}
	return s
}

func (s snapshot) diff(o snapshot) string {
	var d []string
	if s.fen != o.fen {
		d = append(d, fmt.Sprintf("FEN %s vs %s", s.fen, o.fen))
	}
	if s.hash != o.hash {
		d = append(d, "hash")
	}
	if !slices.Equal(s.moves, o.moves) {
		d = append(d, fmt.Sprintf("legal moves in another order: %v vs %v", s.moves, o.moves))
	}
	for c := White; c <= Black; c++ {
		if !slices.Equal(s.pieces[c], o.pieces[c]) {
			d = append(d, fmt.Sprintf("%v pieces %v vs %v", c, s.pieces[c], o.pieces[c]))
		}
		if !slices.Equal(s.royals[c], o.royals[c]) {
			d = append(d, fmt.Sprintf("%v royals %v vs %v", c, s.royals[c], o.royals[c]))
		}
	}
	if s.ep != o.ep || s.half != o.half || s.ply != o.ply || s.last != o.last || s.check != o.check ||
		s.pp != o.pp || s.waiting != o.waiting || s.citadel != o.citadel || s.counts != o.counts {
		d = append(d, fmt.Sprintf("state %+v vs %+v", s, o))
	}
	return strings.Join(d, "; ")
}

// checkConsistent verifies the position's piece lists against its board:
// Pieces lists every piece of a side exactly once (citadels included),
// Royals its royal pieces, Count the pieces by type.
func checkConsistent(p *Position) error {
	v := p.Variant()
	var board [2][]Square
	var royal [2][]Square
	var counts [64]int
	var byColor [2]Bitboard
	var byCode [64]Bitboard
	for s := Square(0); s < NumSquares; s++ {
		if !v.OnBoard(s) && !v.IsCitadel(s) {
			continue
		}
		if pc := p.At(s); pc != Empty {
			board[pc.Color()] = append(board[pc.Color()], s)
			counts[pc]++
			byColor[pc.Color()] = byColor[pc.Color()].Or(BitAt(v.Index(s)))
			byCode[pc] = byCode[pc].Or(BitAt(v.Index(s)))
			if v.Def(pc.Type()).Royal {
				royal[pc.Color()] = append(royal[pc.Color()], s)
			}
		}
	}
	for c := White; c <= Black; c++ {
		if got := sortedSquares(p.Pieces(c)); !slices.Equal(got, board[c]) {
			return fmt.Errorf("%v Pieces %v, board %v", c, got, board[c])
		}
		if got := sortedSquares(p.Royals(c)); !slices.Equal(got, royal[c]) {
			return fmt.Errorf("%v Royals %v, board %v", c, got, royal[c])
		}
		if p.Occupied(c) != byColor[c] {
			return fmt.Errorf("%v Occupied %v, board %v", c, p.Occupied(c), byColor[c])
		}
		for t := 1; t <= v.NumTypes(); t++ {
			if got, want := p.Count(PieceType(t), c), counts[MakePiece(PieceType(t), c)]; got != want {
				return fmt.Errorf("Count(%s, %v) = %d, board %d", v.Def(PieceType(t)).Token, c, got, want)
			}
			if got, want := p.PiecesOf(PieceType(t), c), byCode[MakePiece(PieceType(t), c)]; got != want {
				return fmt.Errorf("PiecesOf(%s, %v) = %v, board %v", v.Def(PieceType(t)).Token, c, got, want)
			}
		}
	}
	return nil
}

// rehash returns the hash of the position recomputed from scratch.
func rehash(p *Position) (uint64, error) {
	q, err := ParseFEN(p.Variant(), p.FEN())
	if err != nil {
		return 0, err
	}
	return q.Hash(), nil
}

// TestMakeUnmakeRestores plays every legal move at every node of seeded
// random playouts of every variant and rule option and checks that Unmake
// restores the position exactly (FEN, hash, piece and royal lists, counts,
// state), that the piece lists stay consistent with the board, and that
// the incremental hash equals the hash recomputed from the FEN. The en
// passant square is part of both only while a capture is possible (docs/rules.md
// 2.2, 5.1), so the comparison is exact.
func TestMakeUnmakeRestores(t *testing.T) {
	games, plies, tplies, allChildren, stride := 2, 200, 60, true, 1
	if testing.Short() || raceOn {
		games, plies, tplies, allChildren, stride = 1, 80, 30, false, 4
	}
	for _, rs := range allRuleSets() {
		t.Run(rs.String(), func(t *testing.T) {
			v := mustRuleVariant(t, rs)
			starts := append([]string{v.StartFEN}, targeted(v)...)
			for si, start := range starts {
				for g := 0; g < games; g++ {
					rng := newRNG(uint64(7919*si + g + 11))
					p := mustFEN(t, v, start)
					failed := false
					n := plies
					if si > 0 {
						n = tplies
					}
					playout(rng, p, n, func(p *Position) bool {
						if err := checkNode(p, allChildren, stride); err != nil {
							t.Errorf("%s: %v", p.FEN(), err)
							failed = true
						}
						return !failed
					})
					if failed {
						return
					}
				}
			}
		})
	}
}

// checkNode checks one node and every legal move from it (in -short mode
// every stride-th move); with allChildren the recomputed hash is compared
// after every move checked, not only at the node itself.
func checkNode(p *Position, allChildren bool, stride int) error {
	if err := checkConsistent(p); err != nil {
		return err
	}
	if h, err := rehash(p); err != nil {
		return fmt.Errorf("FEN does not parse: %v", err)
	} else if h != p.Hash() {
		return fmt.Errorf("incremental hash %x, recomputed %x", p.Hash(), h)
	}
	before := takeSnapshot(p)
	for i, m := range legalMoves(p) {
		if i%stride != 0 {
			continue
		}
		coord := p.Coord(m)
		p.Make(m)
		if err := checkConsistent(p); err != nil {
			return fmt.Errorf("after %s: %v", coord, err)
		}
		if allChildren {
			h, err := rehash(p)
			if err != nil {
				return fmt.Errorf("after %s: FEN %s does not parse: %v", coord, p.FEN(), err)
			}
			if h != p.Hash() {
				return fmt.Errorf("after %s (%s): incremental hash %x, recomputed %x", coord, p.FEN(), p.Hash(), h)
			}
		}
		if p.LastMove() != m {
			return fmt.Errorf("after %s: LastMove %v", coord, p.LastMove())
		}
		p.Unmake()
		if d := before.diff(takeSnapshot(p)); d != "" {
			return fmt.Errorf("make/unmake %s changed the position: %s", coord, d)
		}
	}
	p.MakeNull()
	p.UnmakeNull()
	if d := before.diff(takeSnapshot(p)); d != "" {
		return fmt.Errorf("null move changed the position: %s", d)
	}
	return nil
}

// TestHashIdentifiesPositions checks on random playouts that equal
// positions (FEN without the move counters) have equal hashes and
// different positions different hashes: every part of the position that
// decides the legal moves (side, rights, en passant, pawn-of-pawns
// arrivals, citadel occupants) is hashed.
func TestHashIdentifiesPositions(t *testing.T) {
	plies := 300
	if testing.Short() || raceOn {
		plies = 50
	}
	for _, rs := range allRuleSets() {
		v := mustRuleVariant(t, rs)
		byKey := map[string]uint64{}
		byHash := map[uint64]string{}
		for si, start := range append([]string{v.StartFEN}, targeted(v)...) {
			rng := newRNG(uint64(31*si + 5))
			p := mustFEN(t, v, start)
			playout(rng, p, plies, func(p *Position) bool {
				f := strings.Fields(p.FEN())
				key := strings.Join(f[:4], " ")
				if h, ok := byKey[key]; ok && h != p.Hash() {
					t.Errorf("%s: %s has two hashes", rs, key)
					return false
				}
				if k, ok := byHash[p.Hash()]; ok && k != key {
					t.Errorf("%s: %s and %s share hash %x", rs, k, key, p.Hash())
					return false
				}
				byKey[key], byHash[p.Hash()] = p.Hash(), key
				return true
			})
		}
	}
}

// TestEnPassantHashMatchesFEN: a FEN naming an en passant square that no
// pawn can use describes the same position as one without it (docs/rules.md
// 5.1: the position after 1.e4), so both parse to the same hash and FEN.
func TestEnPassantHashMatchesFEN(t *testing.T) {
	v := MustVariant("chess", nil)
	p := NewPosition(v)
	play(t, p, "e2e4")
	q := mustFEN(t, v, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	if p.Hash() != q.Hash() || p.FEN() != q.FEN() {
		t.Errorf("after e2e4: %s %x; parsed with e3: %s %x", p.FEN(), p.Hash(), q.FEN(), q.Hash())
	}
	// With a pawn beside it the square counts and is kept.
	p = NewPosition(v)
	play(t, p, "e2e4 a7a6 e4e5 d7d5")
	if p.EnPassant().String() != "d6" || !hasCoord(p, "e5d6") {
		t.Fatalf("after d7d5: ep %v, moves %v", p.EnPassant(), coords(p))
	}
	q = mustFEN(t, v, p.FEN())
	if q.Hash() != p.Hash() || q.FEN() != p.FEN() {
		t.Errorf("%s: parsed hash %x, played %x", p.FEN(), q.Hash(), p.Hash())
	}
}

// TestInCheckCache: InCheck, cached in the move's state, agrees at every
// node of random games (every legal move made and taken back, null moves
// too) with the attack test it caches, however often it is asked, and a
// taken-back move or null move leaves the parent's answer right.
func TestInCheckCache(t *testing.T) {
	fresh := func(p *Position) bool {
		us := p.side
		return p.nroyal[us] == 1 && p.Attacked(p.royals[us][0], us.Other())
	}
	for _, name := range VariantNames() {
		v := MustVariant(name, nil)
		rng := rand.New(rand.NewPCG(21, uint64(len(name))))
		p := NewPosition(v)
		checks := 0
		var ml, replies MoveList
		for ply := 0; ply < 120; ply++ {
			p.GenerateLegal(&ml)
			if ml.N == 0 {
				break
			}
			parent := p.InCheck()
			for _, m := range ml.Slice() {
				p.Make(m)
				if got, want := p.InCheck(), fresh(p); got != want || p.InCheck() != want {
					t.Fatalf("%s: after %s InCheck %v, attack test %v", name, p.Coord(m), got, want)
				}
				if p.InCheck() {
					checks++
					p.GenerateLegal(&replies) // legal move generation asks InCheck too
				}
				p.Unmake()
				if p.InCheck() != parent || fresh(p) != parent {
					t.Fatalf("%s: the parent's InCheck changed after taking back %s", name, p.Coord(m))
				}
			}
			if !parent && p.nroyal[p.side] == 1 {
				p.MakeNull()
				if p.InCheck() != fresh(p) {
					t.Fatalf("%s: InCheck after a null move", name)
				}
				p.UnmakeNull()
				if p.InCheck() != parent {
					t.Fatalf("%s: InCheck after taking back a null move", name)
				}
			}
			p.Make(ml.Moves[rng.IntN(ml.N)])
		}
		if checks == 0 {
			t.Errorf("%s: no check in the random game: the test saw nothing", name)
		}
	}
}
