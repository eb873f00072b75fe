package values

import (
	"testing"

	"tamerlane/internal/fuzztest"
)

// FuzzParseConfig: any bytes either fail to parse with an error or give a
// config, never a panic (the measurement configs of the repository are
// the seeds).
func FuzzParseConfig(f *testing.F) {
	fuzztest.Parser(f, func(b []byte) (*Config, error) { return ParseConfig(b, "fuzz.yaml") },
		[]string{tinyMeasure}, "../configs/measure/*.yaml", "../configs/experiments/measure/*.yaml")
}
