package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"tamerlane/selfplay"
	"tamerlane/tune"
	"tamerlane/tune/published"
	"tamerlane/values"
)

// ReportFormat identifies report.json.
const ReportFormat = "tamerlane-pipeline-report/1"

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
	// Current names each variant's current table and the generation that
	// made it (0: the initial table).
	Current map[string]CurrentTable `json:"current"`
	// Plots are the report's plots (PNG and SVG).
	Plots []string `json:"plots"`
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
	Free          []string `json:"free"`
	PriorSD       float64  `json:"prior_sd"`
	Lambda        float64  `json:"lambda"`
	Quiet         bool     `json:"quiet"`
	Validation    float64  `json:"validation"`
	MinPly        int      `json:"min_ply"`
	Bootstrap     int      `json:"bootstrap"`
	MaxIterations int      `json:"max_iterations"`
}

// VerifySettings summarises the verification.
type VerifySettings struct {
	Pairs int   `json:"pairs"`
	Nodes int64 `json:"nodes"`
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
	// Values are tune.ValueRows of the fit: Texel and imbalance
	// estimates with 95% intervals beside the published values, in every
	// scale of the variant.
	Values []tune.ValueRow `json:"values,omitempty"`
	// Scale is the primary scale of the values (tune.PrimaryScale).
	Scale string `json:"scale,omitempty"`
	// Measured are the prior-free values of the generation's games
	// (package tamerlane/values: regression, imbalance, agreement; P=1).
	Measured   *values.VariantValues `json:"measured,omitempty"`
	ValuesPlot string                `json:"values_plot,omitempty"`
	// Table is the exported table.
	Table  string           `json:"table,omitempty"`
	Match  *MatchReport     `json:"match,omitempty"`
	Accept *VariantDecision `json:"accept,omitempty"`
}

// StreamReport summarises a self-play or imbalance stream.
type StreamReport struct {
	Name      string         `json:"name"`
	Pairs     int            `json:"pairs"`
	Games     int            `json:"games"`
	White     selfplay.WDL   `json:"white"`
	First     selfplay.WDL   `json:"first_player"`
	MeanPlies selfplay.Float `json:"mean_plies"`
	Positions int            `json:"positions"`
	PGN       string         `json:"pgn"`
}

// TuneReport summarises a fit.
type TuneReport struct {
	Positions      int        `json:"positions"`
	ValidPositions int        `json:"valid_positions"`
	Games          int        `json:"games"`
	K              tune.Float `json:"k"`
	StartTrainMSE  tune.Float `json:"start_train_mse"`
	TrainMSE       tune.Float `json:"train_mse"`
	StartValidMSE  tune.Float `json:"start_valid_mse"`
	ValidMSE       tune.Float `json:"valid_mse"`
	Iterations     int        `json:"iterations"`
	Status         string     `json:"status"`
	SEMethod       string     `json:"se_method"`
}

// MatchReport is a verification match, from the new table's (A's) view.
type MatchReport struct {
	Pairs       int                   `json:"pairs"`
	Games       int                   `json:"games"`
	Complete    bool                  `json:"complete"`
	A           selfplay.WDL          `json:"a"`
	Pentanomial [5]int                `json:"pentanomial"`
	Score       selfplay.Interval     `json:"score"`
	Elo         selfplay.EloEstimate  `json:"elo"`
	NElo        selfplay.EloEstimate  `json:"nelo"`
	SPRT        *selfplay.SPRTSummary `json:"sprt"`
	Dir         string                `json:"dir"`
}

// EloPoint is the cumulative Elo of a variant's current table over its
// generation-0 table after a generation: the sum of the (logistic,
// pentanomial) Elo of the accepted generations' matches, with a 95%
// interval from their margins added in quadrature. An accepted generation
// without a match makes it unknown (null).
type EloPoint struct {
	Generation int            `json:"generation"`
	Elo        selfplay.Float `json:"elo"`
	Lo         selfplay.Float `json:"lo"`
	Hi         selfplay.Float `json:"hi"`
	Accepted   bool           `json:"accepted"`
}

// CurrentTable is a variant's current table.
type CurrentTable struct {
	Generation int    `json:"generation"`
	Table      string `json:"table"`
}

