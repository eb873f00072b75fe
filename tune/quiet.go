package tune

import (
	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/engine/search"
)

// QuietLine returns the quiescence function Load and LoadMoves use in the
// CLI and the pipeline: the search's quiescence line under the table that
// table gives for the variant (nil: the variant's embedded table). Passed
// the fit's starting table (Options.Start), it resolves the positions the
// way the table being refitted plays them, whatever table this binary
// embeds. One searcher per variant; not safe for concurrent use. A table
// that fails to load leaves the positions as they are (the fit then fails
// loading the same table as its start).
func QuietLine(table func(*engine.Variant) (*eval.Weights, error)) QuietFunc {
	if table == nil {
		table = eval.Default
	}
	searchers := map[string]*search.Searcher{} // nil: the table failed to load
	return func(pos *engine.Position) []engine.Move {
		name := pos.Variant().Name
		s, tried := searchers[name]
		if !tried {
			if w, err := table(pos.Variant()); err == nil {
				s = search.New(eval.New(w), 1)
			}
			searchers[name] = s // a failure is not retried position by position
		}
		if s == nil {
			return nil
		}
		return s.QuiescenceLine(pos)
	}
}
