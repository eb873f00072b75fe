package pipeline

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"tamerlane/internal/fsx"
	"tamerlane/internal/stats"
	"tamerlane/selfplay"
	"tamerlane/tune"
	"tamerlane/values"
	"tamerlane/values/published"
)

// ReportFormat identifies report.json.
const ReportFormat = "tamerlane-pipeline-report/3"

// Report is report.json. It is rebuilt from the run directory after every
// step; every path in it is relative to the run directory. The only
// fields that differ between equal runs are the timing fields: Created,
// Updated and each generation's Timing.
type Report struct {
	Format     string `json:"format"`
	Name       string `json:"name"`
	ConfigFile string `json:"config_file"`
	ConfigHash string `json:"config_hash"`
	// Created and Updated are timing fields.
	Created string        `json:"created"`
	Updated string        `json:"updated"`
	Config  ConfigSummary `json:"config"`
	// Status says how far the run is ("finished" at the end).
	Status      string             `json:"status"`
	Finished    bool               `json:"finished"`
	Generations []GenerationReport `json:"generations"`
	// Elo holds per variant the cumulative Elo of the current table over
	// the generation-0 table after each generation (see EloPoint).
	Elo map[string][]EloPoint `json:"elo"`
	// EloVsGen0 holds per variant the measured Elo of the current table
	// against the generation-0 table after each generation: one match,
	// not a sum (see Gen0Point).
	EloVsGen0 map[string][]Gen0Point `json:"elo_vs_gen0"`
	// Current names each variant's current table and the generation that
	// made it (0: the initial table).
	Current map[string]CurrentTable `json:"current"`
	// Plots are the report's plots (PNG and SVG).
	Plots []string `json:"plots"`
	// Atlas holds per variant the atlas's values (data/measured) the
	// report sets beside the run's measured ones; a variant the atlas
	// lacks has none.
	Atlas map[string]*AtlasReport `json:"atlas,omitempty"`
}

// ConfigSummary is the part of the configuration the report shows.
type ConfigSummary struct {
	Generations      int               `json:"generations"`
	Accept           string            `json:"accept"`
	History          int               `json:"history"`
	Seed             uint64            `json:"seed"`
	Nodes            int64             `json:"nodes"`
	Depth            int               `json:"depth,omitempty"`
	PositionsPerGame int               `json:"positions_per_game"`
	Variants         []VariantPlan     `json:"variants"`
	Imbalances       []string          `json:"imbalances,omitempty"`
	Tables           map[string]string `json:"tables"`
	Tune             TuneSettings      `json:"tune"`
	Verify           VerifySettings    `json:"verify"`
	SPRT             *SPRTSettings     `json:"sprt"`
}

// SPRTSettings are the verification SPRT's parameters.
type SPRTSettings struct {
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	Model string  `json:"model"`
}

// VariantPlan is one self-play stream of the configuration.
type VariantPlan struct {
	Variant string `json:"variant"`
	Rules   string `json:"rules,omitempty"`
	Pairs   int    `json:"pairs"`
}

// TuneSettings summarises the tuning configuration.
type TuneSettings struct {
	Free    []string `json:"free"`
	PriorSD float64  `json:"prior_sd"`
	// Regularise is the prior grid chosen from by validation (nil: the
	// prior is PriorSD).
	Regularise *tune.Regularise `json:"regularise,omitempty"`
	// PriorByDefault says that the configuration set no prior and
	// Regularise is the default (tune.Config.PriorSD).
	PriorByDefault bool    `json:"prior_by_default,omitempty"`
	Lambda         float64 `json:"lambda"`
	Quiet          bool    `json:"quiet"`
	Validation     float64 `json:"validation"`
	MinPly         int     `json:"min_ply"`
	Bootstrap      int     `json:"bootstrap"`
	MaxIterations  int     `json:"max_iterations"`
}

