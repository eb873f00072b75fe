package values

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
	"tamerlane/selfplay"
	"tamerlane/values/imbalance"
)

// VariantSamples are the regression samples of one variant.
type VariantSamples struct {
	// Classes are the variant's piece classes, Samples the quiet
	// positions and Games the games read, Resigned how many of them
	// resign adjudication ended (their results are our engine's scores'
	// verdict, not play's).
	Classes  *Classes
	Samples  []Sample
	Games    int
	Resigned int
}

// CollectRegression reads the self-play streams of self-play run
// directories and returns the quiet samples per variant: streams of kind
// "selfplay", and matches whose two sides are the same program (an
// outside engine playing itself, possibly at different node limits:
// selfplay.PlayerSpec.SameProgram). Imbalance streams and other matches are
// not used: their material is imposed or their players differ.
//
// The games are those selfplay.Games gives: a finished run's outputs, a
// run still in progress the games finished so far.
func CollectRegression(dirs []string, opt SampleOptions) (map[string]*VariantSamples, error) {
	out := map[string]*VariantSamples{}
	for _, dir := range dirs {
		for g, err := range selfplay.Games(dir) {
			if err != nil {
				return nil, err
			}
			if !selfPlay(g.Kind, g.SameProgram) {
				continue
			}
			vs := out[g.Variant.Name]
			if vs == nil {
				vs = &VariantSamples{Classes: NewClasses(g.Variant, opt.Pairs)}
				out[g.Variant.Name] = vs
			}
			r, ok := selfplay.WhiteScore(g.Result)
			if !ok {
				continue
			}
			start, moves, err := g.Replay()
			if err != nil {
				return nil, err
			}
			vs.Samples = append(vs.Samples, GameSamples(vs.Classes, start, moves, r, vs.Games, opt)...)
			vs.Games++
			if g.Termination == selfplay.TermAdjudicatedLoss {
				vs.Resigned++
			}
		}
	}
	return out, nil
}

// selfPlay reports whether a stream of the kind is self-play of one
// program: the regression's games.
func selfPlay(kind string, sameProgram bool) bool {
	return kind == "selfplay" || kind == "match" && sameProgram
}

// CollectImbalances reads the imbalance streams of self-play run
// directories and sums the results of streams with the same variant,
// name and removes (the rounds of a planned match). It also returns, per
// variant, the openings file its matches started from ("": the array): a
// variant's streams must all start from the array or all from one file
// (imbalanceSources.add).
func CollectImbalances(dirs []string) (map[string][]*ImbalanceMatch, map[string]string, error) {
	out := map[string][]*ImbalanceMatch{}
	match := func(variant, name string, first, second []string) *ImbalanceMatch {
		for _, x := range out[variant] {
			if x.Name == name && fmt.Sprint(x.FirstRemoves) == fmt.Sprint(first) && fmt.Sprint(x.SecondRemoves) == fmt.Sprint(second) {
				return x
			}
		}
		m := &ImbalanceMatch{Name: name, FirstRemoves: first, SecondRemoves: second}
		out[variant] = append(out[variant], m)
		return m
	}
	sources := imbalanceSources{byVariant: map[string]map[string]imbalanceSource{}, ids: map[string]string{}}
	for _, dir := range dirs {
		if err := sources.add(dir); err != nil {
			return nil, nil, err
		}
		if selfplay.InProgress(dir) {
			// Games gives a pair's two games one after the other, the
			// first side White in the first: its points (in halves) wait
			// for the second's, to count the pair in the pentanomial.
			firstPoints := 0
			for g, err := range selfplay.Games(dir) {
				if err != nil {
					return nil, nil, err
				}
				if g.Kind != "imbalance" {
					continue
				}
				w, ok := g.FirstPlayer()
				if !ok {
					continue
				}
				add := ImbalanceMatch{Wins: w.Wins, Draws: w.Draws, Losses: w.Losses, Pentanomial: make([]int, 5)}
				if g.Termination == selfplay.TermAdjudicatedLoss {
					add.Resigned = 1
				}
				points := 2*w.Wins + w.Draws
				if g.FirstWhite {
					add.Pairs = 1
					firstPoints = points
				} else {
					add.Pentanomial[firstPoints+points]++
				}
				match(g.Variant.Name, g.Stream, g.FirstRemoves, g.SecondRemoves).Add(add)
			}
			continue
		}
		sum, err := selfplay.ReadSummary(filepath.Join(dir, "summary.json"))
		if err != nil {
			return nil, nil, err
		}
		for _, s := range sum.Streams {
			if s.Kind == "imbalance" {
				match(s.Variant, s.Name, s.FirstRemoves, s.SecondRemoves).Add(streamMatch(&s))
			}
		}
	}
	from := map[string]string{}
	for v, ids := range sources.byVariant {
		for _, src := range ids { // one source per variant (imbalanceSources.add)
			from[v] = src.path
		}
	}
	return out, from, nil
}

