package values

import (
	"fmt"
	"math"
	"strings"

	"tamerlane/internal/stats"
	"tamerlane/selfplay"
	"tamerlane/values/published"
)

// CompareDefinition states in one sentence what a Comparison's figures
// are.
const CompareDefinition = "difference = B − A of the same estimate (piece, method, scale, phase band) of two measurements " +
	"that share no games; z = difference/√(SE_A² + SE_B²), the runs' estimates independent; differ: |z| > 1.96; " +
	"Holm's correction per family of estimates; values in pawns (P=1) unless the estimate names another scale"

// Comparison sets the values of two independent measurements side by
// side: a second seed against the first, another player's games, other
// positions for the imbalance matches. It is the values document's
// agreement test between runs instead of between methods.
type Comparison struct {
	// Definition states the figures; A and B are the two roots read.
	Definition string `json:"definition"`
	A          string `json:"a"`
	B          string `json:"b"`
	// Settings are the regression settings both documents were fitted
	// with (Compare refuses documents fitted with different ones).
	Settings RegressionConfig `json:"settings"`
	// Variants are the variants both documents have values for.
	Variants []VariantComparison `json:"variants"`
	// Notes say what differs between the two besides their games: the
	// imbalance matches' positions, runs still playing, variants only one
	// of them has.
	Notes []string `json:"notes,omitempty"`
}

// VariantComparison is one variant's differences.
type VariantComparison struct {
	// Variant is the variant's name; Games and ImbalanceGames count each
	// run's regression and imbalance games (A first).
	Variant        string `json:"variant"`
	Games          [2]int `json:"games"`
	ImbalanceGames [2]int `json:"imbalance_games"`
	// Differences are the estimates both runs have, piece by piece.
	Differences []Difference `json:"differences"`
	// Differ sum up the z of each family of estimates ("regression P=1",
	// "imbalance N=1", "regression by phase", ...), with Holm's
	// correction for the number of pieces compared.
	Differ []Disagreements `json:"differ"`
}

// Difference is one estimate in both runs.
type Difference struct {
	// Piece is the piece's FEN token (or pair class); Estimate names the
	// method, and the scale or phase band when it is not the pooled P=1
	// value: "regression", "imbalance", "regression N=1", "regression
	// phase 0.75-1.00"; or a term of the regression's logistic scale, in
	// logit: "logistic logit at phase 1" (P: a pawn's worth at the start),
	// "logistic logit at phase 0", "logistic logit edge" (White's).
	Piece    string `json:"piece"`
	Estimate string `json:"estimate"`
	// A and B are the two runs' values; Difference is B − A with the
	// standard error of independent estimates; Z is their ratio, Differ
	// |Z| > 1.96.
	A          stats.Interval `json:"a"`
	B          stats.Interval `json:"b"`
	Difference stats.Interval `json:"difference"`
	Z          float64        `json:"z"`
	Differ     bool           `json:"differ"`
}