// VerifySettings summarises the verification.
type VerifySettings struct {
	Pairs int   `json:"pairs"`
	Nodes int64 `json:"nodes"`
	// VsGen0Pairs is the pairs of the match against generation 0.
	VsGen0Pairs int `json:"vs_gen0_pairs"`
	// Anchor is the outside anchor (nil: none).
	Anchor *AnchorConfig `json:"anchor,omitempty"`
}

// GenerationReport is one generation.
type GenerationReport struct {
	Generation int `json:"generation"`
	// Steps are the finished steps.
	Steps []string `json:"steps"`
	// Timing gives each finished step's wall seconds (a timing field).
	Timing     map[string]float64 `json:"timing"`
	Variants   []VariantReport    `json:"variants"`
	Imbalances []StreamReport     `json:"imbalances,omitempty"`
}

// VariantReport is one variant in one generation.
type VariantReport struct {
	Variant  string        `json:"variant"`
	Selfplay *StreamReport `json:"selfplay,omitempty"`
	Tune     *TuneReport   `json:"tune,omitempty"`
	// TuneError says why the tune step gave no fit (nil Tune): the fit
	// was unusable, or the data held no position of the variant. The
	// generation then keeps the variant's table.
	TuneError string `json:"tune_error,omitempty"`
	// Values are values.ValueRows of the fit: Texel and imbalance
	// estimates with 95% intervals beside the published values, in every
	// scale of the variant.
	Values []values.ValueRow `json:"values,omitempty"`
	// Scale is the primary scale of the values (values.PrimaryScale).
	Scale string `json:"scale,omitempty"`
	// Measured are the prior-free values of the generation's games
	// (package tamerlane/values: regression, imbalance, agreement; P=1).
	Measured   *values.VariantValues `json:"measured,omitempty"`
	ValuesPlot string                `json:"values_plot,omitempty"`
	// Table is the exported table.
	Table  string           `json:"table,omitempty"`
	Match  *MatchReport     `json:"match,omitempty"`
	Accept *VariantDecision `json:"accept,omitempty"`
	// VsGen0 is the match of the table this generation accepted against
	// the generation-0 table (the verification match when that was
	// against generation 0).
	VsGen0 *MatchReport `json:"vs_gen0,omitempty"`
	// Anchor is the match of the current table against the outside
	// anchor engine.
	Anchor *MatchReport `json:"anchor,omitempty"`
}

// StreamReport summarises a self-play or imbalance stream.
type StreamReport struct {
	Name      string       `json:"name"`
	Pairs     int          `json:"pairs"`
	Games     int          `json:"games"`
	White     selfplay.WDL `json:"white"`
	First     selfplay.WDL `json:"first_player"`
	MeanPlies stats.Float4 `json:"mean_plies"`
	Positions int          `json:"positions"`
	PGN       string       `json:"pgn"`
}

// TuneReport summarises a fit.
type TuneReport struct {
	Positions      int         `json:"positions"`
	ValidPositions int         `json:"valid_positions"`
	Games          int         `json:"games"`
	K              stats.Float `json:"k"`
	StartTrainMSE  stats.Float `json:"start_train_mse"`
	TrainMSE       stats.Float `json:"train_mse"`
	StartValidMSE  stats.Float `json:"start_valid_mse"`
	ValidMSE       stats.Float `json:"valid_mse"`
	Iterations     int         `json:"iterations"`
	Status         string      `json:"status"`
	SEMethod       string      `json:"se_method"`
	// PriorSD is the fit's prior (0: none), chosen from Regularisation
	// when that is not empty.
	PriorSD        stats.Float     `json:"prior_sd"`
	Regularisation []tune.RegPoint `json:"regularisation,omitempty"`
}

// MatchReport is a verification match, from the new table's (A's) view.
type MatchReport struct {
	Pairs       int                   `json:"pairs"`
	Games       int                   `json:"games"`
	Complete    bool                  `json:"complete"`
	A           selfplay.WDL          `json:"a"`
	Pentanomial [5]int                `json:"pentanomial"`
	Score       stats.Interval        `json:"score"`
	Elo         selfplay.EloEstimate  `json:"elo"`
	NElo        selfplay.EloEstimate  `json:"nelo"`
	SPRT        *selfplay.SPRTSummary `json:"sprt"`
	Dir         string                `json:"dir"`
	// Terminations counts the games by how they ended (an outside
	// engine's forfeits among them).
	Terminations map[string]int `json:"terminations,omitempty"`
}

