package variantfile

import (
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/internal/fuzztest"
)

// tiny is a small valid variant file: the base of the bad files below.
const tiny = `name: tiny
board: {files: 5, ranks: 5}
pieces:
  - {name: Pawn, letter: P, betza: fmWfcF, pawn: true, promotion: {to: [Q]}}
  - {name: Queen, letter: Q, betza: Q}
  - {name: King, letter: K, betza: K, royal: true}
start: k4/5/2p2/2P2/K4 w - - 0 1
`

func TestTinyReads(t *testing.T) {
	v, err := Read([]byte(tiny), "tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if n := engine.NewPosition(v).Perft(2); n != 6 {
		t.Errorf("perft(2) %d, want 6 (the pawns blocked, White's King kept from b2, Black's free on three squares)", n)
	}
}

// TestBadFiles: each mistake gives one clear error naming the file, the
// line and the field, never a panic.
func TestBadFiles(t *testing.T) {
	for _, tc := range []struct {
		name, from, to string
		want           []string
	}{
		{"unknown atom", "betza: Q}", "betza: QX}", []string{"tiny.yaml:5: pieces[1].betza", "unknown atom 'X'"}},
		{"grasshopper", "betza: Q}", "betza: gQ}", []string{"tiny.yaml:5: pieces[1].betza", "grasshoppers"}},
		{"board too large", "files: 5, ranks: 5", "files: 12, ranks: 5", []string{"tiny.yaml:2: board", "12x5", "1 to 11 files"}},
		{"board too tall", "files: 5, ranks: 5", "files: 5, ranks: 40", []string{"tiny.yaml:2: board", "2 to 11 ranks"}},
		{"two royals", "start: k4/5/2p2/2P2/K4", "start: k4/5/2p2/2P2/KK3", []string{"tiny.yaml:7: start", "2 royal pieces", "allows one"}},
		{"no royal", "royal: true}", "royal: false}", []string{"tiny.yaml:3: pieces", "no royal piece"}},
		{"array too long", "start: k4/5/2p2/2P2/K4", "start: k4/5/2p2/2P2/K4/5", []string{"tiny.yaml:7: start", "want 5 ranks, got 6"}},
		{"array too wide", "start: k4/5/2p2/2P2/K4", "start: k4/5/2p2/2P2/K5", []string{"tiny.yaml:7: start", "runs past rank 1"}},
		{"promotion to nothing", "promotion: {to: [Q]}", "promotion: {to: [Q, X]}", []string{"tiny.yaml:4: pieces[0].promotion.to[1]", `"X": no piece has this letter`}},
		{"promotion zone too deep", "promotion: {to: [Q]}", "promotion: {to: [Q], zone: 5}", []string{"tiny.yaml:4: pieces[0].promotion.zone", "want 1 to 4"}},
		{"zone off the last rank", "promotion: {to: [Q]}", "promotion: {to: [Q], on: far-corners, only_captured: true}", []string{"tiny.yaml:4: pieces[0].promotion.on", "go with last-rank promotion"}},
		{"unknown field", "name: tiny", "name: tiny\ncolour: red", []string{"tiny.yaml:2: colour", `unknown field "colour"`}},
		{"wrong type", "files: 5,", "files: five,", []string{"tiny.yaml:2: board.files", "wrong type"}},
		{"bad letter", "letter: Q,", "letter: q,", []string{"pieces[1].letter", "capital letters"}},
		{"same letter", "letter: Q,", "letter: K,", []string{"pieces[2].letter", "also pieces[1]'s letter"}},
		{"bad name", "name: tiny", "name: Tiny Chess", []string{"tiny.yaml:1: name", "lowercase"}},
		{"built-in name", "name: tiny", "name: chess", []string{"tiny.yaml:1: name", "built-in variant"}},
		{"castling without right", "start:", "castling: [{right: K, king: a1-c1, rook: e1-b1}]\nstart:", []string{"castling[0].right", "not a letter of rights.list"}},
		{"square off the board", "start:", "rights: {kind: castling, list: [{char: K, clear: [f9]}]}\nstart:", []string{"rights.list[0].clear[0]", `"f9" is not a square`}},
		{"double step twice", "pawn: true,", "pawn: true, double_step: {rank: 2, first_move: true},", []string{"pieces[0].double_step", "either rank"}},
		{"promotes to a promoting piece", "promotion: {to: [Q]}", "promotion: {to: [P]}", []string{"pieces[0].promotion.to[0]", `"P" promotes itself`}},
		{"pawn of pawns without its rule", "promotion: {to: [Q]}", "promotion: {on: pawn-of-pawns, to: [Q]}", []string{"rules.pawn_of_pawns", "go together"}},
		{"pawn of pawns moving back", "betza: fmWfcF, pawn: true, promotion: {to: [Q]}", "betza: WfcF, pawn: true, promotion: {on: pawn-of-pawns, to: [Q]}", []string{"pieces[0].promotion.on", "every move goes forward"}},
		{"king attacked, other side to move", "start: k4/5/2p2/2P2/K4", "start: k4/5/2p2/2P2/Q3K", []string{"tiny.yaml:7: start", "black's only royal, its King on a5, stands attacked with white to move"}},
		{"bad stalemate", "start:", "rules: {stalemate: wins}\nstart:", []string{"rules.stalemate", "want draw or loses"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(tiny, tc.from) {
				t.Fatalf("%q is not in the base file", tc.from)
			}
			data := strings.Replace(tiny, tc.from, tc.to, 1)
			v, err := Read([]byte(data), "tiny.yaml")
			if err == nil {
				t.Fatalf("read %s without an error", v.Name)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestTwoPawnsOfPawns: the pawn-of-pawns count is one pawn's.
func TestTwoPawnsOfPawns(t *testing.T) {
	data := strings.NewReplacer("promotion: {to: [Q]}}", "promotion: {on: pawn-of-pawns, to: [Q]}}",
		"2P2/K4 w - - 0 1", "1PP2/K4 w - 00 0 1").Replace(tiny) + "rules: {pawn_of_pawns: {kings_start: [a2, a4]}}\n"
	_, err := Read([]byte(data), "tiny.yaml")
	if err == nil || !strings.Contains(err.Error(), "tiny.yaml:7: start: white has 2 pawns of pawns") {
		t.Errorf("got %v", err)
	}
	one := strings.Replace(data, "1PP2/K4", "2P2/K4", 1)
	if _, err := Read([]byte(one), "tiny.yaml"); err != nil {
		t.Errorf("one pawn of pawns: %v", err)
	}
}

// FuzzRead: any bytes give a variant or an error, never a panic; a
// variant read generates the moves of its start position, and its export reads
// back to the same perft counts.
func FuzzRead(f *testing.F) {
	_, seeds := fuzztest.Files("../configs/variants/*.yaml")
	for _, b := range seeds {
		f.Add(b)
	}
	f.Add([]byte(tiny))
	for _, name := range engine.VariantNames() {
		if b, err := Export(engine.MustVariant(name, nil)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := Read(b, "fuzz.yaml")
		if (v == nil) == (err == nil) {
			t.Fatalf("variant %v and error %v", v, err)
		}
		if err != nil {
			return
		}
		n := engine.NewPosition(v).Perft(1)
		out, err := Export(v)
		if err != nil {
			// a movement only Betza with three direction letters could
			// write (a single Knight's leap) is read but not written
			if strings.Contains(err.Error(), "cannot be written") {
				return
			}
			t.Fatalf("export: %v", err)
		}
		back, err := Read(out, "export.yaml")
		if err != nil {
			t.Fatalf("the export does not read back: %v\n%s", err, out)
		}
		if m := engine.NewPosition(back).Perft(1); m != n {
			t.Fatalf("perft(1) %d, of the export %d", n, m)
		}
	})
}
