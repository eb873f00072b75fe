package xboard

import (
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/internal/lineio/linetest"
)

// TestVariantFile: a server given a variant file offers its variant in
// the variants feature, sends it with setup and piece commands (the
// Archbishop and the Chancellor in XBoard's Betza), and plays it.
func TestVariantFile(t *testing.T) {
	srv := NewServer("test")
	if err := srv.AddVariantFile(filepath.Join("..", "configs", "variants", "capablanca.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := srv.AddVariantFile("nonexistent.yaml"); err == nil {
		t.Error("a missing file was accepted")
	}
	s := session{linetest.Start(t, srv.Run)}
	s.Send("xboard", "protover 2")
	if feat := strings.Join(s.until("feature done=1"), "\n"); !strings.Contains(feat, ",full-tamerlane,capablanca\"") {
		t.Errorf("the variants feature lacks capablanca:\n%s", feat)
	}
	s.Send("variant capablanca")
	su := s.until("setup")
	if !strings.Contains(last(su), "10x8+0_fairy rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w") {
		t.Errorf("setup: %s", last(su))
	}
	pieces := strings.Join(s.until("piece K"), "\n")
	for _, want := range []string{"piece A& NB", "piece C& NR"} {
		if !strings.Contains(pieces, want) {
			t.Errorf("piece commands lack %q:\n%s", want, pieces)
		}
	}
	s.Send("sd 2", "usermove e2e4")
	if mv := last(s.until("move ")); len(mv) < len("move a1a2") {
		t.Errorf("reply %q", mv)
	}
}
