package values

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"tamerlane/engine"
	"tamerlane/internal/fsx"
	"tamerlane/internal/stats"
	"tamerlane/values/published"
)

// The atlas's sources: one per method, and the imbalance values again in
// the regression's pawn (AtlasBridged), so that both methods have a value
// in one unit.
const (
	AtlasRegression = "regression"
	AtlasImbalance  = "imbalance"
	AtlasBridged    = "imbalance-bridged"
)

// atlasSources lists the atlas's sources in the order it writes them.
func atlasSources() []string { return []string{AtlasRegression, AtlasImbalance, AtlasBridged} }

// The units of the two methods' P=1, as the atlas states them.
const (
	regressionUnit = "the regression's pawn: an average pawn of the quiet positions of the games (every pawn type one class), docs/method.md"
	imbalanceUnit  = "the pawn of the pawn-odds match: one pawn taken off the start array, as the config's imbalance pawns choose it, docs/method.md"
	bridgedUnit    = "the regression's pawn at the start (phase 1): the imbalance matches' logit over the regression's pawn weight at phase 1, docs/method.md"
)

// RunProvenance is what a measurement directory records of how it was
// measured, as an atlas states it (published.Provenance without the
// per-method figures).
type RunProvenance struct {
	// Name is the measurement's name (its config's), Measurement its
	// hash (measure.json's config_hash: the identity of its games).
	Name        string
	Measurement string
	// Config is the config's path, ConfigSHA256 the SHA-256 of its
	// bytes; the config was checked to be the run's (its hash is the
	// run's measure.json config_hash).
	Config       string
	ConfigSHA256 string
	// Engine names the builds that played (Build.Name, joined by ", ").
	Engine string
	// Date is the UTC day the run's newest journal was last written.
	Date string
	// Nodes is the run's node budget per move.
	Nodes int64
}

// ReadRunProvenance reads the provenance of the measurement in dir. The
// config is configPath, or when that is "" the file the run was started
// with (measure.json's config_file); it must be the run's config. The
// engine build is the one the run records (BuildsDir), or engineBuild
// for a run that records none; a run that records builds refuses
// another.
func ReadRunProvenance(dir, configPath, engineBuild string) (RunProvenance, error) {
	var p RunProvenance
	path := filepath.Join(dir, fsx.Marker(fsx.KindMeasure))
	b, err := os.ReadFile(path)
	if err != nil {
		return p, fmt.Errorf("%s is not a measurement directory: %w", dir, err)
	}
	var ri runInfo
	if err := json.Unmarshal(b, &ri); err != nil {
		return p, fmt.Errorf("%s: %v", path, err)
	}
	p.Name, p.Measurement = ri.Name, ri.ConfigHash
	run, err := LoadRunConfig(filepath.Join(dir, "config.yaml"))
	if err != nil {
		return p, err
	}
	p.Nodes = run.Nodes
	if configPath == "" {
		configPath = ri.ConfigFile
	}
	if configPath == "" {
		return p, fmt.Errorf("%s does not record its config's path (a run made before runs recorded it): name the config the run was started with (--config)", dir)
	}
	if p.ConfigSHA256, err = checkRunConfig(configPath, ri.ConfigHash); err != nil {
		return p, err
	}
	p.Config = filepath.ToSlash(filepath.Clean(configPath))
	builds, err := ReadBuilds(dir)
	if err != nil {
		return p, err
	}
	unrecorded := len(builds) > 0 && builds[0].Unrecorded
	switch {
	case unrecorded && engineBuild == "":
		return p, fmt.Errorf("%s was started before runs recorded their builds and resumed by %s: name the build that played first, e.g. its commit (--engine-build)", dir, buildNames(builds[1:]))
	case unrecorded:
		p.Engine = strings.Join(append([]string{engineBuild}, buildNames(builds[1:])), ", ")
	case len(builds) > 0 && engineBuild != "":
		return p, fmt.Errorf("%s records the builds that played it (%s): leave out --engine-build", dir, buildNames(builds))
	case len(builds) > 0:
		p.Engine = buildNames(builds)
	case engineBuild != "":
		p.Engine = engineBuild
	default:
		return p, fmt.Errorf("%s records no engine build (a run made before runs recorded them): name the build that played it, e.g. its commit (--engine-build)", dir)
	}
	p.Date, err = lastJournal(dir)
	return p, err
}

