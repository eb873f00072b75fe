package selfplay

import "path/filepath"

// Overrides are settings given on the command line that replace the
// configuration's; a nil field leaves the configuration's value.
type Overrides struct {
	// Nodes and Depth replace the search limits; giving only one clears
	// the other.
	Nodes *int64
	Depth *int
	// Seed and Workers replace the run's.
	Seed    *uint64
	Workers *int
	// Pairs and Rules replace every stream's.
	Pairs *int
	Rules *string
	// Table replaces the eval table of every self-play and imbalance
	// stream (not of matches, whose two tables are the point); a relative
	// path is taken relative to the working directory, not to the
	// configuration file.
	Table *string
}

// Apply applies the overrides to the configuration (before Validate).
func (c *Config) Apply(o Overrides) error {
	switch {
	case o.Nodes != nil && o.Depth != nil:
		c.Nodes, c.Depth = *o.Nodes, *o.Depth
	case o.Nodes != nil:
		c.Nodes, c.Depth = *o.Nodes, 0
	case o.Depth != nil:
		c.Nodes, c.Depth = 0, *o.Depth
	}
	if o.Seed != nil {
		c.Seed = *o.Seed
	}
	if o.Workers != nil {
		c.Workers = *o.Workers
	}
	table := ""
	if o.Table != nil && *o.Table != "" {
		abs, err := filepath.Abs(*o.Table)
		if err != nil {
			return err
		}
		table = abs
	}
	stream := func(pairs *int, rules, tbl *string) {
		if o.Pairs != nil {
			*pairs = *o.Pairs
		}
		if o.Rules != nil {
			*rules = *o.Rules
		}
		if o.Table != nil && tbl != nil {
			*tbl = table
		}
	}
	for i := range c.Variants {
		v := &c.Variants[i]
		stream(&v.Pairs, &v.Rules, &v.Table)
	}
	for i := range c.Imbalances {
		m := &c.Imbalances[i]
		stream(&m.Pairs, &m.Rules, &m.Table)
	}
	for i := range c.Matches {
		m := &c.Matches[i]
		stream(&m.Pairs, &m.Rules, nil)
	}
	return nil
}
