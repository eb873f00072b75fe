package eval

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"tamerlane/engine"
	"tamerlane/internal/fuzztest"
)

// FuzzLoad: for each variant any bytes either fail to load with an error
// or give a table that evaluates the start position, never a panic (the
// shipped tables are the seeds).
func FuzzLoad(f *testing.F) {
	paths, data := fuzztest.Files("../../data/weights/*.yaml")
	for i, p := range paths {
		f.Add(strings.TrimSuffix(filepath.Base(p), ".yaml"), data[i])
	}
	f.Fuzz(func(t *testing.T, variant string, b []byte) {
		v, err := engine.NewVariant(variant, nil)
		if err != nil {
			return
		}
		w, err := Load(v, bytes.NewReader(b), "fuzz.yaml")
		if (w == nil) == (err == nil) {
			t.Fatalf("table %v and error %v", w, err)
		}
		if w != nil {
			New(w).Evaluate(engine.NewPosition(v))
		}
	})
}
