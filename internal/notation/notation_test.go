package notation

import (
	"math/rand/v2"
	"strings"
	"testing"

	"tamerlane/engine"
)

// TestForcedPromotion checks the two dialects on shatranj's forced Ferz
// promotion (docs/rules.md 5.2): Fairy-Stockfish writes the letter,
// docs/rules.md's coordinate form does not, and both read back.
func TestForcedPromotion(t *testing.T) {
	pos, err := engine.ParseFEN(engine.MustVariant("shatranj", nil), "k7/4P3/8/8/8/8/3p4/K7 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMove(pos, "e7e8q")
	if err != nil {
		t.Fatal(err)
	}
	if got := FormatMove(pos, m); got != "e7e8q" {
		t.Errorf("FormatMove = %q, want Fairy-Stockfish's e7e8q", got)
	}
	if c := pos.Coord(m); c != "e7e8" {
		t.Errorf("Coord = %q, want e7e8 (the promotion is forced)", c)
	}
	if m2, err := ParseMove(pos, "e7e8"); err != nil || m2 != m {
		t.Errorf("ParseMove(e7e8) = %v, %v; want %v", m2, err, m)
	}
	for _, bad := range []string{"e7e9", "a1a3", "xyz", ""} {
		if _, err := ParseMove(pos, bad); err == nil || !strings.Contains(err.Error(), "illegal move") {
			t.Errorf("ParseMove(%q): error %v, want an illegal move", bad, err)
		}
	}
}

// TestRoundTrip plays random games in every variant and checks at each
// position that FormatMove names every legal move differently, that
// ParseMove reads back both FormatMove's and Coord's text, that only the
// variants Fairy-Stockfish plays differ from the coordinate form, and that
// FormatLine joins the moves of a line.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		_, fsf := FSFName(name)
		pos := engine.NewPosition(v)
		start := pos.Clone()
		var line []engine.Move
		var texts []string
		for ply := 0; ply < 60; ply++ {
			var ml engine.MoveList
			pos.GenerateLegal(&ml)
			moves := ml.Slice()
			if len(moves) == 0 {
				break
			}
			seen := map[string]bool{}
			for _, m := range moves {
				s := FormatMove(pos, m)
				if seen[s] {
					t.Fatalf("%s %s: two moves written %q", name, pos.FEN(), s)
				}
				seen[s] = true
				if !fsf && s != pos.Coord(m) {
					t.Errorf("%s: FormatMove %q differs from Coord %q", name, s, pos.Coord(m))
				}
				for _, text := range []string{s, pos.Coord(m)} {
					if back, err := ParseMove(pos, text); err != nil || back != m {
						t.Fatalf("%s %s: ParseMove(%q) = %v, %v; want %v", name, pos.FEN(), text, back, err, m)
					}
				}
			}
			m := moves[rng.IntN(len(moves))]
			texts = append(texts, FormatMove(pos, m))
			line = append(line, m)
			pos.Make(m)
		}
		if got, want := FormatLine(start, line), strings.Join(texts, " "); got != want {
			t.Errorf("%s: FormatLine = %q, want %q", name, got, want)
		}
	}
	if FormatLine(engine.NewPosition(engine.MustVariant("chess", nil)), nil) != "" {
		t.Error("FormatLine of no moves is not empty")
	}
}

func TestFSFName(t *testing.T) {
	for _, c := range []struct {
		name, fsf string
		ok        bool
	}{{"chess", "chess", true}, {"shatranj", "shatranj", true}, {"shako", "shako", true}, {"tamerlane", "", false}, {"full", "", false}} {
		if fsf, ok := FSFName(c.name); fsf != c.fsf || ok != c.ok {
			t.Errorf("FSFName(%q) = %q, %v; want %q, %v", c.name, fsf, ok, c.fsf, c.ok)
		}
	}
}
