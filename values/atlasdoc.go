package values

import (
	"fmt"
	"slices"
	"strings"

	"tamerlane/engine"
	"tamerlane/internal/stats"
	"tamerlane/values/published"
	"tamerlane/values/valueplot"
)

// AtlasMarkdown renders an atlas file as the per-variant section of
// docs/piece-values.md: the provenance of each method, then one table in
// pawns (P=1) and one in the atlas's reference scale (ReferenceScale):
// per piece its name, how it moves (the
// engine's variant table), each method's value with its 95% interval,
// their agreement z (atlasAgreement) and every published figure of pub
// (data/published; nil: none) with its source. file is the atlas's path
// as the reproducing command names it; ev is the variant whose pieces'
// moves the table describes (nil: the built-in variant of the atlas's
// name, if any).
func AtlasMarkdown(tab *published.Table, pub *published.Table, file string, ev *engine.Variant) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Measured values: `%s`, written by `tamerlane values --run DIR --write-atlas %s`; this section by `tamerlane values --atlas %s --markdown`, its plot by `--plot`.\n\n", file, file, file)
	for _, s := range tab.Sources {
		p := s.Provenance
		if p == nil {
			continue
		}
		fmt.Fprintf(&b, "- **%s**: %d games", s.ID, p.Games)
		if p.Positions > 0 {
			fmt.Fprintf(&b, ", %d quiet positions", p.Positions)
		}
		fmt.Fprintf(&b, "; config `%s` (SHA-256 %.12s…); engine %s", p.Config, p.ConfigSHA256, p.Engine)
		if p.Nodes > 0 {
			fmt.Fprintf(&b, " at %d nodes per move", p.Nodes)
		}
		reproduce := "tamerlane measure -c " + p.Config + " -o DIR"
		if p.EndRound > 0 {
			fmt.Fprintf(&b, "; its plan concluded at round %d, before its targets or caps", p.EndRound)
			reproduce += fmt.Sprintf(" -conclude %d", p.EndRound)
		}
		fmt.Fprintf(&b, "; last game %s; reproduce: `%s`. P = 1 is %s.\n", p.Date, reproduce, p.Unit)
	}
	if tab.Description != "" {
		fmt.Fprintf(&b, "\n**Note**: %s.\n", tab.Description)
	}
	if ev == nil {
		ev, _ = engine.VariantWithRules(tab.Variant, "")
	}
	for _, sc := range atlasScales(tab) {
		fmt.Fprintf(&b, "\n**In %s** (95%% intervals; z = (regression − imbalance)/√(SE_r² + SE_i²), each SE read off its interval", sc)
		if sc == published.PawnOne {
			b.WriteString(", each method in its own pawn")
		}
		if sc == published.PawnOne {
			b.WriteString("; the imbalance values again in the regression's pawn at the start, and their z):\n\n| piece | name | how it moves | regression | imbalance | z | imbalance (regression's pawn) | z | published |\n|---|---|---|---|---|---|---|---|---|\n")
		} else {
			b.WriteString("):\n\n| piece | name | how it moves | regression | imbalance | z | published |\n|---|---|---|---|---|---|---|\n")
		}
		for _, pc := range tab.Pieces {
			reg, imb := AtlasInterval(tab, pc.Letter, AtlasRegression, sc), AtlasInterval(tab, pc.Letter, AtlasImbalance, sc)
			regCell, imbCell := atlasCell(tab, pc.Letter, AtlasRegression, sc, reg), atlasCell(tab, pc.Letter, AtlasImbalance, sc, imb)
			if regCell == "–" && imbCell == "–" {
				continue
			}
			bridged := ""
			if sc == published.PawnOne {
				br := AtlasInterval(tab, pc.Letter, AtlasBridged, sc)
				bridged = atlasCell(tab, pc.Letter, AtlasBridged, sc, br) + " | " + FormatZ(agreementZ(reg, br)) + " | "
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s%s |\n", pc.Letter, pc.Name, pieceMoves(ev, pc.Letter), regCell, imbCell,
				FormatZ(agreementZ(reg, imb)), bridged, publishedCell(pub, pc.Letter, sc))
		}
	}
	return b.String()
}

