package tune

import (
	"tamerlane/engine"
	"tamerlane/engine/eval"
	"tamerlane/engine/search"
)

// QuietLine returns the quiescence function Load uses by default in the
// CLI and the pipeline: the search's quiescence line under the variant's
// embedded table (one searcher per variant; not safe for concurrent use).
func QuietLine() QuietFunc {
	searchers := map[string]*search.Searcher{}
	return func(pos *engine.Position) []engine.Move {
		name := pos.Variant().Name
		s := searchers[name]
		if s == nil {
			w, err := eval.Default(pos.Variant())
			if err != nil {
				return nil
			}
			s = search.New(eval.New(w), 1)
			searchers[name] = s
		}
		return s.QuiescenceLine(pos)
	}
}
