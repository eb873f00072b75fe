package engine

import (
	"strconv"
	"strings"
	"testing"
)

// fuzzVariants are the variants the fuzz targets parse with: every variant
// under its defaults and the options that change the FEN (swap=off:
// no swap rights; citadels=off: no citadels).
func fuzzVariants() []*Variant {
	var out []*Variant
	for _, n := range VariantNames() {
		out = append(out, MustVariant(n, nil))
	}
	return append(out,
		MustVariant("tamerlane", Options{"swap": "off"}),
		MustVariant("tamerlane", Options{"citadels": "off"}))
}

func fuzzSeeds() []string {
	var seeds []string
	for _, v := range fuzzVariants() {
		seeds = append(seeds, v.StartFEN)
		seeds = append(seeds, targeted(v)...)
	}
	return append(seeds, "", " ", "8/8/8/8/8/8/8/8 w - -", "11[k]/[K]11", "99999999999999999999/8 w - - 0 1",
		"e1c1d1d1c1e/[J]rntgwkfgtnr/11/11/11/11/11/11/RNTGFKWGTNR[j]/E1C1D1D1C1E w Ss 22 0 1",
		// Empty-square counts that overflow an int and wrapped around.
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB9223372036854775807Q9223372036854775807BNR w KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/18446744073709551617NBQKBNR w KQkq - 0 1",
		// A character of three bytes; a pawn on its own first rank.
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ♚BNR w KQkq - 0 1",
		"4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
		"5k5/11/11/11/11/11/11/11/11/PR4K5 w Ss 00 0 1")
}

// FuzzParseFEN: for each variant any string either fails to parse with an
// error or parses to a position whose FEN parses back to the same FEN and
// hash, and whose moves can be generated, made and unmade (docs/rules.md 2.6,
// 3.1, 3.7, 5).
func FuzzParseFEN(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	variants := fuzzVariants()
	f.Fuzz(func(t *testing.T, s string) {
		for _, v := range variants {
			p, err := ParseFEN(v, s)
			if err != nil {
				if p != nil {
					t.Fatalf("%s: ParseFEN(%q) returned a position and %v", v.Name, s, err)
				}
				continue
			}
			fen := p.FEN()
			q, err := ParseFEN(v, fen)
			if err != nil {
				t.Fatalf("%s: ParseFEN(%q) gave %q, which does not parse: %v", v.Name, s, fen, err)
			}
			if q.FEN() != fen || q.Hash() != p.Hash() {
				t.Fatalf("%s: ParseFEN(%q): %q round-trips to %q (hash %x vs %x)", v.Name, s, fen, q.FEN(), p.Hash(), q.Hash())
			}
			if err := checkConsistent(p); err != nil {
				t.Fatalf("%s: %q: %v", v.Name, fen, err)
			}
			p.Outcome()
			for _, m := range legalMoves(p) {
				p.Make(m)
				p.Outcome()
				p.Unmake()
			}
			if p.FEN() != fen {
				t.Fatalf("%s: %q changed to %q by make/unmake", v.Name, fen, p.FEN())
			}
		}
	})
}

// FuzzParseMove: any string given to ParseMove or ParseCoord on a few
// positions either fails with an error naming it or names a legal move.
func FuzzParseMove(f *testing.F) {
	type pos struct {
		v   *Variant
		fen string
	}
	var positions []pos
	for _, v := range fuzzVariants()[:len(VariantNames())] {
		positions = append(positions, pos{v, v.StartFEN})
		if fens := targeted(v); len(fens) > 0 {
			positions = append(positions, pos{v, fens[0]}, pos{v, fens[len(fens)-1]})
		}
	}
	for _, p := range positions {
		q := mustFEN(f, p.v, p.fen)
		if moves := legalMoves(q); len(moves) > 0 {
			m := moves[len(moves)/2]
			f.Add(q.SAN(m))
			f.Add(q.Coord(m))
		}
	}
	for _, s := range []string{"", "+", "O-O", "0-0-0", "K~e1", "PP@d6", "e10=R", "a10a11q", "z9a9", "l2k2", "e2e4e6e8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, pp := range positions {
			p := mustFEN(t, pp.v, pp.fen)
			legal := legalMoves(p)
			for _, parse := range []func(string) (Move, error){p.ParseMove, p.ParseCoord} {
				m, err := parse(s)
				if err != nil {
					if !strings.Contains(err.Error(), strconv.Quote(s)) {
						t.Fatalf("%s %s: error %q does not name %q", pp.v.Name, pp.fen, err, s)
					}
					continue
				}
				found := false
				for _, l := range legal {
					found = found || l == m
				}
				if !found {
					t.Fatalf("%s %s: %q parsed to an illegal move %v", pp.v.Name, pp.fen, s, m)
				}
			}
		}
	})
}
