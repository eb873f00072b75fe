package selfplay

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"tamerlane/internal/fsx"
	"tamerlane/variantfile"
)

// PlanName is the file of the run's plan (Plan), written when the run
// starts.
const PlanName = "streams.json"

// planFormat names the format of streams.json.
const planFormat = "tamerlane-selfplay-plan/1"

// Plan is streams.json: the streams a run plays, as Run built them from its
// configuration when it started: which pairs, from which openings, by
// which players, with which seed. Everything that reads a run's games
// (Games, InterimRecords, Merge) takes its streams from here, so reading
// needs neither the configuration's table and opening files nor this
// binary's way of turning a configuration into streams. A run directory
// written before streams.json existed is read through ReadPlan's fallback.
type Plan struct {
	// Format is planFormat.
	Format string `json:"format"`
	// ConfigHash is run.json's config_hash.
	ConfigHash string `json:"config_hash"`
	// Seed is the run seed: pair p of stream s plays with the seed
	// derived from Seed, s's name and p (see deriveSeed).
	Seed uint64 `json:"seed"`
	// Shard is the part of the pairs the run plays ("i/n", Shard.String).
	Shard string `json:"shard"`
	// Streams are the run's streams in the order of its configuration:
	// variants, imbalances, matches.
	Streams []StreamPlan `json:"streams"`
}

// StreamPlan is one stream of a Plan.
type StreamPlan struct {
	// Name is the stream's name, Dir its directory in the run (streamDir).
	Name string `json:"name"`
	// Dir is the stream's directory in the run directory.
	Dir string `json:"dir"`
	// Kind is "selfplay", "imbalance" or "match".
	Kind string `json:"kind"`
	// Variant and Rules give the variant with its rule options
	// (engine.VariantWithRules).
	Variant string `json:"variant"`
	// Rules are the variant's rule options, "k=v,k=v".
	Rules string `json:"rules,omitempty"`
	// Pairs is the stream's number of pairs, PairsPlanned how many of
	// them the run's shard plays (index % n == i).
	Pairs int `json:"pairs"`
	// PairsPlanned is the number of pairs in the run's shard.
	PairsPlanned int `json:"pairs_planned"`
	// First and Second are the stream's two players; the first is White
	// in each pair's first game.
	First SidePlan `json:"first"`
	// Second is the stream's second player.
	Second SidePlan `json:"second"`
	// SameProgram marks a match whose two sides are one program
	// (PlayerSpec.SameProgram).
	SameProgram bool `json:"same_program,omitempty"`
	// Openings says where each pair starts.
	Openings OpeningsPlan `json:"openings"`
	// SPRT is a match's sequential test (nil: none).
	SPRT *SPRTConfig `json:"sprt,omitempty"`
}

// SidePlan is one player of a stream.
type SidePlan struct {
	// Name is the player's name in the PGN.
	Name string `json:"name"`
	// Table is the evaluation table's path ("": the embedded default).
	Table string `json:"table,omitempty"`
	// Engine is the outside engine that plays the side (nil: ours).
	Engine *EngineSpec `json:"engine,omitempty"`
	// Removes are the pieces an imbalance's player does without.
	Removes []string `json:"removes,omitempty"`
}

// OpeningsPlan says where a stream's pairs start: pair p from position
// (Offset + p) mod Positions of File, or without a file from Roots (the
// start of each game of the pair) after a random walk of WalkPlies
// plies.
type OpeningsPlan struct {
	// File is the openings file ("": none).
	File string `json:"file,omitempty"`
	// Positions is the number of positions read from File (0: not known,
	// in a plan rebuilt from an older run's config.yaml).
	Positions int `json:"positions,omitempty"`
	// Offset shifts the positions of File (ImbalanceConfig.OpeningsOffset).
	Offset int `json:"offset,omitempty"`
	// Roots are the FENs of the pair's two games before the walk, when
	// there is no file.
	Roots []string `json:"roots,omitempty"`
	// WalkPlies is the length of the random walk (0: none).
	WalkPlies int `json:"walk_plies,omitempty"`
}