// Compare returns the differences between documents a and b, measured
// from the self-play run directories aDirs and bDirs (as RunDirs lists
// them, for the independence check; none for a document of PGN files),
// named aRoot and bRoot. Runs that can hold the same games
// (selfplay.SameGames: a run in both, or a copy), and a PGN file sharing
// games with the other side (checkPGNIndependent), are refused: their
// estimates are not independent, and the z would be too small. So are
// documents fitted with different regression settings, whose
// differences would be the settings'.
func Compare(aRoot, bRoot string, a, b *Document, aDirs, bDirs []string) (*Comparison, error) {
	if a.Settings != b.Settings {
		return nil, fmt.Errorf("%s was fitted with %s and %s with %s: compare them with the same settings (tamerlane values flags)", aRoot, a.Settings, bRoot, b.Settings)
	}
	if err := checkIndependent(aDirs, bDirs); err != nil {
		return nil, err
	}
	note, err := checkPGNIndependent(a.PGNFiles, aDirs, b.PGNFiles, bDirs)
	if err != nil {
		return nil, err
	}
	c := &Comparison{Definition: CompareDefinition, A: aRoot, B: bRoot, Settings: a.Settings}
	if note != "" {
		c.Notes = append(c.Notes, note)
	}
	for _, d := range a.InProgress {
		c.Notes = append(c.Notes, fmt.Sprintf("A: %s is still playing (or was stopped): its values are interim", d))
	}
	for _, d := range b.InProgress {
		c.Notes = append(c.Notes, fmt.Sprintf("B: %s is still playing (or was stopped): its values are interim", d))
	}
	for i := range a.Variants {
		va := &a.Variants[i]
		vb := b.Variant(va.Variant)
		if vb == nil {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: only A has values", va.Variant))
			continue
		}
		if va.ImbalanceGames > 0 && vb.ImbalanceGames > 0 && sourceID(va.ImbalanceOpenings) != sourceID(vb.ImbalanceOpenings) {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: the imbalance matches start from %s in A and from %s in B: they measure the pieces at different stages of the game",
				va.Variant, openingsName(va.ImbalanceOpenings), openingsName(vb.ImbalanceOpenings)))
		}
		c.Variants = append(c.Variants, compareVariant(va, vb))
	}
	for i := range b.Variants {
		if a.Variant(b.Variants[i].Variant) == nil {
			c.Notes = append(c.Notes, fmt.Sprintf("%s: only B has values", b.Variants[i].Variant))
		}
	}
	return c, nil
}

// openingsName names where imbalance matches start: a file, or the array.
func openingsName(file string) string {
	if file == "" {
		return "the start array"
	}
	return file
}

// checkIndependent refuses two sets of runs of which one run in each can
// hold the same games.
func checkIndependent(aDirs, bDirs []string) error {
	ids := make([]*selfplay.Identity, len(aDirs))
	for i, d := range aDirs {
		id, err := selfplay.ReadIdentity(d)
		if err != nil {
			return err
		}
		ids[i] = id
	}
	for _, d := range bDirs {
		id, err := selfplay.ReadIdentity(d)
		if err != nil {
			return err
		}
		for _, prev := range ids {
			if selfplay.SameGames(prev, id) {
				return fmt.Errorf("%s (A) and %s (B) can hold the same games (configuration hash %.12s, shards %s and %s): "+
					"the two measurements are not independent; compare runs that share no games", prev.Dir, d, id.ConfigHash, prev.Shard, id.Shard)
			}
		}
	}
	return nil
}