// imbalanceSources are, per variant, the start positions its imbalance
// streams took their material off, by identity (sourceID), each with the
// path in the run's plan ("" the array) of the first run directory that
// used them, and that directory; ids keeps each path's identity, so that
// a file is read once however many rounds name it.
type imbalanceSources struct {
	byVariant map[string]map[string]imbalanceSource
	ids       map[string]string
}

// imbalanceSource is where a variant's imbalance matches started.
type imbalanceSource struct{ path, dir string }

// sourceID identifies the positions of an openings file by its contents,
// so that two copies of one file are one source (a run that named the
// repository's file, another a copy beside its config); a file no longer
// on this machine by its path; the array by "".
func sourceID(path string) string {
	if path == "" {
		return ""
	}
	if b, err := fsx.ReadFile(path, fsx.MaxListBytes); err == nil {
		sum := sha256.Sum256(b)
		return "sha256:" + hex.EncodeToString(sum[:])
	}
	return "path:" + path
}

// add records the sources of run dir's imbalance streams; a variant's
// streams from different sources are an error: a piece taken off the
// array and off positions from the middle of games are worth different
// amounts (docs/values.md, "When the material comes off"), and a fit of
// both together would measure neither.
func (src *imbalanceSources) add(dir string) error {
	plan, err := selfplay.ReadPlan(dir)
	if err != nil {
		return err
	}
	for _, im := range plan.Streams {
		if im.Kind != "imbalance" {
			continue
		}
		seen := src.byVariant[im.Variant]
		if seen == nil {
			seen = map[string]imbalanceSource{}
			src.byVariant[im.Variant] = seen
		}
		file := im.Openings.File
		id, ok := src.ids[file]
		if !ok {
			id = sourceID(file)
			src.ids[file] = id
		}
		if _, ok := seen[id]; !ok {
			seen[id] = imbalanceSource{path: file, dir: dir}
		}
		if len(seen) > 1 {
			var from []string
			for _, id := range slices.Sorted(maps.Keys(seen)) {
				s := seen[id]
				what := "the array"
				if s.path != "" {
					what = "the positions of " + s.path
				}
				from = append(from, fmt.Sprintf("%s (%s)", what, s.dir))
			}
			return fmt.Errorf("%s imbalance matches take their material off %s: they measure different things; read each set of runs on its own",
				im.Variant, strings.Join(from, " and off "))
		}
	}
	return nil
}

// fittableMatches returns the matches of variant name the imbalance fit
// can count, with a note for each it leaves out: one whose side gives up
// two or more pieces of a colour-bound type (two bishops). The fit's value
// of such a piece is one taken from a side that had both colours, so it
// carries the pair with it (README, "Piece values"); two of them are
// worth two pieces and one pair, not two pairs. The planner never plays
// such a match; a self-play stream may.
func fittableMatches(name string, ms []*ImbalanceMatch) ([]*ImbalanceMatch, []string) {
	v, err := engine.VariantWithRules(name, "")
	if err != nil {
		return ms, nil
	}
	var kept []*ImbalanceMatch
	var notes []string
	for _, m := range ms {
		if t := twoColourBound(v, m.FirstRemoves, m.SecondRemoves); t != "" {
			notes = append(notes, fmt.Sprintf("imbalance: match %q left out: a side gives up two %s, a colour-bound piece whose imbalance value includes its pair, so the fit would count the pair twice", m.Name, t))
			continue
		}
		kept = append(kept, m)
	}
	return kept, notes
}

// twoColourBound returns the token of a colour-bound piece type that one
// of the sides removes at least twice ("" if none).
func twoColourBound(v *engine.Variant, sides ...[]string) string {
	for _, side := range sides {
		n := map[string]int{}
		for _, tok := range side {
			p := imbalance.PieceOf(tok)
			if t, ok := v.PieceByToken(p); ok && v.Def(t).ColourBound() {
				if n[p]++; n[p] == 2 {
					return p
				}
			}
		}
	}
	return ""
}

// streamMatch is a finished imbalance stream's result as a match: its
// pairs, the first side's wins, draws and losses, and the games resign
// adjudication ended.
func streamMatch(s *selfplay.StreamSummary) ImbalanceMatch {
	w := s.FirstPlayer
	return ImbalanceMatch{Name: s.Name, Pairs: s.Pairs, Wins: w.Wins, Draws: w.Draws, Losses: w.Losses,
		Resigned: s.Terminations[selfplay.TermAdjudicatedLoss], Pentanomial: slices.Clone(s.Pentanomial[:])}
}

// RunDirs returns the self-play run directories under root: root itself
// if it is one, else every directory below it holding a run.json (a
// finished run, with summary.json, or one in progress), in lexical order,
// links to directories followed (fsx.WalkLinked: a pool of measurements
// can be a directory of links to them).
func RunDirs(root string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(root, selfplay.RunInfoName)); err == nil {
		return []string{root}, nil
	}
	var dirs []string
	err := fsx.WalkLinked(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == selfplay.RunInfoName {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		return nil, errors.New(root + ": no self-play run directory (run.json) found")
	}
	sort.Strings(dirs)
	return dirs, nil
}
