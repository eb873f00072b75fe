package engine

import (
	"strings"
	"testing"
)

// TestSetup checks the board-setup API: a position's setup gives back its
// FEN, removing a right's piece drops the right (docs/rules.md 2.6, 5.1), and
// the result is validated like a FEN.
func TestSetup(t *testing.T) {
	for _, name := range VariantNames() {
		v := MustVariant(name, nil)
		p := NewPosition(v)
		q, err := p.Setup().Position()
		if err != nil || q.FEN() != p.FEN() {
			t.Errorf("%s: setup of the start position gives %v, %v", name, q, err)
		}
	}
	chess := MustVariant("chess", nil)
	su := NewPosition(chess).Setup()
	if su.Remove(sq(t, chess, "h1")) == Empty || su.Remove(sq(t, chess, "b8")) == Empty {
		t.Fatal("nothing removed")
	}
	p, err := su.Position()
	if err != nil {
		t.Fatal(err)
	}
	if want := "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1"; p.FEN() != want {
		t.Errorf("after removing h1 and b8: %s", p.FEN())
	}
	// Tamerlane II: removing the e2 Prince drops its double-step right E.
	t2 := MustVariant("tamerlane2", nil)
	su = NewPosition(t2).Setup()
	su.Remove(sq(t, t2, "e2"))
	if p, err := su.Position(); err != nil || strings.Fields(p.FEN())[2] != "Geg" {
		t.Errorf("tamerlane2 without the e2 Prince: %v %v", p, err)
	}
	// A Tamerlane citadel occupant and an empty board built by hand.
	tam := MustVariant("tamerlane", nil)
	su = NewSetup(tam)
	k, _ := tam.PieceByToken("K")
	for _, c := range []struct {
		sq string
		pc Piece
	}{{"f1", MakePiece(k, White)}, {"l2", MakePiece(k, Black)}} {
		if err := su.Put(sq(t, tam, c.sq), c.pc); err != nil {
			t.Fatal(err)
		}
	}
	su.SetSide(Black)
	if p, err := su.Position(); err != nil || p.FEN() != "11/11/11/11/11/11/11/11/11[k]/5K5 b - 00 0 1" {
		t.Errorf("hand-built Tamerlane board: %v %v", p, err)
	}
	// Validation: a setup with no Black King is refused.
	su.Remove(sq(t, tam, "l2"))
	if _, err := su.Position(); err == nil || !strings.Contains(err.Error(), "no royal") {
		t.Errorf("no Black royal: %v", err)
	}
	if err := su.Put(SquareAt(-1, 0), MakePiece(k, White)); err == nil {
		t.Error("Put off the board accepted")
	}
}