// atlasCell formats a method's value of a piece: its interval, or the
// value alone for a unit ("–" when the atlas has none).
func atlasCell(tab *published.Table, piece, method string, sc published.Scale, iv *stats.Interval) string {
	if iv != nil {
		return iv.Format(2)
	}
	for _, e := range tab.Entries {
		if e.Piece == piece && e.Source == method && e.Scale == sc && e.HasValue {
			return stats.Format(e.Value, 2) + " (unit)"
		}
	}
	return "–"
}

// publishedCell lists every published figure of a piece in scale sc with
// its source and kind.
func publishedCell(pub *published.Table, piece string, sc published.Scale) string {
	if pub == nil {
		return ""
	}
	vs, err := pub.Values(piece, sc)
	if err != nil {
		return ""
	}
	cells := make([]string, len(vs))
	for i, v := range vs {
		cells[i] = fmt.Sprintf("%s (%s, %s)", stats.Format(v.Value, 2), v.Source.ID, v.Source.Kind)
	}
	return strings.Join(cells, "; ")
}

// pieceMoves describes how a piece class moves in the variant: the
// engine's description of the type with that token, or for the pawn
// class "P" of a variant with several pawn types (every pawn type is one
// class, NewClasses) the moves they share and how they differ (nil
// variant or unknown token: "").
func pieceMoves(ev *engine.Variant, token string) string {
	if ev == nil {
		return ""
	}
	var pawns [][]string
	for t := 1; t < len(ev.Pieces); t++ {
		if ev.Pieces[t].Token == token {
			return engine.DescribeMoves(ev, engine.PieceType(t))
		}
		if d := ev.Def(engine.PieceType(t)); token == "P" && d.Pawn {
			pawns = append(pawns, strings.Split(engine.DescribeMoves(ev, engine.PieceType(t)), "; "))
		}
	}
	if len(pawns) == 0 {
		return ""
	}
	var common, differ []string
	for _, p := range pawns {
		for _, part := range p {
			shared := !slices.ContainsFunc(pawns, func(q []string) bool { return !slices.Contains(q, part) })
			switch {
			case shared && !slices.Contains(common, part):
				common = append(common, part)
			case !shared && !slices.Contains(differ, part):
				differ = append(differ, part)
			}
		}
	}
	desc := fmt.Sprintf("%d pawn types, one class: %s", len(pawns), strings.Join(common, "; "))
	if len(differ) > 0 && !slices.ContainsFunc(differ, func(d string) bool { return !strings.Contains(d, "promotes") }) {
		return desc + "; each type its own promotion"
	}
	if len(differ) > 0 {
		desc += "; by type: " + strings.Join(differ, ", ")
	}
	return desc
}

// PlotAtlas writes the atlas's plot to base.png and base.svg: both
// methods' values with their 95% intervals in the atlas's reference scale
// (ReferenceScale: R=5 for Tamerlane II, N=1 where values are cited in
// pawns; P=1 for an atlas without one), beside every published figure of
// pub that can be put in that scale.
func PlotAtlas(base string, tab *published.Table, pub *published.Table) (string, string, error) {
	sc := published.PawnOne
	if scales := atlasScales(tab); len(scales) > 1 {
		sc = scales[1]
	}
	sp, _, _ := sc.Parse()
	var pieces []string
	est := []valueplot.Series{{Label: "regression (this project)"}, {Label: "imbalance matches (this project)"}}
	pubs := newSeriesSet()
	for _, pc := range tab.Pieces {
		if pc.Letter == sp {
			continue // the unit
		}
		any := false
		for k, method := range []string{AtlasRegression, AtlasImbalance} {
			if iv := AtlasInterval(tab, pc.Letter, method, sc); iv != nil {
				est[k].Points = append(est[k].Points, plotPoint(pc.Letter, iv))
				any = true
			}
		}
		if !any {
			continue
		}
		pieces = append(pieces, pc.Letter)
		if pub == nil {
			continue
		}
		vs, _ := pub.Values(pc.Letter, sc)
		for _, v := range vs {
			pubs.add(v.Source.ID+" ("+string(v.Source.Kind)+")", pc.Letter, v.Value)
		}
	}
	name := tab.Name
	if name == "" {
		name = tab.Variant
	}
	return valueplot.WriteFiles(base, pieces, est, pubs.series, valueplot.Options{
		Title: fmt.Sprintf("%s: measured piece values (%s), 95%% intervals", name, sc), YLabel: "value (" + string(sc) + ")"})
}