// newPlan describes the streams built from cfg (buildStreams) as
// streams.json records them; hash is the run's configuration hash.
func newPlan(cfg *Config, hash string, streams []*stream) *Plan {
	p := &Plan{Format: planFormat, ConfigHash: hash, Seed: cfg.Seed, Shard: cfg.Shard.String()}
	for _, st := range streams {
		sp := StreamPlan{
			Name: st.name, Dir: st.dir, Kind: st.kind, Variant: st.v.Name, Rules: st.v.Options.String(),
			Pairs: st.pairs, PairsPlanned: st.planned, SameProgram: st.sameProgram,
			First:  SidePlan{Name: st.firstName, Table: st.first.Table, Engine: st.first.Engine, Removes: st.firstRemoves},
			Second: SidePlan{Name: st.secondName, Table: st.second.Table, Engine: st.second.Engine, Removes: st.secondRemoves},
		}
		o := &sp.Openings
		if st.openingsFile != "" {
			o.File, o.Positions, o.Offset = st.openingsFile, st.openingPositions, st.openingsOffset
		} else {
			o.Roots, o.WalkPlies = st.roots[:], cfg.Openings.Plies
		}
		if st.sprt != nil {
			s := st.sprt
			sp.SPRT = &SPRTConfig{Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta, Model: string(s.Model)}
		}
		p.Streams = append(p.Streams, sp)
	}
	return p
}

// ReadPlan reads the plan of the self-play run directory dir. A run begun
// before streams.json was written gets the plan its run.json and config.yaml
// make, the openings files' positions not counted; its table and opening
// files need not be on this machine either.
func ReadPlan(dir string) (*Plan, error) {
	p, err := readPlanFile(dir)
	if p != nil || err != nil {
		return p, err
	}
	sd, err := readRunDir(dir)
	if err != nil {
		return nil, err
	}
	return sd.configPlan()
}

// readPlanFile reads dir's streams.json; a missing file is (nil, nil).
func readPlanFile(dir string) (*Plan, error) {
	var p Plan
	err := fsx.ReadJSON(filepath.Join(dir, PlanName), &p, planFormat)
	switch {
	case err == nil:
		return &p, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	}
	return nil, err
}

// configPlan is the plan of a run directory without streams.json: the
// streams of its config.yaml, without reading their opening files.
func (sd *shardDir) configPlan() (*Plan, error) {
	streams, err := buildStreams(sd.cfg, nil, false)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(sd.dir, ConfigName), err)
	}
	return newPlan(sd.cfg, sd.info.ConfigHash, streams), nil
}

// unsharded returns the plan of the same run played whole, as Merge
// writes it.
func (p *Plan) unsharded() *Plan {
	out := *p
	out.Shard = Shard{}.String()
	out.Streams = append([]StreamPlan(nil), p.Streams...)
	for i := range out.Streams {
		out.Streams[i].PairsPlanned = out.Streams[i].Pairs
	}
	return &out
}

// streams returns the plan's streams as the readers of a run use them:
// their names, players, variants and SPRTs, without openings or players
// to play more pairs. A variant from a variant file is read from the copy
// the run directory dir recorded.
func (p *Plan) streams(dir string) ([]*stream, error) {
	var out []*stream
	for i := range p.Streams {
		st, err := p.Streams[i].stream(dir)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// stream checks a stream of a plan and returns it as a read-only stream
// of the run in dir.
func (sp *StreamPlan) stream(dir string) (*stream, error) {
	switch {
	case sp.Kind != "selfplay" && sp.Kind != "imbalance" && sp.Kind != "match":
		return nil, fmt.Errorf("stream %q: unknown kind %q", sp.Name, sp.Kind)
	case sp.Dir != streamDir(sp.Name):
		return nil, fmt.Errorf("stream %q: directory %q, want %q", sp.Name, sp.Dir, streamDir(sp.Name))
	case sp.Pairs < 0 || sp.PairsPlanned < 0 || sp.PairsPlanned > sp.Pairs:
		return nil, fmt.Errorf("stream %q: %d pairs planned of %d", sp.Name, sp.PairsPlanned, sp.Pairs)
	}
	v, _, err := variantfile.RecordedVariant(dir, sp.Variant, sp.Rules)
	if err != nil {
		return nil, fmt.Errorf("stream %q: %v", sp.Name, err)
	}
	o := &sp.Openings
	st := &stream{
		name: sp.Name, dir: sp.Dir, kind: sp.Kind, v: v, pairs: sp.Pairs, planned: sp.PairsPlanned,
		first:     PlayerSpec{Variant: v, Table: sp.First.Table, Engine: sp.First.Engine},
		second:    PlayerSpec{Variant: v, Table: sp.Second.Table, Engine: sp.Second.Engine},
		firstName: sp.First.Name, secondName: sp.Second.Name, firstRemoves: sp.First.Removes, secondRemoves: sp.Second.Removes,
		sameProgram: sp.SameProgram, openingsFile: o.File, openingPositions: o.Positions, openingsOffset: o.Offset,
	}
	copy(st.roots[:], o.Roots)
	if sp.SPRT != nil {
		s := sp.SPRT.sprt()
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("stream %q: %v", sp.Name, err)
		}
		st.sprt = &s
	}
	return st, nil
}
