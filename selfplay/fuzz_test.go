package selfplay

import (
	"testing"

	"tamerlane/internal/fuzztest"
)

// FuzzParseConfig: any bytes either fail to parse with an error or give a
// config, never a panic (the self-play configs of the repository are the
// seeds).
func FuzzParseConfig(f *testing.F) {
	fuzztest.Parser(f, func(b []byte) (*Config, error) { return ParseConfig(b, "fuzz.yaml") },
		[]string{"variants: [{variant: chess, pairs: 2}]\nnodes: 100\n"},
		"../configs/experiments/*.yaml", "../configs/experiments/outside-engine/*.yaml")
}
