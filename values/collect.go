package values

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"tamerlane/engine"
	"tamerlane/selfplay"
	"tamerlane/tune"
)

// VariantSamples are the regression samples of one variant.
type VariantSamples struct {
	// Classes are the variant's piece classes, Samples the quiet
	// positions and Games the games read.
	Classes *Classes
	Samples []Sample
	Games   int
}

// CollectRegression reads the self-play streams (kind "selfplay") of
// self-play run directories and returns the quiet samples per variant.
// Imbalance and match streams are not used: their material is imposed
// and their players differ.
func CollectRegression(dirs []string, opt SampleOptions) (map[string]*VariantSamples, error) {
	out := map[string]*VariantSamples{}
	for _, dir := range dirs {
		sum, err := selfplay.ReadSummary(filepath.Join(dir, "summary.json"))
		if err != nil {
			return nil, err
		}
		for _, s := range sum.Streams {
			if s.Kind != "selfplay" {
				continue
			}
			vs := out[s.Variant]
			if vs == nil {
				opts, err := engine.ParseOptions(s.Rules)
				if err != nil {
					return nil, fmt.Errorf("%s: stream %s: %v", dir, s.Name, err)
				}
				v, err := engine.NewVariant(s.Variant, opts)
				if err != nil {
					return nil, fmt.Errorf("%s: stream %s: %v", dir, s.Name, err)
				}
				vs = &VariantSamples{Classes: NewClasses(v)}
				out[s.Variant] = vs
			}
			path := filepath.Join(dir, s.Dir, "games.pgn")
			smp, n, err := PGNSamples(path, s.Variant, vs.Classes, vs.Games, opt)
			if err != nil {
				return nil, err
			}
			vs.Samples = append(vs.Samples, smp...)
			vs.Games += n
		}
	}
	return out, nil
}

// CollectImbalances reads the imbalance streams of self-play run
// directories and sums the results of streams with the same variant,
// name and removes (the rounds of a planned match).
func CollectImbalances(dirs []string) (map[string][]*tune.ImbalanceMatch, error) {
	out := map[string][]*tune.ImbalanceMatch{}
	for _, dir := range dirs {
		sum, err := selfplay.ReadSummary(filepath.Join(dir, "summary.json"))
		if err != nil {
			return nil, err
		}
		for _, s := range sum.Streams {
			if s.Kind != "imbalance" {
				continue
			}
			var m *tune.ImbalanceMatch
			for _, x := range out[s.Variant] {
				if x.Name == s.Name && fmt.Sprint(x.FirstRemoves) == fmt.Sprint(s.FirstRemoves) && fmt.Sprint(x.SecondRemoves) == fmt.Sprint(s.SecondRemoves) {
					m = x
				}
			}
			if m == nil {
				m = &tune.ImbalanceMatch{Name: s.Name, FirstRemoves: s.FirstRemoves, SecondRemoves: s.SecondRemoves}
				out[s.Variant] = append(out[s.Variant], m)
			}
			m.Add(tune.ImbalanceMatch{Pairs: s.Pairs, Wins: s.FirstPlayer.Wins, Draws: s.FirstPlayer.Draws, Losses: s.FirstPlayer.Losses})
		}
	}
	return out, nil
}

// RunDirs returns the self-play run directories under root: root itself
// if it is one, else every directory below it holding a summary.json, in
// lexical order.
func RunDirs(root string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(root, "summary.json")); err == nil {
		return []string{root}, nil
	}
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "summary.json" {
			if _, err := os.Stat(filepath.Join(filepath.Dir(path), "run.json")); err == nil {
				dirs = append(dirs, filepath.Dir(path))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		return nil, errors.New(root + ": no self-play run directory (summary.json) found")
	}
	sort.Strings(dirs)
	return dirs, nil
}
