package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tamerlane/internal/lineio/linetest"
)

// binary builds the tamerlane command into the test's temporary directory.
func binary(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tamerlane")
	if out, err := exec.Command("go", "build", "-o", path, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return path
}

// proc is the binary running one protocol command on pipes.
type proc struct {
	*linetest.Session
	t   *testing.T
	cmd *exec.Cmd
}

func startProc(t *testing.T, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &proc{Session: linetest.Attach(t, in, out), t: t, cmd: cmd}
}

func (p *proc) until(prefix string) []string { return p.Until(prefix, 30*time.Second) }

func (p *proc) exits() {
	p.t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			p.t.Errorf("exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		p.t.Error("no exit after quit")
	}
}

// TestUCIBinary drives "tamerlane uci" through pipes: the handshake, a
// variant with rule options, bad commands answered with info string
// errors, a search during which isready is answered, stop, and quit.
func TestUCIBinary(t *testing.T) {
	p := startProc(t, "uci")
	p.Send("uci")
	p.until("uciok")
	p.Send("setoption name UCI_Variant value tamerlane", "setoption name Rules value giraffe=2", "isready")
	p.until("readyok")
	for _, bad := range []string{"bogus", "position fen nonsense", "position startpos moves a1a9"} {
		p.Send(bad)
		if l := p.until("info string"); !strings.HasPrefix(l[len(l)-1], "info string error:") {
			t.Errorf("%q: %q", bad, l)
		}
	}
	p.Send("position startpos moves e3e4", "go infinite", "isready")
	p.until("readyok")
	p.Send("stop")
	best := p.until("bestmove")
	if strings.HasSuffix(best[len(best)-1], "(none)") {
		t.Errorf("no move: %q", best)
	}
	p.Send("go depth 2", "quit")
	p.until("bestmove")
	p.exits()
}

// TestXBoardBinary drives "tamerlane xboard": features, a Tamerlane
// setup, setboard, usermove and the engine's reply, a bad command, quit.
func TestXBoardBinary(t *testing.T) {
	p := startProc(t, "xboard")
	p.Send("xboard", "protover 2")
	p.until("feature done=1")
	p.Send("new", "variant tamerlane2")
	if l := p.until("setup ("); !strings.Contains(l[len(l)-1], "11x11+0_fairy") {
		t.Errorf("setup: %q", l)
	}
	p.Send("new", "sd 2", "setboard 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "usermove a1b1")
	p.until("move ")
	p.Send("frobnicate")
	p.until("Error (unknown command): frobnicate")
	p.Send("force", "setboard 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "go")
	lines := p.until("1-0")
	if !strings.Contains(strings.Join(lines, "\n"), "move a1a8") {
		t.Errorf("mate: %q", lines)
	}
	p.Send("quit")
	p.exits()
}

// TestPositionCommand checks "tamerlane position": legal moves in every
// notation, check, and the outcome with its reason (docs/rules.md 5.1, 5.2).
func TestPositionCommand(t *testing.T) {
	code, out, errs := runCLI(t, "position", "--variant", "chess", "--moves", "f2f3 e5 g4 Qh4", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var p positionJSON
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if p.Result != "0-1" || p.Reason != "checkmate" || !p.InCheck || len(p.Moves) != 0 || p.Side != "white" {
		t.Errorf("fool's mate: %+v", p)
	}
	code, out, errs = runCLI(t, "position", "--variant", "shatranj", "--fen", "k7/4P3/8/8/8/8/3p4/K7 w - - 0 1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	p = positionJSON{}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range p.Moves {
		if m.Coord == "e7e8" {
			found = m.UCI == "e7e8q" && m.SAN == "e8=Q"
		}
	}
	if !found || p.Result != "*" || len(p.Moves) != 4 {
		t.Errorf("shatranj promotion: %+v", p)
	}
	code, out, _ = runCLI(t, "position", "--variant", "tamerlane", "--rules", "giraffe=2")
	if code != 0 || !strings.Contains(out, "giraffe=2") || !strings.Contains(out, "legal moves (") {
		t.Errorf("text output:\n%s", out)
	}
	code, _, errs = runCLI(t, "position", "--variant", "chess", "--moves", "e2e4 e2e4")
	if code == 0 || !strings.Contains(errs, "move 2") {
		t.Errorf("illegal move: exit %d, %s", code, errs)
	}
	code, _, errs = runCLI(t, "position", "--variant", "chess", "--moves", "f3 e5 g4 Qh4 a3")
	if code == 0 || !strings.Contains(errs, "already over (0-1, checkmate)") {
		t.Errorf("move after mate: exit %d, %s", code, errs)
	}
}

// TestSearchJSONNamesRules checks that search --json names the variant
// and every rule option in force.
func TestSearchJSONNamesRules(t *testing.T) {
	code, out, errs := runCLI(t, "search", "--variant", "tamerlane", "--rules", "giraffe=2", "--depth", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var s searchJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	if s.Variant != "tamerlane" || !strings.Contains(s.Rules, "giraffe=2") || !strings.Contains(s.Rules, "swap=") || s.FEN == "" {
		t.Errorf("%+v", s)
	}
}
