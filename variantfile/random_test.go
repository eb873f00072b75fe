package variantfile

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"tamerlane/engine"
)

// randomBetza returns a random movement of one to three terms.
func randomBetza(rng *rand.Rand) string {
	terms := []string{"W", "F", "D", "N", "A", "H", "C", "Z", "G", "K", "R", "B", "Q", "NN", "R2", "B[2-]",
		"mRcpR", "pR", "cpB", "FyR", "FyvR", "FyR[3-]", "fmWfcF", "fN", "vR", "sW", "flF", "ffN", "fsN", "mW", "cF"}
	var b strings.Builder
	for n := 1 + rng.IntN(3); n > 0; n-- {
		b.WriteString(terms[rng.IntN(len(terms))])
	}
	return b.String()
}

// randomFile writes a random variant file: a random board, pieces of
// random movement and roles, a random array and random rule switches.
func randomFile(rng *rand.Rand) string {
	files, ranks := 3+rng.IntN(9), 3+rng.IntN(9)
	letters := "KQRBNPACDEFGHIJLMOSTUVWXYZ"
	nt := 2 + rng.IntN(8)
	var b strings.Builder
	fmt.Fprintf(&b, "name: r%d\nboard: {files: %d, ranks: %d}\n", rng.IntN(1000), files, ranks)
	if rng.IntN(4) == 0 {
		fmt.Fprintf(&b, "citadels: [{square: z%d, owner: black}, {square: %c%d, owner: white}]\n", ranks-1, 'a'+files, 2)
	}
	b.WriteString("pieces:\n")
	pawnOfPawns, promotes := false, false
	for i := 0; i < nt; i++ {
		betza, promo := randomBetza(rng), ""
		if i > 1 && rng.IntN(3) == 0 {
			// piece 1 never promotes: every promotion may go to it
			on := []string{"last-rank", "far-corners", "pawn-of-pawns"}[rng.IntN(3)]
			if on == "pawn-of-pawns" {
				pawnOfPawns, betza = true, "fmWfcF"
				promo = ", pawn: true"
			}
			promo += fmt.Sprintf(", promotion: {on: %s, to: [%c]}", on, letters[1])
			promotes = true
		}
		fmt.Fprintf(&b, "  - {name: P%d, letter: %c, betza: %q%s", i, letters[i], betza, promo)
		if i == 0 {
			b.WriteString(", royal: true, king: true")
		}
		if i > 0 && promo == "" && rng.IntN(5) == 0 {
			b.WriteString(", pawn: true, double_step: {rank: 2, en_passant: true}, takes_en_passant: true")
		}
		if i > 1 && promo == "" && rng.IntN(6) == 0 {
			b.WriteString(", royal: true, royal_rank: 1, heir: true")
		}
		b.WriteString("}\n")
	}
	// the array: Kings on the middle file of the first and last ranks,
	// a few random pieces on the other ranks
	grid := make([][]byte, ranks)
	for r := range grid {
		grid[r] = []byte(strings.Repeat(".", files))
	}
	grid[0][files/2], grid[ranks-1][files/2] = 'K', 'k'
	for n := rng.IntN(files * 2); n > 0; n-- {
		r, f := 1+rng.IntN(ranks-2), rng.IntN(files)
		c := letters[1+rng.IntN(nt-1)]
		if r >= ranks/2 {
			c += 'a' - 'A'
		}
		grid[r][f] = c
	}
	var fen []string
	for r := ranks - 1; r >= 0; r-- {
		row, empty := "", 0
		for _, c := range grid[r] {
			if c == '.' {
				empty++
				continue
			}
			if empty > 0 {
				row += fmt.Sprint(empty)
				empty = 0
			}
			row += string(c)
		}
		if empty > 0 {
			row += fmt.Sprint(empty)
		}
		fen = append(fen, row)
	}
	fields := "w - - 0 1"
	rules := []string{"", "  stalemate: loses\n", "  bare_king_loses: true\n", "  stalemate: draw\n",
		"  exchange: {trigger: check-or-no-move, once: false}\n", "  exchange: {trigger: checkmated, heir_only: true}\n",
		"  insufficient_material: true\n"}
	if promotes {
		// an exchange may set a promoting piece that is not a pawn on its
		// promotion square unpromoted (the swap keeps only pawns off their
		// last rank), a position ParseFEN refuses
		rules = rules[:4]
	}
	if pawnOfPawns {
		fields = "w - 00 0 1"
		rules = append(rules, fmt.Sprintf("  pawn_of_pawns: {kings_start: [a2, a%d]}\n", ranks-1))
		rules = rules[len(rules)-1:]
	}
	fmt.Fprintf(&b, "start: %s %s\nrules:\n  move_rule: 0\n%s", strings.Join(fen, "/"), fields, rules[rng.IntN(len(rules))])
	return b.String()
}

// TestRandomVariants reads random variant files and plays random games
// on those the loader accepts: whatever the pieces and rules, no panic,
// every move generated is legal to make and unmake, and the export reads
// back to the same perft counts.
func TestRandomVariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(62, 5))
	n, accepted := 600, 0
	if testing.Short() {
		n = 150
	}
	for i := 0; i < n; i++ {
		src := randomFile(rng)
		v, err := Read([]byte(src), "random.yaml")
		if err != nil {
			continue
		}
		accepted++
		p := engine.NewPosition(v)
		want := p.Perft(2)
		for ply := 0; ply < 60; ply++ {
			if res, _ := p.Outcome(); res != engine.Ongoing {
				break
			}
			var ml engine.MoveList
			p.GenerateLegal(&ml)
			ms := ml.Slice()
			m := ms[rng.IntN(len(ms))]
			_ = p.SAN(m)
			before := p.FEN()
			p.Make(m)
			p.Unmake()
			if p.FEN() != before {
				t.Fatalf("%s\nmake and unmake %s changed %s into %s", src, p.Coord(m), before, p.FEN())
			}
			p.Make(m)
			if _, err := engine.ParseFEN(v, p.FEN()); err != nil {
				t.Fatalf("%s\nthe FEN after %s does not read back: %v", src, p.Coord(m), err)
			}
		}
		out, err := Export(v)
		if err != nil {
			continue
		}
		back, err := Read(bytesRenamed(out, v.Name), "export.yaml")
		if err != nil {
			t.Fatalf("%s\nexport does not read back: %v\n%s", src, err, out)
		}
		if got := engine.NewPosition(back).Perft(2); got != want {
			t.Fatalf("%s\nperft(2) %d, of the export %d", src, want, got)
		}
	}
	t.Logf("%d of %d random files accepted and played", accepted, n)
	if accepted < n/10 {
		t.Errorf("only %d of %d random files accepted", accepted, n)
	}
}

func bytesRenamed(b []byte, name string) []byte {
	return []byte(strings.Replace(string(b), "\nname: "+name+"\n", "\nname: x"+name+"\n", 1))
}
