package tune

import (
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"sort"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/internal/fsx"
	"tamerlane/selfplay"
	"tamerlane/tune/texel"
	"tamerlane/variantfile"
)

// LoadOptions filter and split the positions of a data set.
type LoadOptions struct {
	// Variants restricts loading to these variants (empty: all).
	Variants []string
	// KeepInCheck keeps positions whose side to move is in check (they are
	// dropped by default: their evaluation says little).
	KeepInCheck bool
	// KeepMates keeps positions whose search found a mate.
	KeepMates bool
	// MinPly drops positions fewer than MinPly plies into the game.
	MinPly int
	// Quiet, if set, returns the quiescence line of a position; the
	// position at its end is used instead (see QuietFunc).
	Quiet QuietFunc `json:"-"`
	// KeepDuplicates keeps repeated positions (by variant and hash); by
	// default only the first occurrence is used.
	KeepDuplicates bool
	// ValidFraction of the games goes to the validation set (0: none).
	ValidFraction float64
	// Seed drives the train/validation split.
	Seed uint64
	// VariantFiles are variant files (docs/variant-files.md) whose
	// variants the records may name, besides the built-in variants and
	// those whose files the run directories recorded.
	VariantFiles []string `json:",omitempty"`
}

// QuietFunc returns the moves of a position's quiescence line (captures
// and promotions the search would play); Load plays them out so that the
// fitted evaluation sees quiet positions.
type QuietFunc func(pos *engine.Position) []engine.Move

// Data is the loaded training data of one variant.
type Data struct {
	Variant string
	// Train and Valid hold the feature vectors (Valid may be empty).
	Train, Valid *texel.Dataset
	// Dim is the number of weights of the variant's registry.
	Dim int
	// Read counts the records read; Dropped counts them by reason.
	Read    int
	Dropped map[string]int
	// Sources lists the data-set files read.
	Sources []string

	v    *engine.Variant // the variant at its default rule options
	file string          // the variant file v was read from ("": built in)
}

// datasetSource is one data set: a positions.jsonl file, or the journals
// of a self-play run still in progress (or stopped), read as the records
// its positions.jsonl will hold for the games finished so far.
type datasetSource struct {
	path    string
	interim bool
	run     string // the self-play run directory it belongs to, whose recorded variant files it may name
}

// variant returns the variant a record of the source names and the
// variant file it comes from ("": a built-in variant): one of known (by
// name, the LoadOptions' variant files), one whose file the source's run
// directory recorded, or a built-in one.
func (s datasetSource) variant(name, rules string, known map[string]string) (*engine.Variant, string, error) {
	if file, ok := known[name]; ok {
		v, err := variantfile.Resolve(name, rules, file)
		return v, file, err
	}
	return variantfile.RecordedVariant(s.run, name, rules)
}

// knownVariants reads variant files and returns their paths by variant
// name.
func knownVariants(files []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range files {
		v, err := variantfile.Load(f)
		if err != nil {
			return nil, err
		}
		out[v.Name] = f
	}
	return out, nil
}

// name names the source in errors and in Data.Sources.
func (s datasetSource) name() string {
	if s.interim {
		return s.path + " (in progress)"
	}
	return s.path
}

// records iterates over the source's records.
func (s datasetSource) records() iter.Seq2[selfplay.Record, error] {
	if !s.interim {
		return selfplay.Records(s.path)
	}
	return selfplay.InterimRecords(s.path)
}

// datasetSources returns the data sets of self-play run directories: the
// position files of the streams named in each directory's summary.json;
// for a run still playing (or stopped: run.json without summary.json) its
// journals; or every */positions.jsonl of a directory that is neither.
// A path that is not a directory is a positions file; a piece-value
// measurement (`tamerlane measure`) stands for its regression self-play
// runs, <dir>/<variant>/selfplay.
func datasetSources(dirs []string) ([]datasetSource, error) {
	var out []datasetSource
	for i := 0; i < len(dirs); i++ {
		dir := dirs[i]
		st, err := os.Stat(dir)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			// <run>/<stream>/positions.jsonl belongs to <run>
			out = append(out, datasetSource{path: dir, run: filepath.Dir(filepath.Dir(dir))})
			continue
		}
		if runs, err := measurementRuns(dir); err != nil {
			return nil, err
		} else if runs != nil {
			dirs = append(dirs[:i+1:i+1], append(runs, dirs[i+1:]...)...)
			continue
		}
		if selfplay.InProgress(dir) {
			out = append(out, datasetSource{path: dir, interim: true, run: dir})
			continue
		}
		sum, err := selfplay.ReadSummary(filepath.Join(dir, "summary.json"))
		switch {
		case err == nil:
			for _, s := range sum.Streams {
				f := filepath.Join(dir, s.Dir, "positions.jsonl")
				if _, err := os.Stat(f); err == nil {
					out = append(out, datasetSource{path: f, run: dir})
				}
			}
		case errors.Is(err, os.ErrNotExist):
			found, _ := filepath.Glob(filepath.Join(dir, "*", "positions.jsonl"))
			sort.Strings(found)
			for _, f := range found {
				out = append(out, datasetSource{path: f, run: dir})
			}
		default:
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no positions.jsonl found in %v", dirs)
	}
	return out, nil
}

