package engine

// zobristKeys are the random keys of the incremental hash. They are
// computed once from a fixed seed and never modified.
type zobristKeys struct {
	piece [64][NumSquares]uint64
	ep    [NumSquares]uint64
	right [32]uint64
	pp    [2][3]uint64
	side  uint64
}

// zobrist is immutable after package initialisation.
var zobrist = newZobrist()

func newZobrist() *zobristKeys {
	z := &zobristKeys{}
	s := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 { // splitmix64
		s += 0x9e3779b97f4a7c15
		x := s
		x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
		x = (x ^ x>>27) * 0x94d049bb133111eb
		return x ^ x>>31
	}
	for i := range z.piece {
		for j := range z.piece[i] {
			z.piece[i][j] = next()
		}
	}
	for j := range z.ep {
		z.ep[j] = next()
	}
	for j := range z.right {
		z.right[j] = next()
	}
	for c := range z.pp {
		for j := range z.pp[c] {
			z.pp[c][j] = next()
		}
	}
	z.side = next()
	return z
}

func (z *zobristKeys) rights(r uint32) uint64 {
	var h uint64
	for i := 0; r != 0; i, r = i+1, r>>1 {
		if r&1 != 0 {
			h ^= z.right[i]
		}
	}
	return h
}

func (z *zobristKeys) ppKey(pp [2]uint8) uint64 {
	return z.pp[0][pp[0]] ^ z.pp[1][pp[1]]
}

// PieceKey returns the Zobrist key of piece pc on square s: the key the
// position's hash XORs in for that piece. XORing the keys of a subset of
// the pieces hashes that subset, as the evaluation's pawn-structure cache
// does with the pawns.
func PieceKey(pc Piece, s Square) uint64 { return zobrist.piece[pc&0x7f][s] }