// MeasurementHashes returns the hashes of the measurements (measure.json)
// that hold the self-play run directories dirs, each once: the identity
// of their games, which an atlas's provenance records.
func MeasurementHashes(dirs []string) ([]string, error) {
	var out []string
	for _, d := range dirs {
		for p := d; ; p = filepath.Dir(p) {
			b, err := os.ReadFile(filepath.Join(p, fsx.Marker(fsx.KindMeasure)))
			if err == nil {
				var ri runInfo
				if err := json.Unmarshal(b, &ri); err != nil {
					return nil, fmt.Errorf("%s: %v", filepath.Join(p, fsx.Marker(fsx.KindMeasure)), err)
				}
				if !slices.Contains(out, ri.ConfigHash) {
					out = append(out, ri.ConfigHash)
				}
				break
			}
			if filepath.Dir(p) == p {
				break
			}
		}
	}
	return out, nil
}

// checkRunConfig returns the SHA-256 of the config file at path, after
// checking that it is the config whose measurement hash is hash.
func checkRunConfig(path, hash string) (string, error) {
	b, err := fsx.ReadFile(path, fsx.MaxConfigBytes)
	if err != nil {
		return "", err
	}
	cfg, err := LoadRunConfig(path)
	if err != nil {
		return "", err
	}
	h, err := cfg.Hash()
	if err != nil {
		return "", err
	}
	if h != hash {
		return "", fmt.Errorf("%s is not the config of this run (its hash %.12s, the run's %.12s; was the run started with --seed, or the file changed since?)", path, h, hash)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// buildNames names builds for a provenance.
func buildNames(bs []Build) string {
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.Name()
	}
	return strings.Join(names, ", ")
}

// journalName is the file of a self-play stream's finished game pairs.
const journalName = "journal.jsonl"

// lastJournal returns the UTC day of the newest game journal under dir:
// when the run's last game was recorded.
func lastJournal(dir string) (string, error) {
	var last time.Time
	err := fsx.WalkLinked(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != journalName {
			return err
		}
		info, err := d.Info()
		if err == nil && info.ModTime().After(last) {
			last = info.ModTime()
		}
		return err
	})
	if err != nil {
		return "", err
	}
	if last.IsZero() {
		return "", fmt.Errorf("%s: no game journal", dir)
	}
	return last.UTC().Format("2006-01-02"), nil
}

// Atlas returns the atlas file of a variant's values in doc (its
// data/measured/<variant>.yaml, in the format of package published): one
// source per method with prov and the method's games, every piece with a
// value in P=1 (the method's own pawn, which the provenance's unit
// states) and in the variant's reference scale (ReferenceScale), each
// with its 95% interval. Pieces whose value is not positive
// cannot be written in the format; they are left out and named in the
// returned notes, as is a run still in progress.
func Atlas(doc *Document, variant string, prov RunProvenance, cat published.Catalog) ([]byte, []string, error) {
	v := doc.Variant(variant)
	if v == nil {
		return nil, nil, fmt.Errorf("the measurement has no values of %s", variant)
	}
	var notes []string
	if len(doc.InProgress) > 0 || len(doc.UnfinishedPlans) > 0 {
		notes = append(notes, fmt.Sprintf("interim: runs still playing or stopped: %s", strings.Join(append(append([]string{}, doc.InProgress...), doc.UnfinishedPlans...), ", ")))
	}
	scales := []published.Scale{published.PawnOne, ReferenceScale(cat, variant)}
	tab := cat[variant]
	name := variant
	if tab != nil && tab.Name != "" {
		name = tab.Name
	}
	atlas := &published.Table{Variant: variant, Name: name}
	used := map[string]bool{}
	for _, method := range atlasSources() {
		for _, sc := range scales {
			if method == AtlasBridged && sc != published.PawnOne {
				continue // the imbalance's own ratios: the pawn cancels
			}
			sp, sv, _ := sc.Parse()
			for k := range v.Pieces {
				p := &v.Pieces[k]
				iv := atlasEstimate(p, method, sc)
				e := published.Entry{Piece: p.Piece, HasValue: true, Source: method, Scale: sc}
				switch {
				case p.Piece == sp && (sp == "P" || atlasEstimate(p, method, published.PawnOne) != nil):
					e.Value = sv // the scale's own piece: its value by definition
				case p.Piece == sp || iv == nil || math.IsNaN(float64(iv.Value)):
					continue
				case !(iv.Value > 0):
					notes = append(notes, fmt.Sprintf("%s %s in %s left out: %s is not a positive value", method, p.Piece, sc, iv.Format(3)))
					continue
				default:
					e.Value = atlasNumber(float64(iv.Value))
					if iv.SE > 0 && !math.IsNaN(float64(iv.Lo)) && !math.IsNaN(float64(iv.Hi)) {
						e.HasInterval, e.Lo, e.Hi = true, atlasNumber(float64(iv.Lo)), atlasNumber(float64(iv.Hi))
					}
				}
				atlas.Entries = append(atlas.Entries, e)
				if !used[p.Piece] {
					used[p.Piece] = true
					atlas.Pieces = append(atlas.Pieces, published.Piece{Letter: p.Piece, Name: atlasPieceName(variant, p.Piece, tab)})
				}
			}
		}
	}
	if len(atlas.Entries) == 0 {
		return nil, notes, fmt.Errorf("%s: no piece has a value", variant)
	}
	if len(notes) > 0 {
		atlas.Description = strings.Join(notes, "; ")
	}
	for _, method := range atlasSources() {
		if !slices.ContainsFunc(atlas.Entries, func(e published.Entry) bool { return e.Source == method }) {
			continue
		}
		citation, unit, games, positions := "tamerlane's prior-free regression of game results on material over its self-play games ("+prov.Name+")", regressionUnit, v.Games, v.Samples
		switch method {
		case AtlasImbalance:
			citation, unit, games, positions = "H. G. Muller's imbalance matches played by tamerlane ("+prov.Name+")", imbalanceUnit, v.ImbalanceGames, 0
		case AtlasBridged:
			citation, unit, games, positions = "the imbalance matches ("+prov.Name+") in the regression's pawn at the start", bridgedUnit, v.ImbalanceGames, 0
		}
		endRound := 0 // the matches' plan's conclusion, where it stopped a piece
		if method != AtlasRegression {
			endRound = doc.endRound(variant)
		}
		atlas.Sources = append(atlas.Sources, published.Source{ID: method, Citation: citation, Kind: published.Measured, Provenance: &published.Provenance{
			Method: method, Unit: unit, Config: prov.Config, ConfigSHA256: prov.ConfigSHA256, Measurement: prov.Measurement,
			Games: games, Positions: positions, Engine: prov.Engine, Date: prov.Date, Nodes: prov.Nodes, EndRound: endRound}})
	}
	out, err := published.Marshal(atlas, "The piece-value atlas of "+name+" (docs/piece-values.md): the values this project\n"+
		"measured, with 95% intervals and the provenance of each method's figures.\n"+
		"Written by `tamerlane values --run DIR --write-atlas FILE`, not by hand.\n"+
		"Schema: see package tamerlane/values/published.")
	if err != nil {
		return nil, notes, err
	}
	return out, notes, nil
}

