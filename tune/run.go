package tune

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/internal/fsx"
	"tamerlane/variantfile"
)

// ReportFormat identifies the tune.json format.
const ReportFormat = "tamerlane-tune/1"

// Options configure a tuning run.
type Options struct {
	Load LoadOptions `json:"load"`
	Fit  FitOptions  `json:"fit"`
	// Moves, when set, fits the weights to the moves of the games instead
	// of their results alone (FitMoves).
	Moves *MoveOptions `json:"moves,omitempty"`
	// Start returns the starting table of a variant (nil: the embedded
	// default tables).
	Start func(v *engine.Variant) (*eval.Weights, error) `json:"-"`
	// Name names the run in the exported tables' provenance (default: the
	// output directory's base name).
	Name string `json:"name,omitempty"`
	// Now stamps the tables (zero: time.Now).
	Now time.Time `json:"-"`
	// KeepGoing records a variant whose fit fails (an unusable fit, too
	// few positions) in Report.Unfitted and goes on with the others,
	// writing no table for it; without it the first failure ends the run.
	KeepGoing bool `json:"-"`
}

// Unfitted is a variant that KeepGoing left without a fit.
type Unfitted struct {
	Variant string `json:"variant"`
	// Error says why the fit failed.
	Error string `json:"error"`
}

// Report is tune.json: every variant's fit.
type Report struct {
	Format  string        `json:"format"`
	Kind    string        `json:"kind"`
	Created string        `json:"created"`
	Data    []string      `json:"data"`
	Options Options       `json:"options"`
	Fits    []*VariantFit `json:"fits"`
	// Unfitted are the variants whose fit failed (Options.KeepGoing).
	Unfitted []Unfitted `json:"unfitted,omitempty"`
}

// Fit returns the fit of a variant, or nil.
func (r *Report) Fit(variant string) *VariantFit {
	for _, f := range r.Fits {
		if f.Variant == variant {
			return f
		}
	}
	return nil
}

// FitError returns why a variant's fit failed ("": it did not, or the
// run did not try it).
func (r *Report) FitError(variant string) string {
	for _, u := range r.Unfitted {
		if u.Variant == variant {
			return u.Error
		}
	}
	return ""
}

// Run tunes every variant found in the data directories and writes
// out/tune.json and out/tables/<variant>.yaml. A directory that holds a
// run of another kind (self-play, pipeline) is refused. A variant whose
// fit fails ends the run, or with Options.KeepGoing is listed in
// Report.Unfitted without a table.
func Run(ctx context.Context, dirs []string, out string, opt Options) (*Report, error) {
	if err := fsx.CheckKind(out, fsx.KindTune); err != nil {
		return nil, err
	}
	// The options go into tune.json: one JSON cannot hold (NaN, Inf)
	// would fail only after the fits, with their tables written.
	if _, err := json.Marshal(opt); err != nil {
		return nil, fmt.Errorf("tune: options: %v", err)
	}
	var data map[string]*Data
	var moveData map[string]*MoveData
	var err error
	if opt.Moves != nil {
		moveData, err = LoadMoves(ctx, dirs, opt.Load, *opt.Moves)
	} else {
		data, err = Load(dirs, opt.Load)
	}
	if err != nil {
		return nil, err
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	if opt.Name == "" {
		abs, _ := filepath.Abs(out)
		opt.Name = filepath.Base(abs)
	}
	rep := &Report{Format: ReportFormat, Kind: fsx.KindTune, Created: opt.Now.UTC().Format(time.RFC3339), Data: dirs, Options: opt}
	names := make([]string, 0, len(data)+len(moveData))
	for n := range data {
		names = append(names, n)
	}
	for n := range moveData {
		names = append(names, n)
	}
	sort.Strings(names)
	if err := os.MkdirAll(filepath.Join(out, "tables"), 0o755); err != nil {
		return nil, err
	}
	if _, err := fsx.CleanTemps(out); err != nil {
		return nil, err
	}
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, vfile := runVariant(data[name], moveData[name])
		if vfile != "" {
			// The run directory keeps the variant file its tables are for.
			if _, err := variantfile.Record(out, vfile); err != nil {
				return nil, err
			}
		}
		start := eval.Default
		if opt.Start != nil {
			start = opt.Start
		}
		w, err := start(v)
		if err != nil {
			return nil, err
		}
		var f *VariantFit
		if opt.Moves != nil {
			f, err = FitMoves(moveData[name], w, opt.Fit, *opt.Moves)
		} else {
			f, err = Fit(data[name], w, opt.Fit)
		}
		if err != nil && opt.KeepGoing && ctx.Err() == nil {
			rep.Unfitted = append(rep.Unfitted, Unfitted{Variant: name, Error: strings.TrimPrefix(err.Error(), "tune "+name+": ")})
			os.Remove(filepath.Join(out, "tables", name+".yaml")) // a table of an earlier attempt
			continue
		}
		if err != nil {
			return nil, err
		}
		rep.Fits = append(rep.Fits, f)
		table, err := f.Table(opt.Name, opt.Now)
		if err != nil {
			return nil, err
		}
		if err := table.WriteFile(filepath.Join(out, "tables", name+".yaml")); err != nil {
			return nil, err
		}
	}
	if err := fsx.WriteJSON(filepath.Join(out, "tune.json"), rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// runVariant returns the variant of a variant's loaded data (d or md,
// whichever is not nil) and the variant file it was read from ("": built
// in).
func runVariant(d *Data, md *MoveData) (*engine.Variant, string) {
	if d != nil {
		return d.v, d.file
	}
	return md.v, md.file
}

// ReadReport reads dir/tune.json; a fit of a variant from a variant file
// reads the variant from the copy dir recorded.
func ReadReport(dir string) (*Report, error) {
	var r Report
	if err := fsx.ReadRun(dir, fsx.KindTune, ReportFormat, &r); err != nil {
		return nil, err
	}
	for _, f := range r.Fits {
		if p, ok := variantfile.RecordedFile(dir, f.Variant); ok {
			v, err := variantfile.Load(p)
			if err != nil {
				return nil, err
			}
			f.v = v
		}
	}
	return &r, nil
}

// Export writes the fitted eval table of a variant from a tuning run
// directory to path, in the schema the engine loads.
func Export(runDir, variant, path string) error {
	rep, err := ReadReport(runDir)
	if err != nil {
		return err
	}
	f := rep.Fit(variant)
	if f == nil {
		return fmt.Errorf("%s has no fit of variant %s", filepath.Join(runDir, "tune.json"), variant)
	}
	created, _ := time.Parse(time.RFC3339, rep.Created)
	name := rep.Options.Name
	if name == "" {
		name = filepath.Base(runDir)
	}
	w, err := f.Table(name, created)
	if err != nil {
		return err
	}
	return w.WriteFile(path)
}
