package eval

import (
	"bytes"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tamerlane/data"
	"tamerlane/engine"
)

// TestWeightsBounded checks that a weight outside ±MaxWeight is refused at
// load with the file, line and weight, and by Set (material.P.mg: 1e12
// would overflow the fixed-point sum: a pawn up scored -30744), and that
// the bound itself still loads and evaluates sanely.
func TestWeightsBounded(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	good := handTableText(t, v)
	line := lineOf(t, good, "material.P.mg:")
	for _, bad := range []string{"1e12", "-10001", "10000.5"} {
		text := strings.Replace(good, "material.P.mg: 100", "material.P.mg: "+bad, 1)
		_, err := Load(v, strings.NewReader(text), "t.yaml")
		want := "t.yaml:" + strconv.Itoa(line) + ": weights.material.P.mg: value "
		if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "±10000") {
			t.Errorf("%s: err = %v, want prefix %q", bad, err, want)
		}
	}
	w := defaultWeights(t, v)
	if err := w.Set("material.P.mg", 1e12); err == nil {
		t.Error("Set accepted 1e12")
	}
	// At the bound, a pawn up is still a large positive score.
	for _, name := range []string{"material.P.mg", "material.P.eg"} {
		if err := w.Set(name, MaxWeight); err != nil {
			t.Fatal(err)
		}
	}
	pos, err := engine.ParseFEN(v, "4k3/8/8/8/8/8/P7/4K3 w - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if s := New(w).Evaluate(pos); s < MaxWeight/2 {
		t.Errorf("a pawn up at material.P = %d scores %d", MaxWeight, s)
	}
}

// handTableText returns v's hand table as Write writes it (the embedded
// default may be a tuned table with other values), the valid text that
// the Load tests break one way at a time.
func handTableText(t *testing.T, v *engine.Variant) string {
	t.Helper()
	var buf bytes.Buffer
	if err := handTable(t, v).Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// lineOf returns the line number of the first occurrence of sub in s.
func lineOf(t *testing.T, s, sub string) int {
	t.Helper()
	i := strings.Index(s, sub)
	if i < 0 {
		t.Fatalf("no %q in table", sub)
	}
	return strings.Count(s[:i], "\n") + 1
}

// TestDigestIsTheEvaluation: a table's digest changes with any non-zero
// weight and with nothing else: not the provenance, not the order of the
// weights, not a weight added at 0 (a new term, which changes no
// evaluation, must not make every run directory refuse to resume).
func TestDigestIsTheEvaluation(t *testing.T) {
	v := engine.MustVariant("chess", nil)
	w, err := Default(v)
	if err != nil {
		t.Fatal(err)
	}
	d := w.Digest()
	if got, err := DefaultDigest(v); err != nil || got != d || !strings.HasPrefix(d, "weights-sha256:") {
		t.Fatalf("DefaultDigest = %q, %v; the default table's Digest %q", got, err, d)
	}
	c := w.Clone()
	c.Provenance.Source, c.Provenance.Notes = "elsewhere", "other notes"
	if c.Digest() != d {
		t.Error("the provenance changed the digest")
	}
	i, _ := w.Registry().Index("material.N.mg")
	c.Values[i] += 1e-9
	if c.Digest() == d {
		t.Error("a changed weight kept the digest")
	}
	names, values := w.Registry().Names(), slices.Clone(w.Values)
	base := weightsDigest(names, values)
	if base != d {
		t.Fatalf("weightsDigest %q, Digest %q", base, d)
	}
	slices.Reverse(names)
	slices.Reverse(values)
	if weightsDigest(names, values) != d {
		t.Error("the order of the weights changed the digest")
	}
	if weightsDigest(append(names, "new.term.mg", "new.term.eg"), append(values, 0, 0)) != d {
		t.Error("a term added at weight 0 changed the digest")
	}
}

// TestEmbeddedTablesCanonical: every embedded table (tuned and hand) is
// byte for byte what Write makes of it, so the comments beside the weights
// are the registry's current descriptions (a term added by hand to the
// files must be added as Write would).
func TestEmbeddedTablesCanonical(t *testing.T) {
	for _, name := range engine.VariantNames() {
		v := engine.MustVariant(name, nil)
		for _, src := range []struct {
			fsys fs.FS
			dir  string
		}{{data.Weights, "weights"}, {data.Hand, "hand"}} {
			path := src.dir + "/" + name + ".yaml"
			file, err := fs.ReadFile(src.fsys, path)
			if err != nil {
				t.Fatal(err)
			}
			w, err := Load(v, bytes.NewReader(file), path)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := w.Write(&out); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), file) {
				t.Errorf("data/%s is not what Write makes of it", path)
			}
		}
	}
}
