package values

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
	"tamerlane/selfplay"
	"tamerlane/values/published"
	"tamerlane/variantfile"
)

// PGNRead counts the games of PGN files (MeasurePGN) and those left out,
// so that a document of outside games says what it is made of.
type PGNRead struct {
	// Games are the games read; Used those the regression's samples come
	// from (finished games of a variant this program plays whose moves
	// replay).
	Games int `json:"games"`
	Used  int `json:"used"`
	// Unfinished are games ending in "*"; OtherVariant games of a
	// variant this program does not play (by their Variant tag, and Rules
	// tag when it has one), counted by name; Unplayable games whose
	// position or moves do not replay, the first of them in
	// FirstUnplayable ("file:line: why").
	Unfinished      int            `json:"unfinished"`
	OtherVariant    map[string]int `json:"other_variant,omitempty"`
	Unplayable      int            `json:"unplayable"`
	FirstUnplayable string         `json:"first_unplayable,omitempty"`
}

// pgnVariant names the variant of a game from its Variant tag: none, or
// "Standard" as other programs write it, is chess.
func pgnVariant(tag string) string {
	if tag == "" || strings.EqualFold(tag, "standard") {
		return "chess"
	}
	return tag
}

// CollectPGN reads the games of PGN files of any source (a database of
// human games, an engine's matches) as the regression's samples per
// variant, as CollectRegression reads a run's self-play: a game's Variant
// and Rules tags name its variant, its FEN tag the start. A game that
// cannot be used (unfinished, of a variant this program does not play,
// or whose moves do not replay) is left out and counted in the returned
// PGNRead, so that one bad game in a database of thousands does not make
// it unusable; a malformed file, or one with no usable game, is an
// error naming the file (and line).
//
// Games name a built-in variant or one of known (variants read from
// variant files), which take no rule options.
func CollectPGN(paths []string, opt SampleOptions, known ...*engine.Variant) (map[string]*VariantSamples, *PGNRead, error) {
	out := map[string]*VariantSamples{}
	read := &PGNRead{}
	variants := map[string]*engine.Variant{}
	for _, v := range known {
		variants[v.Name+"\x00"] = v
	}
	for _, path := range paths {
		f, err := fsx.Open(path)
		if err != nil {
			return nil, nil, err
		}
		used := read.Used
		err = selfplay.ScanPGN(f, path, func(g *selfplay.PGNGame) error {
			read.Games++
			r, ok := selfplay.WhiteScore(g.Result)
			if !ok {
				read.Unfinished++
				return nil
			}
			name, rules := pgnVariant(g.Tag("Variant")), g.Tag("Rules")
			key := name + "\x00" + rules
			v, known := variants[key]
			if !known {
				v, _ = engine.VariantWithRules(name, rules) // nil: a variant this program does not play
				variants[key] = v
			}
			if v == nil {
				if read.OtherVariant == nil {
					read.OtherVariant = map[string]int{}
				}
				if rules != "" {
					name += " (" + rules + ")" // or rules this program does not know
				}
				read.OtherVariant[name]++
				return nil
			}
			start, moves, err := g.ReplayIn(v)
			if err != nil {
				if read.Unplayable++; read.FirstUnplayable == "" {
					read.FirstUnplayable = fmt.Sprintf("%s:%d: %v", path, g.Line, err)
				}
				return nil
			}
			vs := out[v.Name]
			if vs == nil {
				vs = &VariantSamples{Classes: NewClasses(v, opt.Pairs)}
				out[v.Name] = vs
			}
			vs.Samples = append(vs.Samples, GameSamples(vs.Classes, start, moves, r, vs.Games, opt)...)
			vs.Games++
			read.Used++
			return nil
		})
		f.Close()
		if err != nil {
			return nil, nil, err
		}
		if read.Used == used {
			return nil, nil, fmt.Errorf("%s: no game this program can use (%d read in all so far: %d unfinished, %d of other variants, %d that do not replay%s)",
				path, read.Games, read.Unfinished, countAll(read.OtherVariant), read.Unplayable, firstOf(read.FirstUnplayable))
		}
	}
	return out, read, nil
}

