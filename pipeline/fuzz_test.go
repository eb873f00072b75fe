package pipeline

import (
	"testing"

	"tamerlane/internal/fuzztest"
)

// FuzzParse: any bytes either fail to parse with an error or give a
// pipeline config, never a panic (the pipeline configs of the repository
// are the seeds).
func FuzzParse(f *testing.F) {
	fuzztest.Parser(f, func(b []byte) (*Config, error) { return Parse(b, "fuzz.yaml") },
		nil, "../configs/*.yaml", "../configs/experiments/pipeline/*.yaml")
}