// measurementRuns returns the regression self-play runs of dir
// (<variant>/selfplay, sorted) when dir is a piece-value measurement, and
// nil when it is not.
func measurementRuns(dir string) ([]string, error) {
	kind, err := fsx.DirKind(dir)
	if err != nil || kind != fsx.KindMeasure {
		return nil, err
	}
	runs, _ := filepath.Glob(filepath.Join(dir, "*", "selfplay"))
	if len(runs) == 0 {
		return nil, fmt.Errorf("measurement %s has no self-play run yet (<variant>/selfplay)", dir)
	}
	sort.Strings(runs)
	return runs, nil
}

// Load reads the data sets of the given run directories (or positions.jsonl
// files), filters the positions, computes their feature vectors with the
// engine's evaluation and splits them by game. A malformed record is an
// error naming the file and line.
func Load(dirs []string, opt LoadOptions) (map[string]*Data, error) {
	sources, err := datasetSources(dirs)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, v := range opt.Variants {
		want[v] = true
	}
	type builder struct {
		data    *Data
		all     *texel.Dataset
		ev      *eval.Evaluator
		seen    map[uint64]bool
		buf     []eval.Feature
		feats   []texel.Feature
		sources map[string]bool
	}
	builders := map[string]*builder{}
	variants := map[string]*engine.Variant{}
	known, err := knownVariants(opt.VariantFiles)
	if err != nil {
		return nil, err
	}
	for fi, src := range sources {
		file := src.name()
		for rec, err := range src.records() {
			if err != nil {
				return nil, err
			}
			if len(want) > 0 && !want[rec.Variant] {
				continue
			}
			b := builders[rec.Variant]
			key := src.run + "|" + rec.Variant + "|" + rec.Rules
			v, ok := variants[key]
			vfile := ""
			if !ok {
				var err error
				if v, vfile, err = src.variant(rec.Variant, rec.Rules, known); err != nil {
					return nil, fmt.Errorf("%s: game %d: %w", file, rec.Game, err)
				}
				variants[key] = v
			}
			if b == nil {
				w, err := eval.Default(v)
				if err != nil {
					return nil, err
				}
				b = &builder{
					data: &Data{Variant: rec.Variant, Dim: w.Registry().Len(), Dropped: map[string]int{}, v: v, file: vfile},
					all:  texel.NewDataset(0, 0), ev: eval.New(w), seen: map[uint64]bool{}, sources: map[string]bool{},
				}
				builders[rec.Variant] = b
			}
			d := b.data
			d.Read++
			if !b.sources[file] {
				b.sources[file] = true
				d.Sources = append(d.Sources, file)
			}
			pos, err := engine.ParseFEN(v, rec.FEN)
			if err != nil {
				return nil, fmt.Errorf("%s: game %d ply %d: %w", file, rec.Game, rec.Ply, err)
			}
			switch {
			case rec.Ply < opt.MinPly:
				d.Dropped["opening ply"]++
				continue
			case rec.Mate != 0 && !opt.KeepMates:
				d.Dropped["mate score"]++
				continue
			case !opt.KeepInCheck && pos.InCheck():
				d.Dropped["in check"]++
				continue
			}
			if opt.Quiet != nil {
				for _, m := range opt.Quiet(pos) {
					pos.Make(m)
				}
			}
			if r, _ := pos.Outcome(); r != engine.Ongoing {
				d.Dropped["game over"]++
				continue
			}
			if !opt.KeepDuplicates {
				if b.seen[pos.Hash()] {
					d.Dropped["duplicate"]++
					continue
				}
				b.seen[pos.Hash()] = true
			}
			b.buf = b.ev.Features(pos, b.buf[:0])
			b.feats = b.feats[:0]
			for _, f := range b.buf {
				b.feats = append(b.feats, texel.Feature{Index: f.Index, Value: f.Value})
			}
			game := int64(fi)<<32 | rec.Game
			if err := b.all.Add(b.feats, float32(rec.Result), float32(rec.Score), game); err != nil {
				return nil, fmt.Errorf("%s: game %d: %w", file, rec.Game, err)
			}
		}
	}
	out := map[string]*Data{}
	for name, b := range builders {
		d := b.data
		if b.all.Len() == 0 {
			return nil, fmt.Errorf("variant %s: no positions left after filtering (%v)", name, d.Dropped)
		}
		if opt.ValidFraction > 0 {
			tr, va, err := b.all.Split(opt.ValidFraction, opt.Seed)
			if err != nil {
				return nil, fmt.Errorf("variant %s: %w", name, err)
			}
			d.Train, d.Valid = tr, va
		} else {
			d.Train = b.all
		}
		out[name] = d
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no positions of variants %v in %v", opt.Variants, dirs)
	}
	return out, nil
}