// EloPoint is the cumulative Elo of a variant's current table over its
// generation-0 table after a generation: the sum of the (logistic,
// pentanomial) Elo of the accepted generations' matches, with a 95%
// interval from their margins added in quadrature. An accepted generation
// without a match makes it unknown (null).
type EloPoint struct {
	Generation int            `json:"generation"`
	Elo        stats.Interval `json:"elo"`
	Accepted   bool           `json:"accepted"`
}

// CurrentTable is a variant's current table.
type CurrentTable struct {
	Generation int    `json:"generation"`
	Table      string `json:"table"`
}

// ReadReport reads a run directory's report.json.
func ReadReport(dir string) (*Report, error) {
	var r Report
	if err := fsx.ReadJSON(filepath.Join(dir, ReportJSON), &r, ReportFormat); err != nil {
		return nil, err
	}
	return &r, nil
}

// report rebuilds and writes report.json, report.md and the plots.
func (r *runner) report() (*Report, error) {
	rep, err := buildReport(r.dir, r.cfg, r.info, r.cat)
	if err != nil {
		return nil, err
	}
	rep.Atlas = atlasReports(r.atlas, r.cfg.Variants())
	rep.Updated = time.Now().UTC().Format(time.RFC3339)
	if rep.Plots, err = writePlots(r.dir, rep, r.drawn); err != nil {
		return nil, err
	}
	if err := fsx.WriteJSON(filepath.Join(r.dir, ReportJSON), rep); err != nil {
		return nil, err
	}
	if err := fsx.WriteFile(filepath.Join(r.dir, ReportMD), []byte(Markdown(rep))); err != nil {
		return nil, err
	}
	return rep, nil
}