// WriteAtlas writes the atlas of variant (Atlas) to path atomically and
// returns the notes on what it left out.
func WriteAtlas(path string, doc *Document, variant string, prov RunProvenance, cat published.Catalog) ([]string, error) {
	b, notes, err := Atlas(doc, variant, prov, cat)
	if err != nil {
		return notes, err
	}
	return notes, fsx.WriteFile(path, b)
}

// ReferenceScale is the scale of a variant's relative values in its
// atlas: the scale its values are cited in (PrimaryScale) when that is
// not P=1, else the knight's, N=1. Values in pawns depend on which pawn is
// the unit (each method has its own); the ratios to a reference piece do
// not, so they are what carries from one source to another.
func ReferenceScale(cat published.Catalog, variant string) published.Scale {
	if sc := PrimaryScale(cat, variant); sc != published.PawnOne {
		return sc
	}
	return published.KnightOne
}

// atlasEstimate returns a piece's estimate of a method in scale sc (nil
// when it has none).
func atlasEstimate(p *PieceValues, method string, sc published.Scale) *stats.Interval {
	switch {
	case method == AtlasBridged && sc == published.PawnOne:
		return p.Bridged
	case method == AtlasBridged:
		// The same ratios as AtlasImbalance: the pawn cancels.
		return nil
	case sc == published.PawnOne && method == AtlasRegression:
		return p.Regression
	case sc == published.PawnOne:
		return p.Imbalance
	}
	x := p.scaled(sc)
	switch {
	case x == nil:
		return nil
	case method == AtlasRegression:
		return x.Regression
	}
	return x.Imbalance
}

// atlasPieceName names a piece class: its published name, else the
// variant's (a pair class "pair.T" as the pair of T's).
func atlasPieceName(variant, piece string, tab *published.Table) string {
	if tab != nil {
		if n, ok := tab.PieceName(piece); ok {
			return n
		}
	}
	if t, ok := strings.CutPrefix(piece, "pair."); ok {
		return "pair of " + atlasPieceName(variant, t, tab) + "s"
	}
	if piece == "P" {
		return "pawn"
	}
	if ev, err := engine.VariantWithRules(variant, ""); err == nil {
		for _, d := range ev.Pieces[1:] {
			if d.Token == piece {
				return strings.ToLower(d.Name)
			}
		}
	}
	return piece
}

// atlasNumber rounds a value to three decimals, as the atlas states it.
func atlasNumber(x float64) float64 {
	return math.Round(x*1000) / 1000
}