// compareVariant returns the differences of the pieces both documents of
// a variant have, in A's order.
func compareVariant(a, b *VariantValues) VariantComparison {
	vc := VariantComparison{Variant: a.Variant, Games: [2]int{a.Games, b.Games}, ImbalanceGames: [2]int{a.ImbalanceGames, b.ImbalanceGames}, Differences: []Difference{}}
	var ts []familyTest
	// add appends the difference of an estimate both runs have, tested in
	// family under label.
	add := func(family, label, piece, estimate string, x, y *stats.Interval) {
		if d, ok := difference(piece, estimate, x, y); ok {
			z := d.Z
			vc.Differences = append(vc.Differences, d)
			ts = append(ts, familyTest{family, label, &z})
		}
	}
	if la, lb := a.Logistic, b.Logistic; la != nil && lb != nil {
		add("logistic", "P at phase 1", "P", "logistic logit at phase 1", la.PawnAtStart, lb.PawnAtStart)
		add("logistic", "P at phase 0", "P", "logistic logit at phase 0", la.PawnAtEnd, lb.PawnAtEnd)
		add("logistic", "White edge", "White", "logistic logit edge", la.WhiteEdge, lb.WhiteEdge)
	}
	if sa, sb := a.Scored, b.Scored; sa != nil && sb != nil {
		add("scored pawn up", "P up", "P", "scored pawn-up score", &sa.PawnUp.Score, &sb.PawnUp.Score)
	}
	for i := range a.Pieces {
		pa := &a.Pieces[i]
		pb := b.Piece(pa.Piece)
		if pb == nil {
			continue
		}
		x := pa.Piece
		add("regression "+Scale, x, x, "regression", pa.Regression, pb.Regression)
		add("imbalance "+Scale, x, x, "imbalance", pa.Imbalance, pb.Imbalance)
		add("scored "+Scale, x, x, "scored", pa.Scored, pb.Scored)
		for _, sa := range pa.Scaled {
			if sb := pb.scaled(published.Scale(sa.Scale)); sb != nil {
				add("regression "+sa.Scale, x, x, "regression "+sa.Scale, sa.Regression, sb.Regression)
				add("imbalance "+sa.Scale, x, x, "imbalance "+sa.Scale, sa.Imbalance, sb.Imbalance)
				add("scored "+sa.Scale, x, x, "scored "+sa.Scale, sa.Scored, sb.Scored)
			}
		}
		for _, ba := range pa.ByPhase {
			for _, bb := range pb.ByPhase {
				if ba.Band == bb.Band {
					add("regression by phase", x+" "+ba.Band.String(), x, "regression phase "+ba.Band.String(), ba.Value, bb.Value)
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

// difference returns B − A of an estimate both runs have with a standard
// error (false otherwise: a unit such as the pawn in P=1 has none); its z
// is agreementZ's, B against A.
func difference(piece, estimate string, a, b *stats.Interval) (Difference, bool) {
	z := agreementZ(b, a)
	if z == nil || math.IsNaN(*z) {
		return Difference{}, false
	}
	diff := float64(b.Value - a.Value)
	se := math.Hypot(float64(a.SE), float64(b.SE))
	return Difference{Piece: piece, Estimate: estimate, A: *a, B: *b, Difference: stats.NewInterval(diff, se), Z: *z, Differ: math.Abs(*z) > stats.Z95}, true
}

// Markdown renders the comparison: per variant a table of every estimate
// both runs have, then the families' counts of differences.
func (c *Comparison) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Values of B against A\n\nA: %s\nB: %s\n\nRegression settings (both): %s. %s.\n", c.A, c.B, c.Settings, CompareDefinition)
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "\nNote: %s.", n)
	}
	if len(c.Notes) > 0 {
		b.WriteString("\n")
	}
	for _, v := range c.Variants {
		differencesMarkdown(&b, v, [2]string{"A", "B"}, "B − A", "if the runs measure the same values")
	}
	return b.String()
}

// differencesMarkdown writes a variant's differences between two
// measurements named names (A first): the games of each, a table of
// every estimate both have with diff naming the difference's column, and
// the families' counts of differences, expected by chance under the
// hypothesis null.
func differencesMarkdown(b *strings.Builder, v VariantComparison, names [2]string, diff, null string) {
	fmt.Fprintf(b, "\n## %s\n\nGames: %s %d regression, %d imbalance; %s %d regression, %d imbalance.\n\n", v.Variant, names[0], v.Games[0], v.ImbalanceGames[0], names[1], v.Games[1], v.ImbalanceGames[1])
	if len(v.Differences) == 0 {
		b.WriteString("No estimate in both.\n")
		return
	}
	fmt.Fprintf(b, "| piece | estimate | %s | %s | %s | z |\n|---|---|---|---|---|---|\n", names[0], names[1], diff)
	for _, d := range v.Differences {
		z := d.Z
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s |\n", d.Piece, d.Estimate, d.A.Format(2), d.B.Format(2), formatDifference(d.Difference), strings.Replace(FormatZ(&z), "disagree", "differ", 1))
	}
	fmt.Fprintf(b, "\nDifferences at 95%%, per family (the number expected by chance %s; those that still differ at a family-wise 5%%, Holm's correction):", null)
	for _, d := range v.Differ {
		fmt.Fprintf(b, "\n- %s", d)
	}
	b.WriteString("\n")
}

// formatDifference prints "+0.12 [-0.05, +0.29]": a difference with its sign.
func formatDifference(iv stats.Interval) string {
	return fmt.Sprintf("%+.2f [%+.2f, %+.2f]", float64(iv.Value), float64(iv.Lo), float64(iv.Hi))
}