// countAll adds a map's counts.
func countAll(m map[string]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}

// firstOf formats the first unplayable game for an error ("" when none).
func firstOf(first string) string {
	if first == "" {
		return ""
	}
	return "; the first: " + first
}

// MeasurePGN computes the regression values of the games of PGN files
// (CollectPGN) beside the published figures of cat: the same document as
// Measure, without imbalance matches, for games this program did not
// play. Files named twice are refused: their games would count twice.
func MeasurePGN(paths []string, cat published.Catalog, opt Options) (*Document, error) {
	if err := distinctFiles(paths); err != nil {
		return nil, err
	}
	var known []*engine.Variant
	if opt.VariantFile != "" {
		v, err := variantfile.Load(opt.VariantFile)
		if err != nil {
			return nil, err
		}
		known = append(known, v)
	}
	regs, read, err := CollectPGN(paths, opt.Samples, known...)
	if err != nil {
		return nil, err
	}
	doc, err := document(regs, nil, nil, cat, opt)
	if err != nil {
		return nil, err
	}
	doc.PGNFiles, doc.PGN = paths, read
	return doc, nil
}

// distinctFiles refuses PGN files of which two hold the same games (the
// same contents, under two names or one).
func distinctFiles(paths []string) error {
	if len(paths) < 2 {
		return nil // nothing to compare: no need to read and hash the file
	}
	seen := map[string]string{}
	for _, p := range paths {
		id := sourceID(p)
		if prev, ok := seen[id]; ok {
			return fmt.Errorf("%s and %s hold the same games: read together they would count twice", prev, p)
		}
		seen[id] = p
	}
	return nil
}

// checkPGNIndependent refuses two measurements of which one reads PGN
// files and the two hold the same games: a game (its start and moves) of
// one side found in the other's files, or in the games files of its run
// directories, in at least 1% of the smaller side's games (a run's
// games.pgn read against the run, a copy, a database and an extract of
// it). Fewer shared games, as independent collections can have (a short
// draw played twice), are returned as a note.
func checkPGNIndependent(aFiles, aDirs, bFiles, bDirs []string) (string, error) {
	if len(aFiles) == 0 && len(bFiles) == 0 {
		return "", nil
	}
	a, err := pgnGameKeys(aFiles, aDirs)
	if err != nil {
		return "", err
	}
	b, err := pgnGameKeys(bFiles, bDirs)
	if err != nil {
		return "", err
	}
	shared := 0
	for k := range b {
		if _, ok := a[k]; ok {
			shared++
		}
	}
	smaller := min(len(a), len(b))
	switch {
	case shared == 0:
		return "", nil
	case 100*shared >= smaller:
		return "", fmt.Errorf("%d of the games of A (%d) and B (%d) are the same games: the two measurements are not independent; compare games that differ", shared, len(a), len(b))
	}
	return fmt.Sprintf("%d games are in both A and B (the same moves from the same start), under 1%% of either: kept", shared), nil
}

// gameKeys returns a key (a hash of the start and the moves) of every
// game of the PGN files and of the games files under the run directories.
func pgnGameKeys(files, dirs []string) (map[[sha256.Size]byte]struct{}, error) {
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(path string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && e.Name() == "games.pgn" {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	keys := map[[sha256.Size]byte]struct{}{}
	for _, path := range files {
		f, err := fsx.Open(path)
		if err != nil {
			return nil, err
		}
		err = selfplay.ScanPGN(f, path, func(g *selfplay.PGNGame) error {
			keys[sha256.Sum256([]byte(g.Tag("Variant")+"\x00"+g.Tag("FEN")+"\x00"+strings.Join(g.Moves, " ")))] = struct{}{}
			return nil
		})
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return keys, nil
}
