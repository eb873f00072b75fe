package tune

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Config is the YAML configuration of "tamerlane tune" (all fields
// optional; the zero value gives the defaults).
type Config struct {
	// Variants restricts tuning to these variants (empty: all in the data).
	Variants []string `yaml:"variants"`
	// MinPly drops positions before this ply (default 0).
	MinPly int `yaml:"min_ply"`
	// KeepInCheck, KeepMates, KeepDuplicates turn the filters off.
	KeepInCheck    bool `yaml:"keep_in_check"`
	KeepMates      bool `yaml:"keep_mates"`
	KeepDuplicates bool `yaml:"keep_duplicates"`
	// Quiet plays out each position's quiescence line (default true).
	Quiet *bool `yaml:"quiet"`
	// Validation is the fraction of games held out (default 0.1).
	Validation *float64 `yaml:"validation"`
	// Seed drives the split and the bootstrap (default 1).
	Seed *uint64 `yaml:"seed"`
	// Lambda blends the search score into the target (default 0).
	Lambda float64 `yaml:"lambda"`
	// PriorSD is the standard deviation in centipawns of a Gaussian prior
	// around the starting table (default 0: no prior).
	PriorSD float64 `yaml:"prior_sd"`
	// MaxIterations bounds L-BFGS (default 500).
	MaxIterations int `yaml:"max_iterations"`
	// Bootstrap replicates (default 0: sandwich standard errors).
	Bootstrap int `yaml:"bootstrap"`
	// Free lists name prefixes of the weights to fit, e.g. [material.]
	// (default: all weights).
	Free []string `yaml:"free"`
	// Tables maps a variant to its starting eval table (default: embedded).
	Tables map[string]string `yaml:"tables"`
}

// ParseConfig decodes a strict YAML configuration; errors name the file
// and line.
func ParseConfig(data []byte, name string) (*Config, error) {
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return nil, yamlError(name, err)
	}
	if c.Validation != nil && (*c.Validation < 0 || *c.Validation >= 1) {
		return nil, fmt.Errorf("%s: validation: %v is not in [0, 1)", name, *c.Validation)
	}
	if c.Lambda < 0 || c.Lambda > 1 {
		return nil, fmt.Errorf("%s: lambda: %v is not in [0, 1]", name, c.Lambda)
	}
	if c.PriorSD < 0 {
		return nil, fmt.Errorf("%s: prior_sd: %v is negative", name, c.PriorSD)
	}
	if c.MaxIterations < 0 || c.Bootstrap < 0 || c.MinPly < 0 {
		return nil, fmt.Errorf("%s: max_iterations, bootstrap and min_ply must not be negative", name)
	}
	return &c, nil
}

// LoadConfig reads and parses a configuration file.
func LoadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseConfig(b, path)
}

// Options turns the configuration into tuning options; quiet is the
// quiescence function used when the configuration asks for quiet positions.
func (c *Config) Options(quiet QuietFunc) Options {
	o := Options{}
	o.Load = LoadOptions{Variants: c.Variants, MinPly: c.MinPly, KeepInCheck: c.KeepInCheck, KeepMates: c.KeepMates,
		KeepDuplicates: c.KeepDuplicates, ValidFraction: 0.1, Seed: 1}
	if c.Quiet == nil || *c.Quiet {
		o.Load.Quiet = quiet
	}
	if c.Validation != nil {
		o.Load.ValidFraction = *c.Validation
	}
	if c.Seed != nil {
		o.Load.Seed = *c.Seed
	}
	o.Fit = FitOptions{Lambda: c.Lambda, PriorSD: c.PriorSD, MaxIterations: c.MaxIterations, Bootstrap: c.Bootstrap, Seed: o.Load.Seed, Free: c.Free}
	return o
}

// yamlError rewrites a YAML decoding error as "file:line: message" lines.
func yamlError(name string, err error) error {
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msgs := make([]string, len(te.Errors))
		for i, e := range te.Errors {
			msgs[i] = name + ":" + strings.TrimPrefix(e, "line ")
		}
		return errors.New(strings.Join(msgs, "\n"))
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		return fmt.Errorf("%s:%s", name, rest)
	}
	return fmt.Errorf("%s: %s", name, msg)
}
