package tune

import (
	"testing"

	"tamerlane/internal/fuzztest"
)

// FuzzParseConfig: any bytes either fail to parse with an error or give a
// tuning config, never a panic (the tuning configs of the repository are
// the seeds).
func FuzzParseConfig(f *testing.F) {
	fuzztest.Parser(f, func(b []byte) (*Config, error) { return ParseConfig(b, "fuzz.yaml") },
		[]string{"regularise: {rule: one-se}\n"}, "../configs/experiments/tune/*.yaml")
}
