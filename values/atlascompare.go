package values

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"tamerlane/internal/stats"
	"tamerlane/values/published"
)

// AtlasCompareDefinition states in one sentence what an
// AtlasComparison's figures are.
const AtlasCompareDefinition = "difference = this run − the atlas of the same estimate (piece, method, scale); " +
	"z = difference/√(SE_run² + SE_atlas²), where SE_atlas = (hi − lo)/(2·1.96): the atlas's interval read as a normal 95% interval; " +
	"differ: |z| > 1.96; Holm's correction per family of estimates; the run shares no games with the atlas's measurement " +
	"(a run the atlas records as its own is refused); each method in its own pawn (P=1) and in the atlas's reference scale (the variant's cited scale, else N=1)"

// AtlasComparison sets the values of a measurement beside the atlas's
// (data/measured): a new run, another player's games or another node
// budget against what the project published.
type AtlasComparison struct {
	// Definition states the figures; Run is the root read, Atlas the
	// atlas (a file, or the embedded data/measured).
	Definition string `json:"definition"`
	Run        string `json:"run"`
	Atlas      string `json:"atlas"`
	// Variants are the variants both have values for; in each, A is the
	// atlas and B the run (Games and ImbalanceGames as the atlas's
	// provenance and the run's document count them).
	Variants []VariantComparison `json:"variants"`
	// Notes name the variants only one of them has, and runs still
	// playing.
	Notes []string `json:"notes,omitempty"`
}

// CompareAtlas returns the differences between the run's document and
// the atlas's tables (one per variant), named run and atlasName. The
// run's games are those of the measurements whose hashes are runHashes
// (MeasurementHashes); an atlas entry measured from one of them is
// refused: the two would not be independent.
func CompareAtlas(run, atlasName string, doc *Document, atlas published.Catalog, runHashes []string) (*AtlasComparison, error) {
	for _, tab := range atlas {
		for _, s := range tab.Sources {
			if p := s.Provenance; p != nil && p.Measurement != "" && slices.Contains(runHashes, p.Measurement) {
				return nil, fmt.Errorf("%s holds the games the atlas's %s %s values were measured from (measurement hash %.12s): they are not independent; compare a run that shares no games with it", run, tab.Variant, s.ID, p.Measurement)
			}
		}
	}
	c := &AtlasComparison{Definition: AtlasCompareDefinition, Run: run, Atlas: atlasName, Variants: []VariantComparison{}}
	for _, d := range doc.InProgress {
		c.Notes = append(c.Notes, fmt.Sprintf("%s is still playing (or was stopped): its values are interim", d))
	}
	for i := range doc.Variants {
		v := &doc.Variants[i]
		tab := atlas[v.Variant]
		if tab == nil {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: the atlas has no entry for this variant", v.Variant))
			continue
		}
		c.Variants = append(c.Variants, compareWithAtlas(v, tab))
	}
	var only []string
	for name := range atlas {
		if doc.Variant(name) == nil {
			only = append(only, name)
		}
	}
	sort.Strings(only)
	for _, name := range only {
		c.Notes = append(c.Notes, fmt.Sprintf("%s: only the atlas has values", name))
	}
	return c, nil
}

// compareWithAtlas returns the differences of a variant's estimates the
// atlas also has, in the run's order of pieces.
func compareWithAtlas(v *VariantValues, tab *published.Table) VariantComparison {
	vc := VariantComparison{Variant: v.Variant, Games: [2]int{atlasGames(tab, AtlasRegression), v.Games},
		ImbalanceGames: [2]int{atlasGames(tab, AtlasImbalance), v.ImbalanceGames}, Differences: []Difference{}}
	var ts []familyTest
	for k := range v.Pieces {
		p := &v.Pieces[k]
		for _, sc := range atlasScales(tab) {
			for _, method := range []string{AtlasRegression, AtlasImbalance} {
				a := AtlasInterval(tab, p.Piece, method, sc)
				estimate := method
				if sc != published.PawnOne {
					estimate += " " + string(sc)
				}
				if d, ok := difference(p.Piece, estimate, a, atlasEstimate(p, method, sc)); ok {
					z := d.Z
					vc.Differences = append(vc.Differences, d)
					ts = append(ts, familyTest{estimate, p.Piece, &z})
				}
			}
		}
	}
	vc.Differ = families(ts)
	if vc.Differ == nil {
		vc.Differ = []Disagreements{}
	}
	return vc
}

// AtlasInterval returns the atlas's value of a piece by a method in
// scale sc as an interval whose SE is the 95% interval's half-width over
// 1.96 (nil when the atlas states none, or no interval: the unit).
func AtlasInterval(tab *published.Table, piece, method string, sc published.Scale) *stats.Interval {
	for _, e := range tab.Entries {
		if e.Piece == piece && e.Source == method && e.Scale == sc && e.HasValue && e.HasInterval {
			return &stats.Interval{Value: stats.Float(e.Value), Lo: stats.Float(e.Lo), Hi: stats.Float(e.Hi), SE: stats.Float((e.Hi - e.Lo) / (2 * stats.Z95))}
		}
	}
	return nil
}

// atlasScales returns the scales an atlas states its values in, P=1
// first.
func atlasScales(tab *published.Table) []published.Scale {
	out := []published.Scale{published.PawnOne}
	for _, e := range tab.Entries {
		if e.HasValue && !slices.Contains(out, e.Scale) {
			out = append(out, e.Scale)
		}
	}
	return out
}

// atlasGames returns the games of a method's source in the atlas (0
// without it).
func atlasGames(tab *published.Table, method string) int {
	if s, ok := tab.Source(method); ok && s.Provenance != nil {
		return s.Provenance.Games
	}
	return 0
}

// AtlasLabel names an atlas's measurement for tables and legends:
// "atlas (data/measured, DATE, N games)", the games of both methods.
func AtlasLabel(tab *published.Table) string {
	date, games := "", 0
	for _, s := range tab.Sources {
		if p := s.Provenance; p != nil {
			if p.Method != AtlasBridged { // the imbalance games again, in another pawn
				games += p.Games
			}
			if p.Date > date {
				date = p.Date
			}
		}
	}
	return fmt.Sprintf("atlas (data/measured, %s, %d games)", date, games)
}

// Markdown renders the comparison: per variant a table of every estimate
// both have, then the families' counts of differences.
func (c *AtlasComparison) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Values of this run against the atlas\n\nRun: %s\nAtlas: %s\n\n%s.\n", c.Run, c.Atlas, c.Definition)
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "\nNote: %s.", n)
	}
	if len(c.Notes) > 0 {
		b.WriteString("\n")
	}
	for _, v := range c.Variants {
		differencesMarkdown(&b, v, [2]string{"the atlas", "this run"}, "run − atlas", "if the run measures the atlas's values")
	}
	return b.String()
}
