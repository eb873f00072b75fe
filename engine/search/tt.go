package search

import (
	"fmt"

	"tamerlane/engine"
)

// MaxHashMiB is the largest transposition table a searcher accepts, in MiB
// (16 GiB). Larger requests are refused by ValidateHashMiB: a table larger
// than the machine's memory would kill the process instead of failing.
const MaxHashMiB = 16384

// ValidateHashMiB says whether mib is a usable table size (1..MaxHashMiB).
func ValidateHashMiB(mib int) error {
	if mib < 1 || mib > MaxHashMiB {
		return fmt.Errorf("hash table size %d MiB out of range: must be 1..%d", mib, MaxHashMiB)
	}
	return nil
}

// Bound kinds of a transposition table score.
const (
	boundNone  uint8 = 0
	boundUpper uint8 = 1 // the true value is at most score (fail low)
	boundLower uint8 = 2 // the true value is at least score (fail high)
	boundExact uint8 = 3
)

// boundOf is the bound of a score best searched with the window
// (alpha, beta): lower on a fail high, upper on a fail low, else exact.
func boundOf(best, alpha, beta int) uint8 {
	switch {
	case best >= beta:
		return boundLower
	case best <= alpha:
		return boundUpper
	}
	return boundExact
}

// cuts reports whether a table score with this bound decides a node
// searched with the window (alpha, beta): it is exact, or a lower bound at
// or above beta, or an upper bound at or below alpha.
func cuts(score int, bound uint8, alpha, beta int) bool {
	switch bound {
	case boundExact:
		return true
	case boundLower:
		return score >= beta
	case boundUpper:
		return score <= alpha
	}
	return false
}

// ttEntry is one 16-byte slot of the transposition table.
type ttEntry struct {
	key   uint64
	move  engine.Move
	score int16
	depth int8
	flags uint8 // bound (low 2 bits) | generation << 2
}

const bucketSize = 4

// table is a fixed-size transposition table of 4-entry buckets (64 bytes);
// the number of buckets is a power of two. A store replaces the entry of
// the same position, else the bucket's entry that is least worth keeping:
// the shallowest, with four plies of depth discounted per search of age.
// Probes and stores do not allocate.
type table struct {
	entries []ttEntry
	mask    uint64 // buckets - 1
	gen     uint8  // 0..63, advanced by every search
}

func newTable(mib int) *table {
	mib = min(max(mib, 1), MaxHashMiB) // callers validate; this bound keeps the loop finite
	buckets := uint64(1)
	for buckets*2*bucketSize*16 <= uint64(mib)<<20 {
		buckets *= 2
	}
	return &table{entries: make([]ttEntry, buckets*bucketSize), mask: buckets - 1}
}

func (t *table) clear() {
	clear(t.entries)
	t.gen = 0
}

func (t *table) newSearch() { t.gen = (t.gen + 1) & 63 }

func (t *table) bucket(key uint64) []ttEntry {
	i := (key & t.mask) * bucketSize
	return t.entries[i : i+bucketSize : i+bucketSize]
}

// probe returns the entry of key, or nil.
func (t *table) probe(key uint64) *ttEntry {
	b := t.bucket(key)
	for i := range b {
		if b[i].key == key && b[i].flags&3 != boundNone {
			return &b[i]
		}
	}
	return nil
}

func (t *table) store(key uint64, m engine.Move, score, depth int, bound uint8) {
	b := t.bucket(key)
	victim := 0
	worst := 1 << 30
	for i := range b {
		e := &b[i]
		if e.key == key || e.flags&3 == boundNone {
			victim = i
			break
		}
		age := int((t.gen - e.flags>>2) & 63)
		if w := int(e.depth) - 4*age; w < worst {
			worst, victim = w, i
		}
	}
	e := &b[victim]
	if e.key == key && m == engine.NullMove {
		m = e.move // keep the old best move
	}
	if depth > 127 {
		depth = 127
	}
	*e = ttEntry{key: key, move: m, score: int16(score), depth: int8(depth), flags: bound | t.gen<<2}
}

// scoreToTT converts a score at ply into the table's form: mate scores
// count from the stored position, not from the root.
func scoreToTT(score, ply int) int {
	switch {
	case score >= MateBound:
		return score + ply
	case score <= -MateBound:
		return score - ply
	}
	return score
}

func scoreFromTT(score, ply int) int {
	switch {
	case score >= MateBound:
		return score - ply
	case score <= -MateBound:
		return score + ply
	}
	return score
}
