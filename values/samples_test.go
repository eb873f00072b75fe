package values

import (
	"testing"

	"tamerlane/engine"
)

// playCoords replays coordinate moves from fen.
func playCoords(t *testing.T, v *engine.Variant, fen string, moves ...string) (*engine.Position, []engine.Move) {
	t.Helper()
	start, err := engine.ParseFEN(v, fen)
	if err != nil {
		t.Fatal(err)
	}
	pos := start.Clone()
	var ms []engine.Move
	for _, s := range moves {
		m, err := pos.ParseCoord(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		pos.Make(m)
		ms = append(ms, m)
	}
	return start, ms
}

// TestSharedPieces: with SharedPieces 1 a position is a sample only while
// both sides have a piece of the same type besides the material
// difference (Kaufman's "other pieces on the board"); with 0 every quiet
// position is. The game: White a knight up with a rook each, the rooks
// are traded on plies 4 and 5, and the knight-up ending without other
// pieces follows.
func TestSharedPieces(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	c := NewClasses(v, false)
	start, moves := playCoords(t, v, "1r2k3/p7/8/8/8/8/P2N4/1R2K3 w - - 0 1",
		"e1e2", "e8d7", "e2e3", "b8b1", "d2b1", "d7c6", "e3d3", "c6b6", "d3c4", "b6a5", "b1c3", "a5a6")
	n, r := c.Index("N"), c.Index("R")
	opt := SampleOptions{MinPly: 1, QuietPlies: 1}
	all := GameSamples(c, start, moves, 1, 0, opt)
	opt.SharedPieces = 1
	kept := GameSamples(c, start, moves, 1, 0, opt)
	opt.SharedPieces = 2
	two := GameSamples(c, start, moves, 1, 0, opt)
	// After plies 1..11, quiet when the material is the same one ply
	// later: plies 1 and 2 (rooks on), not 3 and 4 (the trade), 5..11
	// (the knight ending).
	if len(all) != 9 {
		t.Fatalf("every position: %d samples, want 9", len(all))
	}
	if len(kept) != 2 {
		t.Fatalf("shared_pieces 1: %d samples, want 2 (plies 1 and 2, before the rooks are traded)", len(kept))
	}
	for _, s := range kept {
		if s.Diff[n] != 1 || s.Diff[r] != 0 || s.Weight != 0.5 {
			t.Errorf("kept sample %+v: want a knight up, rooks even, half the game's weight", s)
		}
	}
	if len(two) != 0 {
		t.Errorf("shared_pieces 2: %d samples, want none (a rook each is one shared piece)", len(two))
	}
	for _, s := range all[2:] {
		if s.Diff[r] != 0 || s.Diff[n] != 1 || s.Phase != 1.0/14 {
			t.Errorf("ending sample %+v: want a knight up, no rooks, phase 1/14 (a knight of the 14 pieces of the start)", s)
		}
	}
}

// TestSharedPiecesSetting: the config's shared_pieces reaches the samples
// and the document's settings, a negative one is refused, and the zero
// value leaves the config's hash as it was before the field existed.
func TestSharedPiecesSetting(t *testing.T) {
	base := "variants:\n  - {variant: chess, pairs: 2}\n"
	c0, err := ParseConfig([]byte(base), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c1, err := ParseConfig([]byte("regression: {shared_pieces: 1}\n"+base), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := c1.Regression.SampleOptions().SharedPieces; got != 1 {
		t.Errorf("SampleOptions().SharedPieces = %d, want 1", got)
	}
	h0, _ := c0.Hash()
	h1, _ := c1.Hash()
	if h0 == h1 {
		t.Error("shared_pieces 1 hashes as 0: a run of one would resume the other")
	}
	cz, err := ParseConfig([]byte("regression: {shared_pieces: 0}\n"+base), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if hz, _ := cz.Hash(); hz != h0 {
		t.Error("shared_pieces 0 changed the hash of a config that did not set it")
	}
	if _, err := ParseConfig([]byte("regression: {shared_pieces: -1}\n"+base), "x.yaml"); err == nil {
		t.Error("shared_pieces -1 accepted")
	}
}