// ReadReport reads a run directory's report.json.
func ReadReport(dir string) (*Report, error) {
	path := filepath.Join(dir, ReportJSON)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if r.Format != ReportFormat {
		return nil, fmt.Errorf("%s: format %q, want %q", path, r.Format, ReportFormat)
	}
	return &r, nil
}

// z95 is the two-sided 95% normal quantile.
const z95 = 1.959963984540054

// report rebuilds and writes report.json, report.md and the plots.
func (r *runner) report() (*Report, error) {
	rep, err := buildReport(r.dir, r.cfg, r.info, r.cat)
	if err != nil {
		return nil, err
	}
	rep.Updated = time.Now().UTC().Format(time.RFC3339)
	if rep.Plots, err = writePlots(r.dir, rep, r.drawn); err != nil {
		return nil, err
	}
	if err := writeJSON(filepath.Join(r.dir, ReportJSON), rep); err != nil {
		return nil, err
	}
	if err := tune.WriteFileAtomic(filepath.Join(r.dir, ReportMD), []byte(Markdown(rep))); err != nil {
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
			Verify: VerifySettings{Pairs: cfg.Verify.Pairs, Nodes: cfg.Verify.Nodes},
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
	rep.Config.Tune = TuneSettings{Free: cfg.Tune.Free, PriorSD: cfg.Tune.PriorSD, Lambda: cfg.Tune.Lambda,
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
	lastDone, lastStep := 0, ""
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
		if sum != nil {
			if measured, err = measuredValues(gd, cat); err != nil {
				return nil, err
			}
		}
		var tr *tune.Report
		if steps.done(StepTune) {
			if tr, err = tune.ReadReport(filepath.Join(gd, "tune")); err != nil {
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
						Iterations: f.Iterations, Status: f.Status, SEMethod: f.SEMethod}
					vr.Values = tune.ValueRows(f, tr.Imbalance(v), cat)
					vr.Scale = string(tune.PrimaryScale(cat, v))
					if p := filepath.Join(gd, "tune", "values-"+v+".png"); exists(p) {
						vr.ValuesPlot = rel(dir, p)
					}
				}
			}
			if steps.done(StepExport) {
				if p := filepath.Join(gd, TablesDir, v+".yaml"); exists(p) {
					vr.Table = rel(dir, p)
				}
			}
			mdir := filepath.Join(gd, "match", v)
			if ms, err := selfplay.ReadSummary(filepath.Join(mdir, selfplay.SummaryName)); err == nil && len(ms.Streams) == 1 {
				s := ms.Streams[0]
				vr.Match = &MatchReport{Pairs: s.Pairs, Games: s.Games, Complete: ms.Complete, A: s.FirstPlayer, Pentanomial: s.Pentanomial,
					Score: s.Score, Elo: s.Elo, NElo: s.NElo, SPRT: s.SPRT, Dir: rel(dir, mdir)}
			} else if err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
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
						m := float64(vr.Match.Elo.Margin) / z95
						st.variance += m * m
					} else {
						st.elo = math.NaN()
					}
				}
				sd := math.Sqrt(st.variance)
				p.Elo, p.Lo, p.Hi = selfplay.Float(st.elo), selfplay.Float(st.elo-z95*sd), selfplay.Float(st.elo+z95*sd)
				rep.Elo[v] = append(rep.Elo[v], p)
			}
			gr.Variants = append(gr.Variants, vr)
		}
		rep.Generations = append(rep.Generations, gr)
	}
	switch {
	case lastDone >= cfg.Generations && lastStep == StepAccept:
		rep.Status, rep.Finished = "finished", true
	case lastStep == "":
		rep.Status = "started: no step finished yet"
	default:
		rep.Status = fmt.Sprintf("generation %d/%d: %s done", lastDone, cfg.Generations, lastStep)
		if lastStep == StepAccept && lastDone < cfg.Generations {
			rep.Status = fmt.Sprintf("generation %d/%d done", lastDone, cfg.Generations)
		}
	}
	return rep, nil
}

