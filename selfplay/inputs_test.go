package selfplay

import (
	"strings"
	"testing"

	"tamerlane/engine"
)

// TestReadFENsHugeEmptyCount: an openings file (match --openings) with a
// FEN whose empty-square count overflows is refused naming the file and
// line, not played from a position with pieces stacked on one square.
func TestReadFENsHugeEmptyCount(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "openings.txt", "# one good, one bad\n"+engine.MustVariant("chess", nil).StartFEN+"\n"+
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB9223372036854775807Q9223372036854775807BNR w KQkq - 0 1\n")
	_, err := ReadFENs(engine.MustVariant("chess", nil), p)
	if err == nil || !strings.HasPrefix(err.Error(), p+":3: ") || !strings.Contains(err.Error(), "empty-square count") {
		t.Fatalf("err = %v, want %s:3: ... empty-square count ...", err, p)
	}
}
