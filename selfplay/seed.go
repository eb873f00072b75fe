package selfplay

import (
	"encoding/binary"
	"hash/fnv"
	"math/bits"
)

// splitmix64 is the finalizer of the SplitMix64 generator: a bijective
// mixing of 64 bits.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// deriveSeed hashes a parent seed and labels (FNV-1a 64, each part
// length-prefixed) and mixes the result with SplitMix64. Seeds depend on
// nothing else, so they are the same on every machine and for any number
// of workers.
func deriveSeed(parent uint64, parts ...string) uint64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], parent)
	h.Write(b[:])
	for _, p := range parts {
		binary.LittleEndian.PutUint64(b[:], uint64(len(p)))
		h.Write(b[:])
		h.Write([]byte(p))
	}
	return splitmix64(h.Sum64())
}

// rng is a SplitMix64 generator. Its sequence is fixed by this file, not by
// the Go release, so that runs reproduce across toolchains.
type rng struct{ s uint64 }

func newRNG(seed uint64) rng { return rng{s: seed} }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	x := r.s
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// intn returns a uniform integer in [0, n) (Lemire's method with
// rejection); n must be positive.
func (r *rng) intn(n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(r.next(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(r.next(), un)
		}
	}
	return int(hi)
}
