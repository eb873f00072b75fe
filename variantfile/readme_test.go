package variantfile

import (
	"os"
	"strings"
	"testing"

	"tamerlane/engine"
)

// TestReadmeExample: the variant file the README's quick tour shows
// reads, and has the perft count the README gives.
func TestReadmeExample(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "name: centaur-chess")
	if !ok {
		t.Fatal("the README has no centaur-chess example")
	}
	body, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("the example's code block does not end")
	}
	var lines []string
	for _, l := range strings.Split("name: centaur-chess"+body, "\n") {
		lines = append(lines, strings.TrimPrefix(l, "   "))
	}
	v, err := Read([]byte(strings.Join(lines, "\n")), "README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := engine.NewPosition(v).Perft(3); n != 9182 || !strings.Contains(string(b), "(9182 at depth 3)") {
		t.Errorf("perft(3) %d; the README says 9182", n)
	}
}