// buildReport reads a run directory's outputs.
func buildReport(dir string, cfg *Config, info *Info, cat published.Catalog) (*Report, error) {
	sp := cfg.Selfplay
	rep := &Report{
		Format: ReportFormat, Name: cfg.Name, ConfigFile: cfg.File, ConfigHash: info.ConfigHash, Created: info.Created,
		Config: ConfigSummary{
			Generations: cfg.Generations, Accept: cfg.Accept, History: cfg.History, Seed: sp.Seed, Nodes: sp.Nodes, Depth: sp.Depth,
			PositionsPerGame: sp.Dataset.PositionsPerGame, Tables: map[string]string{},
			Verify: VerifySettings{Pairs: cfg.Verify.Pairs, Nodes: cfg.Verify.Nodes, VsGen0Pairs: cfg.Verify.VsGen0.Pairs, Anchor: cfg.Verify.Anchor},
		},
		Elo:     map[string][]EloPoint{},
		Current: map[string]CurrentTable{},
	}
	for _, v := range sp.Variants {
		rep.Config.Variants = append(rep.Config.Variants, VariantPlan{Variant: v.Variant, Rules: v.Rules, Pairs: v.Pairs})
		src := "embedded data/weights/" + v.Variant + ".yaml"
		if p, ok := cfg.Tables[v.Variant]; ok {
			src = p
		}
		rep.Config.Tables[v.Variant] = src
	}
	for _, m := range sp.Imbalances {
		rep.Config.Imbalances = append(rep.Config.Imbalances, fmt.Sprintf("%s (%s: -%s vs -%s, %d pairs)", m.Name, m.Variant,
			strings.Join(m.FirstRemoves, " -"), strings.Join(m.SecondRemoves, " -"), m.Pairs))
	}
	opt := cfg.Tune.Options(nil)
	reg := cfg.Tune.Regularise
	if opt.Fit.DefaultGrid {
		reg = &tune.Regularise{Grid: opt.Fit.Grid, Rule: opt.Fit.Rule}
	}
	rep.Config.Tune = TuneSettings{Free: cfg.Tune.Free, PriorSD: cfg.Tune.PriorSD, Regularise: reg, PriorByDefault: opt.Fit.DefaultGrid, Lambda: cfg.Tune.Lambda,
		Quiet: cfg.Tune.Quiet == nil || *cfg.Tune.Quiet, Validation: opt.Load.ValidFraction, MinPly: cfg.Tune.MinPly,
		Bootstrap: cfg.Tune.Bootstrap, MaxIterations: cfg.Tune.MaxIterations}
	if cfg.Verify.Pairs > 0 {
		s := cfg.Verify.SPRT
		rep.Config.SPRT = &SPRTSettings{Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta, Model: s.Model}
	}

	type cum struct {
		elo, variance float64
		gen           int
	}
	state := map[string]*cum{}
	for _, v := range cfg.Variants() {
		state[v] = &cum{}
		rep.Elo[v] = []EloPoint{{Generation: 0}}
		rep.Current[v] = CurrentTable{Generation: 0, Table: filepath.ToSlash(filepath.Join("gen-000", TablesDir, v+".yaml"))}
	}
	// lastDone and lastStep are the newest step recorded; complete says
	// whether generation lastDone recorded every step (a run resumed after
	// a step was added records it after the others).
	lastDone, lastStep, complete := 0, "", false
	for g := 1; ; g++ {
		gd := GenDir(dir, g)
		if _, err := os.Stat(gd); err != nil {
			break
		}
		steps, err := readSteps(gd)
		if err != nil {
			return nil, err
		}
		gr := GenerationReport{Generation: g, Timing: map[string]float64{}}
		for _, s := range steps.Steps {
			gr.Steps = append(gr.Steps, s.Step)
			gr.Timing[s.Step] = s.Seconds
			lastDone, lastStep = g, s.Step
		}
		if len(steps.Steps) > 0 {
			complete = !slices.ContainsFunc(Steps(), func(step string) bool { return !steps.done(step) })
		}
		var sum *selfplay.Summary
		if steps.done(StepSelfplay) {
			if sum, err = selfplay.ReadSummary(filepath.Join(gd, "selfplay", selfplay.SummaryName)); err != nil {
				return nil, err
			}
			for _, s := range sum.Streams {
				if s.Kind == "imbalance" {
					gr.Imbalances = append(gr.Imbalances, streamReport(s, gd))
				}
			}
		}
		var measured *values.Document
		if steps.done(StepMeasure) {
			if measured, err = readMeasured(gd); err != nil {
				return nil, err
			}
		}
		var tr *tune.Report
		var tuned []values.ValueRow
		if steps.done(StepTune) {
			if tr, err = tune.ReadReport(filepath.Join(gd, "tune")); err != nil {
				return nil, err
			}
			if tuned, err = values.ReadTuned(filepath.Join(gd, "tune")); err != nil {
				return nil, err
			}
		}
		var acc *Acceptance
		if steps.done(StepAccept) {
			if acc, err = ReadAcceptance(gd); err != nil {
				return nil, err
			}
		}
		for _, v := range cfg.Variants() {
			vr := VariantReport{Variant: v}
			if sum != nil {
				for _, s := range sum.Streams {
					if s.Kind == "selfplay" && s.Variant == v {
						sr := streamReport(s, gd)
						vr.Selfplay = &sr
					}
				}
			}
			if measured != nil {
				vr.Measured = measured.Variant(v)
			}
			if tr != nil {
				if f := tr.Fit(v); f != nil {
					vr.Tune = &TuneReport{Positions: f.Positions, ValidPositions: f.ValidPositions, Games: f.Games, K: f.K,
						StartTrainMSE: f.StartTrainMSE, TrainMSE: f.TrainMSE, StartValidMSE: f.StartValidMSE, ValidMSE: f.ValidMSE,
						Iterations: f.Iterations, Status: f.Status, SEMethod: f.SEMethod, PriorSD: f.PriorSD, Regularisation: f.Regularisation}
					for _, row := range tuned {
						if row.Variant == v {
							vr.Values = append(vr.Values, row)
						}
					}
					vr.Scale = string(values.PrimaryScale(cat, v))
					if p := filepath.Join(gd, "tune", "values-"+v+".png"); exists(p) {
						vr.ValuesPlot = rel(dir, p)
					}
				} else if e := tr.FitError(v); e != "" {
					vr.TuneError = "no usable fit (" + e + ")"
				} else if slices.Contains(cfg.Tune.Variants, v) {
					vr.TuneError = "no fit: the self-play data hold no position of " + v
				}
			}
			if steps.done(StepExport) {
				if p := filepath.Join(gd, TablesDir, v+".yaml"); exists(p) {
					vr.Table = rel(dir, p)
				}
			}
			if vr.Match, err = readMatch(dir, filepath.Join(gd, "match", v)); err != nil {
				return nil, err
			}
			if vr.VsGen0, err = readMatch(dir, filepath.Join(gd, Gen0Dir, v)); err != nil {
				return nil, err
			}
			if vr.Anchor, err = readMatch(dir, filepath.Join(gd, AnchorDir, v)); err != nil {
				return nil, err
			}
			baseGen0 := rep.Current[v].Generation == 0
			if acc != nil {
				for i := range acc.Variants {
					if acc.Variants[i].Variant == v {
						d := acc.Variants[i]
						vr.Accept = &d
					}
				}
				st := state[v]
				p := EloPoint{Generation: g}
				if vr.Accept != nil && vr.Accept.Accepted {
					p.Accepted = true
					st.gen = g
					rep.Current[v] = CurrentTable{Generation: g, Table: vr.Accept.Table}
					if vr.Match != nil {
						st.elo += float64(vr.Match.Elo.Elo)
						m := float64(vr.Match.Elo.Margin) / stats.Z95
						st.variance += m * m
					} else {
						st.elo = math.NaN()
					}
				}
				sd := math.Sqrt(st.variance)
				p.Elo = stats.NewInterval(st.elo, sd)
				rep.Elo[v] = append(rep.Elo[v], p)
				if p.Accepted && baseGen0 && vr.VsGen0 == nil && steps.done(StepVsGen0) {
					// The verification was against the generation-0 table.
					vr.VsGen0 = vr.Match
				}
			}
			gr.Variants = append(gr.Variants, vr)
		}
		rep.Generations = append(rep.Generations, gr)
	}
	rep.EloVsGen0 = gen0Points(rep)
	switch {
	case lastDone >= cfg.Generations && complete:
		rep.Status, rep.Finished = "finished", true
	case lastStep == "":
		rep.Status = "started: no step finished yet"
	case complete:
		rep.Status = fmt.Sprintf("generation %d/%d done", lastDone, cfg.Generations)
	default:
		rep.Status = fmt.Sprintf("generation %d/%d: %s done", lastDone, cfg.Generations, lastStep)
	}
	return rep, nil
}

// readMatch reads the match in mdir (nil when it has not been played).
func readMatch(dir, mdir string) (*MatchReport, error) {
	ms, err := selfplay.ReadSummary(filepath.Join(mdir, selfplay.SummaryName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if len(ms.Streams) != 1 {
		return nil, nil
	}
	s := ms.Streams[0]
	return &MatchReport{Pairs: s.Pairs, Games: s.Games, Complete: ms.Complete, A: s.FirstPlayer, Pentanomial: s.Pentanomial,
		Score: s.Score, Elo: s.Elo, NElo: s.NElo, SPRT: s.SPRT, Dir: rel(dir, mdir), Terminations: s.Terminations}, nil
}

func streamReport(s selfplay.StreamSummary, gd string) StreamReport {
	return StreamReport{Name: s.Name, Pairs: s.Pairs, Games: s.Games, White: s.White, First: s.FirstPlayer, MeanPlies: s.MeanPlies,
		Positions: s.Positions, PGN: filepath.ToSlash(filepath.Join(filepath.Base(gd), "selfplay", s.Dir, selfplay.PGNName))}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
