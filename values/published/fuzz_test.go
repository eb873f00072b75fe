package published

import (
	"testing"

	"tamerlane/internal/fuzztest"
)

// FuzzParse: any bytes either fail to parse with an error or give a
// table, never a panic (the shipped catalogue is the seed).
func FuzzParse(f *testing.F) {
	fuzztest.Parser(f, func(b []byte) (*Table, error) { return Parse("fuzz.yaml", b) },
		nil, "../../data/published/*.yaml")
}