func streamReport(s selfplay.StreamSummary, gd string) StreamReport {
	return StreamReport{Name: s.Name, Pairs: s.Pairs, Games: s.Games, White: s.White, First: s.FirstPlayer, MeanPlies: s.MeanPlies,
		Positions: s.Positions, PGN: filepath.ToSlash(filepath.Join(filepath.Base(gd), "selfplay", s.Dir, selfplay.PGNName))}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Markdown renders the report.
func Markdown(rep *Report) string {
	var b strings.Builder
	c := rep.Config
	fmt.Fprintf(&b, "# Pipeline run %s\n\n", rep.Name)
	fmt.Fprintf(&b, "Status: **%s**. Configuration %s (hash %.12s), started %s, report updated %s.\n\n", rep.Status, rep.ConfigFile, rep.ConfigHash, rep.Created, rep.Updated)

	b.WriteString("## Configuration\n\n")
	var plans []string
	for _, v := range c.Variants {
		s := fmt.Sprintf("%s (%d pairs", v.Variant, v.Pairs)
		if v.Rules != "" {
			s += ", rules " + v.Rules
		}
		plans = append(plans, s+")")
	}
	budget := fmt.Sprintf("%d nodes/move", c.Nodes)
	if c.Depth > 0 {
		budget = fmt.Sprintf("depth %d", c.Depth)
		if c.Nodes > 0 {
			budget = fmt.Sprintf("%d nodes and depth %d", c.Nodes, c.Depth)
		}
	}
	fmt.Fprintf(&b, "- generations: %d; seed %d (generation g plays with seed+g-1)\n", c.Generations, c.Seed)
	fmt.Fprintf(&b, "- self-play: %s at %s, %d positions sampled per game\n", strings.Join(plans, ", "), budget, c.PositionsPerGame)
	if len(c.Imbalances) > 0 {
		fmt.Fprintf(&b, "- imbalances: %s\n", strings.Join(c.Imbalances, "; "))
	}
	var tabs []string
	for _, v := range c.Variants {
		tabs = append(tabs, fmt.Sprintf("%s: %s", v.Variant, c.Tables[v.Variant]))
	}
	fmt.Fprintf(&b, "- generation-0 tables: %s\n", strings.Join(tabs, "; "))
	t := c.Tune
	free := "all weights"
	if len(t.Free) > 0 {
		free = strings.Join(t.Free, ", ")
	}
	prior := "none"
	if t.PriorSD > 0 {
		prior = fmt.Sprintf("%g cp around the current table", t.PriorSD)
	}
	hist := "this generation's data only"
	switch {
	case c.History < 0:
		hist = "all generations' data"
	case c.History > 0:
		hist = fmt.Sprintf("this and %d previous generations' data", c.History)
	}
	fmt.Fprintf(&b, "- tuning: free %s; prior sd %s; lambda %g; quiet %v; validation %g; %s\n", free, prior, t.Lambda, t.Quiet, t.Validation, hist)
	if c.SPRT != nil {
		fmt.Fprintf(&b, "- verification: new (A) vs current (B), up to %d pairs at %d nodes/move, SPRT %s nElo [%g, %g], alpha %g, beta %g (pentanomial)\n",
			c.Verify.Pairs, c.Verify.Nodes, c.SPRT.Model, c.SPRT.Elo0, c.SPRT.Elo1, c.SPRT.Alpha, c.SPRT.Beta)
	} else {
		b.WriteString("- verification: none (verify.pairs is 0)\n")
	}
	fmt.Fprintf(&b, "- accept: %s (%s)\n\n", c.Accept, acceptDoc(c.Accept))

	if len(rep.Generations) > 0 {
		b.WriteString("## Summary\n\n")
		b.WriteString("| gen | variant | games | mean plies | positions | K | valid MSE | Elo (95%) | LLR | SPRT | accepted | cumulative Elo (95%) |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n")
		for _, g := range rep.Generations {
			for _, v := range g.Variants {
				cells := make([]string, 10)
				if s := v.Selfplay; s != nil {
					cells[0], cells[1] = fmt.Sprint(s.Games), ff(float64(s.MeanPlies), 1)
				}
				if tr := v.Tune; tr != nil {
					cells[2], cells[3] = fmt.Sprint(tr.Positions), ff(float64(tr.K), 3)
					cells[4] = fmt.Sprintf("%s → %s", ff(float64(tr.StartValidMSE), 5), ff(float64(tr.ValidMSE), 5))
				}
				if m := v.Match; m != nil {
					cells[5] = eloCell(m.Elo)
					if m.SPRT != nil {
						cells[6], cells[7] = ff(float64(m.SPRT.LLR), 2), m.SPRT.Decision
					}
				}
				if a := v.Accept; a != nil {
					cells[8] = map[bool]string{true: "**yes**", false: "no"}[a.Accepted]
					for _, p := range rep.Elo[v.Variant] {
						if p.Generation == g.Generation {
							cells[9] = intervalCell(p)
						}
					}
				}
				fmt.Fprintf(&b, "| %d | %s | %s |\n", g.Generation, v.Variant, strings.Join(cells, " | "))
			}
		}
		b.WriteString("\n")
	}
	for _, p := range rep.Plots {
		if strings.HasSuffix(p, ".png") {
			fmt.Fprintf(&b, "![%s](%s)\n\n", strings.TrimSuffix(p, ".png"), p)
		}
	}
	if len(rep.Current) > 0 {
		b.WriteString("Current tables (`tamerlane apply --run DIR` copies the changed ones to data/weights):\n\n")
		for _, v := range c.Variants {
			cur := rep.Current[v.Variant]
			fmt.Fprintf(&b, "- %s: `tables/%s.yaml` = `%s` (generation %d)\n", v.Variant, v.Variant, cur.Table, cur.Generation)
		}
		b.WriteString("\n")
	}

	for _, g := range rep.Generations {
		fmt.Fprintf(&b, "## Generation %d\n\n", g.Generation)
		done := "none"
		if len(g.Steps) > 0 {
			done = strings.Join(g.Steps, ", ")
		}
		fmt.Fprintf(&b, "Steps done: %s.\n\n", done)
		for _, v := range g.Variants {
			fmt.Fprintf(&b, "### %s\n\n", v.Variant)
			if s := v.Selfplay; s != nil {
				fmt.Fprintf(&b, "**Self-play**: %d pairs, %d games, White +%d =%d -%d (score %s), mean length %s plies, %d positions sampled ([PGN](%s)).\n\n",
					s.Pairs, s.Games, s.White.Wins, s.White.Draws, s.White.Losses, ff(float64(s.White.Score), 3), ff(float64(s.MeanPlies), 1), s.Positions, s.PGN)
			}
			if tr := v.Tune; tr != nil {
				fmt.Fprintf(&b, "**Tuning**: %d positions of %d games (validation %d), K %s, train MSE %s → %s, validation MSE %s → %s, %d iterations (%s); errors: %s.\n\n",
					tr.Positions, tr.Games, tr.ValidPositions, ff(float64(tr.K), 4), ff(float64(tr.StartTrainMSE), 5), ff(float64(tr.TrainMSE), 5),
					ff(float64(tr.StartValidMSE), 5), ff(float64(tr.ValidMSE), 5), tr.Iterations, tr.Status, tr.SEMethod)
			}
			if v.Measured != nil {
				writeMeasured(&b, v.Measured)
			}
			if len(v.Values) > 0 {
				writeValues(&b, g.Generation, v)
			}
			if v.Table != "" {
				fmt.Fprintf(&b, "Exported table: `%s`.\n\n", v.Table)
			}
			if m := v.Match; m != nil {
				state := ""
				if !m.Complete {
					state = " (in progress)"
				}
				fmt.Fprintf(&b, "**Verification**%s: new vs current, %d pairs, %d games, new +%d =%d -%d, pentanomial %v, score %s [%s, %s], Elo %s, nElo %s (95%%).",
					state, m.Pairs, m.Games, m.A.Wins, m.A.Draws, m.A.Losses, m.Pentanomial, ff(float64(m.Score.Mean), 3), ff(float64(m.Score.Low), 3), ff(float64(m.Score.High), 3),
					eloCell(m.Elo), eloCell(m.NElo))
				if s := m.SPRT; s != nil {
					fmt.Fprintf(&b, " SPRT nElo [%g, %g]: LLR %s (bounds %s, %s) → **%s**", float64(s.Elo0), float64(s.Elo1), ff(float64(s.LLR), 3),
						ff(float64(s.Lower), 2), ff(float64(s.Upper), 2), s.Decision)
					if s.DecidedAt > 0 {
						fmt.Fprintf(&b, " after %d pairs", s.DecidedAt)
					}
					b.WriteString(".")
				}
				b.WriteString("\n\n")
			}
			if a := v.Accept; a != nil {
				verdict := "not accepted"
				if a.Accepted {
					verdict = "**accepted**"
				}
				fmt.Fprintf(&b, "**Decision**: %s — %s. Current table: `%s`.\n\n", verdict, a.Reason, a.Table)
			}
		}
		if len(g.Imbalances) > 0 {
			b.WriteString("### Imbalance matches\n\n| stream | pairs | first player +/=/- | score |\n|---|---|---|---|\n")
			for _, s := range g.Imbalances {
				fmt.Fprintf(&b, "| %s | %d | +%d =%d -%d | %s |\n", s.Name, s.Pairs, s.First.Wins, s.First.Draws, s.First.Losses, ff(float64(s.First.Score), 3))
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// writeValues writes a variant's values table in its primary scale.
func writeValues(b *strings.Builder, gen int, v VariantReport) {
	scale := v.Scale
	var rows []tune.ValueRow
	for _, r := range v.Values {
		if r.Scale == scale {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 && len(v.Values) > 0 {
		scale = v.Values[0].Scale
		for _, r := range v.Values {
			if r.Scale == scale {
				rows = append(rows, r)
			}
		}
	}
	imb := false
	for _, r := range rows {
		imb = imb || r.Imbalance != nil
	}
	fmt.Fprintf(b, "**Piece values** of the engine table (%s; the Texel fit of the eval table's material weights with the other weights fixed, "+
		"shrunk towards the starting table when tune.prior_sd > 0: a tuning result, not a measurement; 95%% intervals; all scales in `gen-%03d/tune/values.md`):\n\n", scale, gen)
	head := "| piece | name | texel (95%) |"
	sep := "|---|---|---|"
	if imb {
		head += " imbalance (95%) |"
		sep += "---|"
	}
	head += " published | source | texel/published |"
	sep += "---|---|---|"
	b.WriteString(head + "\n" + sep + "\n")
	for _, r := range rows {
		cells := []string{r.Piece, r.Name, ivCell(r.Texel)}
		if imb {
			cells = append(cells, ivCell(r.Imbalance))
		}
		pub, src, ratio := "", "", ""
		if r.Published != nil {
			pub = ff(float64(*r.Published), 2)
			src = fmt.Sprintf("%s (%s)", tune.ShortCitation(r.Source), r.Kind)
		}
		if r.Ratio != nil {
			ratio = ff(float64(*r.Ratio), 2)
		}
		cells = append(cells, pub, src, ratio)
		fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
	}
	b.WriteString("\n")
	if v.ValuesPlot != "" {
		fmt.Fprintf(b, "![%s values](%s)\n\n", v.Variant, v.ValuesPlot)
	}
}

func acceptDoc(rule string) string {
	switch rule {
	case AcceptAlways:
		return "every generation's table becomes current"
	case AcceptNotWorse:
		return "the new table becomes current unless the SPRT accepted H0"
	}
	return "the new table becomes current only if the SPRT accepted H1"
}

// ff formats a number, or "–" when it is NaN.
func ff(x float64, prec int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	return fmt.Sprintf("%.*f", prec, x)
}

func ivCell(iv *tune.Interval) string {
	if iv == nil {
		return ""
	}
	if math.IsNaN(float64(iv.Lo)) || math.IsNaN(float64(iv.Hi)) {
		return ff(float64(iv.Value), 2)
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", float64(iv.Value), float64(iv.Lo), float64(iv.Hi))
}

func eloCell(e selfplay.EloEstimate) string {
	if math.IsNaN(float64(e.Elo)) {
		return "–"
	}
	return fmt.Sprintf("%+.1f ± %s", float64(e.Elo), ff(float64(e.Margin), 1))
}

func intervalCell(p EloPoint) string {
	if math.IsNaN(float64(p.Elo)) {
		return "unknown"
	}
	return fmt.Sprintf("%+.1f [%s, %s]", float64(p.Elo), ff(float64(p.Lo), 1), ff(float64(p.Hi), 1))
}
