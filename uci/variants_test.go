package uci

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// capablanca is the example Capablanca variant file.
var capablanca, _ = filepath.Abs(filepath.Join("..", "configs", "variants", "capablanca.yaml"))

// TestVariantFileOption: setoption VariantFile loads a variant file,
// switches to its variant and lists it in UCI_Variant; the engine then
// plays it (the Archbishop's and Chancellor's moves); a bad file and
// Rules for the file's variant are reported, never a panic.
func TestVariantFileOption(t *testing.T) {
	c := newClient(t)
	c.Send("setoption name VariantFile value " + capablanca)
	c.Send("position startpos moves e2e4 e7e5")
	c.Send("d")
	if got := c.Until("Fen:", 5*time.Second); !strings.Contains(got[len(got)-1], "rnabqkbcnr/pppp1ppppp/10/4p5/4P5/10/PPPP1PPPPP/RNABQKBCNR w") {
		t.Errorf("position: %v", got)
	}
	c.Send("go depth 3")
	lines := c.Until("bestmove", 10*time.Second)
	if best := lines[len(lines)-1]; !strings.HasPrefix(best, "bestmove ") || best == "bestmove 0000" {
		t.Errorf("search: %s", best)
	}
	c.Send("uci")
	all := strings.Join(c.Until("uciok", 5*time.Second), "\n")
	if !strings.Contains(all, "default capablanca") || !strings.Contains(all, " var capablanca") || !strings.Contains(all, "option name VariantFile type string") {
		t.Errorf("the handshake does not offer the file's variant:\n%s", all)
	}
	for _, tc := range []struct{ cmd, want string }{
		{"setoption name VariantFile value /nonexistent.yaml", "option VariantFile"},
		{"setoption name Rules value swap=off", "sets its rules itself"},
	} {
		c.Send(tc.cmd)
		if got := c.Until("info string error", 5*time.Second); !strings.Contains(got[len(got)-1], tc.want) {
			t.Errorf("%s: %v, want %q", tc.cmd, got, tc.want)
		}
	}
	c.Send("setoption name UCI_Variant value chess")
	c.Send("setoption name UCI_Variant value capablanca")
	c.Send("d")
	if got := c.Until("Fen:", 5*time.Second); !strings.Contains(got[len(got)-1], "rnabqkbcnr") {
		t.Errorf("back to capablanca: %v", got)
	}
}
