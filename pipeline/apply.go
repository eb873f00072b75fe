package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"tamerlane/engine/eval"
	"tamerlane/internal/fsx"
	"tamerlane/selfplay"
	"tamerlane/tune"
)

// Applied is what Apply did with one variant.
type Applied struct {
	Variant string
	// From is the run's current table, To the destination file.
	From, To string
	// Generation is the generation whose table is current (0: none was
	// accepted).
	Generation int
	// Copied says whether the table was written to To; Reason says why
	// (not).
	Copied bool
	Reason string
	// Note warns when the destination had changed since the run started
	// (it differed from the run's generation-0 table).
	Note string
	// Provenance is the current table's.
	Provenance eval.Provenance
	// Match is the accepting generation's verification (nil: none).
	Match *selfplay.StreamSummary
}

// Apply copies a pipeline run's current tables into the directory to
// (normally data/weights, which the next build embeds): only the variants
// whose current table came from an accepted generation and differs from
// the file in to. The copy's provenance names the run (name, directory,
// config hash), the generation and the run's date, and gives the
// verification match that accepted the table. Writes are atomic. It
// returns one entry per variant of the run.
func Apply(runDir, to string) ([]Applied, error) {
	info, err := ReadInfo(runDir)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(to)
	if err != nil {
		return nil, fmt.Errorf("destination: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("destination %s is not a directory", to)
	}
	current := map[string]int{}
	for g := 1; ; g++ {
		gd := GenDir(runDir, g)
		if _, err := os.Stat(gd); err != nil {
			break
		}
		acc, err := ReadAcceptance(gd)
		if errors.Is(err, os.ErrNotExist) {
			continue // the generation is not decided yet
		}
		if err != nil {
			return nil, err
		}
		for _, d := range acc.Variants {
			if d.Accepted {
				current[d.Variant] = g
			}
		}
	}
	var out []Applied
	for _, v := range info.Variants {
		a := Applied{Variant: v, From: filepath.Join(runDir, TablesDir, v+".yaml"), To: filepath.Join(to, v+".yaml"), Generation: current[v]}
		ev, err := runVariant(runDir, v)
		if err != nil {
			return nil, err
		}
		w, err := eval.LoadFile(ev, a.From)
		if err != nil {
			return nil, err
		}
		a.Provenance = w.Provenance
		cur, err := fsx.ReadFile(a.From, fsx.MaxConfigBytes)
		if err != nil {
			return nil, err
		}
		if a.Generation == 0 {
			a.Reason = "no generation accepted: the current table is the generation-0 table"
			out = append(out, a)
			continue
		}
		gd := GenDir(runDir, a.Generation)
		made, err := fsx.ReadFile(filepath.Join(gd, TablesDir, v+".yaml"), fsx.MaxConfigBytes)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(made, cur) {
			return nil, fmt.Errorf("%s differs from %s, which generation %d accepted: the run directory is inconsistent",
				a.From, filepath.Join(gd, TablesDir, v+".yaml"), a.Generation)
		}
		if sum, err := selfplay.ReadSummary(filepath.Join(gd, "match", v, selfplay.SummaryName)); err == nil && len(sum.Streams) == 1 {
			s := sum.Streams[0]
			a.Match = &s
		}
		w.Provenance.Notes = strings.TrimSpace(w.Provenance.Notes + "\n" + appliedNote(runDir, info, a.Generation, a.Match))
		a.Provenance = w.Provenance
		var buf bytes.Buffer
		if err := w.Write(&buf); err != nil {
			return nil, err
		}
		table := buf.Bytes()
		old, err := fsx.ReadFile(a.To, fsx.MaxConfigBytes)
		switch {
		case err == nil && bytes.Equal(old, table):
			a.Reason = "already in place"
			out = append(out, a)
			continue
		case err != nil && !errors.Is(err, os.ErrNotExist):
			return nil, err
		}
		if gen0, err0 := fsx.ReadFile(filepath.Join(GenDir(runDir, 0), TablesDir, v+".yaml"), fsx.MaxConfigBytes); err0 == nil && err == nil && !bytes.Equal(old, gen0) {
			a.Note = fmt.Sprintf("%s had changed since the run started (it differs from the run's generation-0 table) and was overwritten", a.To)
		}
		if err := fsx.WriteFile(a.To, table); err != nil {
			return nil, err
		}
		a.Copied = true
		a.Reason = fmt.Sprintf("accepted in generation %d", a.Generation)
		out = append(out, a)
	}
	return out, nil
}

// TuneDir finds the tuning report of a run directory: the directory itself
// when it is a tuning run, else the last generation's tune/ of a pipeline
// run that has one.
func TuneDir(run string) (string, error) {
	if _, err := tune.ReadReport(run); err == nil {
		return run, nil
	}
	gens, _ := filepath.Glob(filepath.Join(run, "gen-*", "tune"))
	for i := len(gens) - 1; i >= 0; i-- {
		if _, err := tune.ReadReport(gens[i]); err == nil {
			return gens[i], nil
		}
	}
	_, err := tune.ReadReport(run)
	return "", err
}

// appliedNote is the provenance note Apply adds to a table: which run,
// directory, configuration and generation made it, and the verification
// that accepted it.
func appliedNote(runDir string, info *Info, gen int, m *selfplay.StreamSummary) string {
	dir, err := filepath.Abs(runDir)
	if err != nil {
		dir = runDir
	}
	s := fmt.Sprintf("Applied by tamerlane apply from pipeline run %q (directory %s, config hash %s, created %s), generation %d.",
		info.Name, dir, info.ConfigHash, info.Created, gen)
	if m == nil {
		return s + " Verification: no match was played (accepted without one)."
	}
	s += fmt.Sprintf(" Verification against the previous table: %d pairs, A +%d =%d -%d, Elo %s, nElo %s",
		m.Pairs, m.FirstPlayer.Wins, m.FirstPlayer.Draws, m.FirstPlayer.Losses, m.Elo, m.NElo)
	if m.SPRT != nil {
		s += fmt.Sprintf(", SPRT nElo [%g, %g] LLR %.2f: %s", m.SPRT.Elo0, m.SPRT.Elo1, float64(m.SPRT.LLR), m.SPRT.Decision)
	}
	return s + "."
}
