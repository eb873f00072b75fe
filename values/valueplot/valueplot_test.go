package valueplot

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	_ "image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg/draw"
)

func testSeries() (pieces []string, est, pub []Series) {
	pieces = []string{"P", "N", "B", "R", "Q"}
	est = []Series{
		{Label: "texel", Points: []Point{
			{"P", 1, 1, 1}, {"N", 3.1, 2.9, 3.3}, {"B", 3.3, 3.1, 3.5}, {"R", 4.9, 4.6, 5.2}, {"Q", 9.4, 9.0, 9.8},
		}},
		{Label: "imbalance", Points: []Point{
			{"N", 3.2, 3.0, 3.4}, {"Q", 9.9, 9.2, 10.6}, {"R", math.NaN(), math.NaN(), math.NaN()},
		}},
	}
	pub = []Series{{Label: "Kaufman 1999", Points: []Point{
		{"P", 1, math.NaN(), math.NaN()}, {"N", 3.25, math.NaN(), math.NaN()}, {"B", 3.25, math.NaN(), math.NaN()},
		{"R", 5, math.NaN(), math.NaN()}, {"Q", 9.75, math.NaN(), math.NaN()},
	}}}
	return
}

func TestWriteFiles(t *testing.T) {
	dir := t.TempDir()
	pieces, est, pub := testSeries()
	pngPath, svgPath, err := WriteFiles(filepath.Join(dir, "values"), pieces, est, pub, Options{Title: "chess", YLabel: "pawns (P = 1)"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, format, err := image.Decode(f)
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	if format != "png" {
		t.Errorf("format %q", format)
	}
	b := img.Bounds()
	if b.Dx() < 300 || b.Dy() < 200 {
		t.Errorf("image is only %v", b)
	}
	// Something was drawn: many pixels are neither white nor transparent.
	inked := 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, a := img.At(x, y).RGBA()
			if a > 0 && (r < 0xf000 || g < 0xf000 || bl < 0xf000) {
				inked++
			}
		}
	}
	if inked < 500 {
		t.Errorf("only %d inked pixels", inked)
	}

	data, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("no element in SVG: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local != "svg" {
				t.Errorf("SVG root element is <%s>", se.Name.Local)
			}
			break
		}
	}
	for _, label := range []string{"texel", "imbalance", "Kaufman 1999", "pawns (P = 1)"} {
		if !bytes.Contains(data, []byte(label)) {
			t.Errorf("SVG lacks text %q", label)
		}
	}
	// Only the two outputs remain: no temporary files.
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 2 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v", names)
	}
}

func TestSaveReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.svg")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	pieces, est, pub := testSeries()
	p, err := New(pieces, est, pub, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Save(p, 400, 300, path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "<svg") {
		t.Error("file not replaced")
	}
	if err := Save(p, 400, 300, filepath.Join(dir, "p.bogus")); err == nil {
		t.Error("unknown format accepted")
	}
	if err := Save(p, 400, 300, filepath.Join(dir, "missing", "p.png")); err == nil {
		t.Error("missing directory accepted")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files left, want 1", len(ents))
	}
}

func TestNewRejectsUnknownPiece(t *testing.T) {
	_, err := New([]string{"P"}, []Series{{Label: "x", Points: []Point{{"Q", 9, 8, 10}}}}, nil, Options{})
	if err == nil || !strings.Contains(err.Error(), `"Q"`) {
		t.Errorf("error %v", err)
	}
	if _, err := New(nil, nil, nil, Options{}); err == nil {
		t.Error("no pieces accepted")
	}
}

// TestGlyphs checks the markers: estimates are filled circles in their
// own colours, published series hollow shapes that do not repeat until
// the shapes run out, and then in black.
func TestGlyphs(t *testing.T) {
	const nEst = 2
	for k := range nEst {
		if g := glyph(k, nEst); g.Shape != (draw.CircleGlyph{}) || g.Color != plotutil.Color(k) {
			t.Errorf("estimate %d: %+v", k, g)
		}
	}
	seen := map[draw.GlyphDrawer]bool{}
	for si := range 5 {
		g := glyph(nEst+si, nEst)
		if seen[g.Shape] || g.Shape == (draw.CircleGlyph{}) || g.Color == color.Black {
			t.Errorf("published %d: %+v repeats a shape or is black", si, g)
		}
		seen[g.Shape] = true
	}
	if g := glyph(nEst+5, nEst); g.Color != color.Black {
		t.Errorf("sixth published series: colour %v, want black", g.Color)
	}
}
