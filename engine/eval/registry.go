package eval

import (
	"fmt"
	"slices"
	"strings"

	"tamerlane/engine"
)

// maxTerms bounds the terms of a registry (a power of two): more than the
// at most 25 terms per piece type and 30 variant-wide terms of a variant
// of 31 piece types on 11x11, the most the engine compiles.
const maxTerms = 1024

// maxPawnCaps bounds the capture leaps that the pawn-capture terms
// (threats by pawns, pawn chains, unsafe mobility) follow.
const maxPawnCaps = 4

// Phase is the fixed-point scale of the game phase: a phase of Phase is
// the opening (all material of the start position on the board), 0 a bare
// endgame. The middlegame part of every term is multiplied by phase/Phase
// and the endgame part by (Phase-phase)/Phase.
const Phase = 256

// term kinds, in the order the registry lists them.
type termKind uint8

const (
	kMaterial termKind = iota
	kMobility
	kCenter
	kAdvance
	kPassed
	kDoubled
	kIsolated
	kAttacked
	kShelter
	kExtraRoyal
	kTempo
	kHanging
	kZone
	kPassedGo
	kPair
	kOpenFile
	kThreat
	kDanger
	kCramped
	kShield
	kPassedPath
	kPawnChain
	kChecks
	kUnsafe
	kFileTable
	kRankTable
)

// term is one positional or material quantity; it owns two weights, its
// middlegame weight (index 2*i) and its endgame weight (index 2*i+1).
type term struct {
	name  string // e.g. "material.N"
	piece string // e.g. "Knight" ("" for variant-wide terms)
	doc   string // e.g. "Knight: centipawns per piece"
	kind  termKind
}

// typeTerms are the term indexes of one piece type (-1: none).
type typeTerms struct {
	material, mobility, center, advance, passed int32
	zone, pair, open, half                      int32
	unsafe                                      int32 // mobility onto squares enemy pawns attack (-1: none)
	crampedBelow                                int32 // mobility under which a piece counts as cramped (0: never)
	pawn, royal                                 bool
	attacksOnly                                 bool // no term reads its mobility counts: only its attacked squares count
	pairSlot                                    int8 // bit pair of the type in pairMask
	// placement tables (placement.go): the term of file k from the
	// nearer edge is fileTab+k, of relative rank k rankTab+k (k >= 1;
	// -1: none)
	fileTab, rankTab int32
}

// Registry is the list of a variant's evaluation features and weight
// names. It is built from the variant's piece table alone, so that every
// variant has the same kinds of terms, and it does not depend on the rule
// options (options change movement only).
//
// Every term has two weights, "<term>.mg" and "<term>.eg": weight 2*i is
// term i's middlegame weight and weight 2*i+1 its endgame weight.
type Registry struct {
	variant string
	base    *engine.Variant // the variant the registry was built from (a built-in at its default options)
	terms   []term
	names   []string
	index   map[string]int
	types   []typeTerms // by PieceType
	// variant-wide terms (-1: none)
	doubled, isolated, attacked, shelter, extraRoyal, tempo, hanging int32
	passedGo, threat, danger, cramped                                int32 // passedGo: first of the bucket terms; danger: -1 without royals
	shield, royalFiles                                               int32 // -1 without royals or pawns
	passedRoyal, passedFree                                          int32 // passedRoyal: "passed.royal.them", then ".us"; -1 without royals or pawns
	pawnChain                                                        int32 // "pawns.supported", then "pawns.phalanx"; -1 without pawns
	checks                                                           int32 // "royal.checks"; -1 without royals
	hasUnsafe                                                        bool  // some type has an unsafe-mobility term
	placeStart                                                       int32 // the first placement-table term (placement.go); every later term is one
	pairTypes                                                        []int32
	threatValue                                                      []int32 // by PieceType: see addFeatureTerms
	// phase
	phaseWeight []int32 // by PieceType
	phaseTotal  int32
}

// RegistryOf returns the registry of v's variant (the same for every rule
// option). A built-in variant's registry is built from its default-option
// form; any other variant (one read from a variant file) is built from v
// itself, its pieces, board, royals and promotions, by the same code. A
// registry is immutable; building one takes microseconds, so callers that
// need it often keep the one their Weights carry.
func RegistryOf(v *engine.Variant) *Registry {
	return buildRegistry(baseVariant(v))
}

// baseVariant returns the variant a registry describes: the default-option
// form of a built-in variant (the registry and the phase weights must not
// depend on rule options), v itself for any other.
func baseVariant(v *engine.Variant) *engine.Variant {
	if slices.Contains(engine.VariantNames(), v.Name) {
		return engine.MustVariant(v.Name, nil)
	}
	return v
}

func buildRegistry(v *engine.Variant) *Registry {
	r := &Registry{variant: v.Name, base: v, index: map[string]int{}}
	n := v.NumTypes()
	r.types = make([]typeTerms, n+1)
	add := func(kind termKind, name, doc string) int32 {
		piece, _, ok := strings.Cut(doc, ": ")
		if !ok {
			piece = ""
		}
		r.terms = append(r.terms, term{name: name, piece: piece, doc: doc, kind: kind})
		return int32(len(r.terms) - 1)
	}
	hasPawn, hasRoyal, royalTypes, promotesToRoyal := false, false, 0, false
	for t := 1; t <= n; t++ {
		d := v.Def(engine.PieceType(t))
		r.types[t] = typeTerms{material: -1, mobility: -1, center: -1, advance: -1, passed: -1, pawn: d.Pawn, royal: d.Royal}
		hasPawn = hasPawn || d.Pawn
		if d.Royal {
			hasRoyal = true
			royalTypes++
		}
		for _, to := range d.To {
			if pt, ok := v.PieceByToken(to); ok && v.Def(pt).Royal {
				promotesToRoyal = true
			}
		}
	}
	for t := 1; t <= n; t++ {
		d := v.Def(engine.PieceType(t))
		r.types[t].material = add(kMaterial, "material."+d.Token, d.Name+": centipawns per piece")
	}
	for t := 1; t <= n; t++ {
		d := v.Def(engine.PieceType(t))
		if !d.Pawn {
			r.types[t].mobility = add(kMobility, "mobility."+d.Token, d.Name+": per square it can move to or capture on")
		}
	}
	for t := 1; t <= n; t++ {
		d := v.Def(engine.PieceType(t))
		r.types[t].center = add(kCenter, "center."+d.Token, d.Name+": per step of centrality (files plus ranks away from the nearest edges)")
	}
	for t := 1; t <= n; t++ {
		d := v.Def(engine.PieceType(t))
		r.types[t].advance = add(kAdvance, "advance."+d.Token, d.Name+": per rank advanced from its own first rank")
	}
	for t := 1; t <= n; t++ {
		d := v.Def(engine.PieceType(t))
		if d.Pawn {
			r.types[t].passed = add(kPassed, "passed."+d.Token, d.Name+": passed, per square of its relative rank (0-based), squared")
		}
	}
	r.doubled, r.isolated, r.attacked, r.shelter, r.extraRoyal = -1, -1, -1, -1, -1
	if hasPawn {
		r.doubled = add(kDoubled, "pawns.doubled", "per pawn beyond the first on a file")
		r.isolated = add(kIsolated, "pawns.isolated", "per pawn with no friendly pawn on an adjacent file")
	}
	if hasRoyal {
		r.attacked = add(kAttacked, "royal.attacked", "per square of a royal's 3x3 neighbourhood (its own square included) attacked by the enemy")
		r.shelter = add(kShelter, "royal.shelter", "per friendly non-royal piece next to a royal")
	}
	if royalTypes > 1 || promotesToRoyal {
		r.extraRoyal = add(kExtraRoyal, "royal.extra", "per royal beyond the first (an extra life, docs/rules.md 3.5)")
	}
	r.tempo = add(kTempo, "tempo", "for the side to move")
	r.hanging = add(kHanging, "threats.hanging", "per non-royal piece attacked by the enemy and defended by no friendly piece")
	r.addFeatureTerms(v, add)
	r.addPlacementTerms(v, add)
	for t := 1; t <= n; t++ {
		tt := &r.types[t]
		tt.attacksOnly = tt.mobility < 0 && tt.unsafe < 0 && tt.crampedBelow <= 0
	}
	if len(r.terms) >= maxTerms || n > 255 {
		panic(fmt.Sprintf("eval: %s has %d terms, fewer than %d allowed", v.Name, len(r.terms), maxTerms))
	}
	for i, tm := range r.terms {
		for j, sfx := range []string{".mg", ".eg"} {
			name := tm.name + sfx
			if _, dup := r.index[name]; dup {
				panic(fmt.Sprintf("eval: duplicate weight name %s in %s", name, v.Name))
			}
			r.index[name] = 2*i + j
			r.names = append(r.names, name)
		}
	}
	// Phase weights: a fixed formula, the number of moves of the piece from
	// the centre of the empty board; pawns and royals weigh nothing. The
	// normaliser is the start position's total.
	r.phaseWeight = make([]int32, n+1)
	for t := 1; t <= n; t++ {
		d := v.Def(engine.PieceType(t))
		if !d.Pawn && !d.Royal {
			r.phaseWeight[t] = int32(emptyBoardMoves(d, v.Files, v.Ranks))
		}
	}
	start := engine.NewPosition(v)
	for c := engine.White; c <= engine.Black; c++ {
		for t := 1; t <= n; t++ {
			r.phaseTotal += r.phaseWeight[t] * int32(start.Count(engine.PieceType(t), c))
		}
	}
	if r.phaseTotal <= 0 {
		r.phaseTotal = 1
	}
	return r
}

// emptyBoardMoves counts the moves of a piece from the centre of an empty
// files x ranks board (double steps left out; a cannon has no captures on
// an empty board).
func emptyBoardMoves(d *engine.PieceDef, files, ranks int) int {
	f0, r0 := (files-1)/2, (ranks-1)/2
	in := func(f, r int) bool { return f >= 0 && f < files && r >= 0 && r < ranks }
	n := 0
	for _, m := range d.Moves {
		if m.Mode == engine.CaptureOnly {
			continue
		}
		df, dr := int(m.DF), int(m.DR)
		switch m.Kind {
		case engine.Leap:
			if in(f0+df, r0+dr) {
				n++
			}
		case engine.Slide:
			for k := 1; in(f0+k*df, r0+k*dr) && (m.Max == 0 || k <= int(m.Max)); k++ {
				if k >= int(m.Min) {
					n++
				}
			}
		case engine.Bent:
			f, r := f0+df, r0+dr
			if !in(f, r) {
				continue
			}
			for k := 1; in(f+k*int(m.TF), r+k*int(m.TR)) && (m.Max == 0 || k <= int(m.Max)); k++ {
				if k >= int(m.Min) {
					n++
				}
			}
		}
	}
	return n
}

// Variant returns the name of the registry's variant.
func (r *Registry) Variant() string { return r.variant }

// BaseVariant returns the variant the registry was built from: a
// built-in variant at its default rule options, or the variant read from
// a file itself.
func (r *Registry) BaseVariant() *engine.Variant { return r.base }

// Len returns the number of weights.
func (r *Registry) Len() int { return len(r.names) }

// Name returns the name of weight i, e.g. "material.N.mg".
func (r *Registry) Name(i int) string { return r.names[i] }

// Names returns a copy of the weight names in index order.
func (r *Registry) Names() []string { return append([]string(nil), r.names...) }

// Index returns the index of the named weight.
func (r *Registry) Index(name string) (int, bool) {
	i, ok := r.index[name]
	return i, ok
}

// Doc describes weight i: what its feature counts and its phase.
func (r *Registry) Doc(i int) string {
	ph := "middlegame"
	if i%2 == 1 {
		ph = "endgame"
	}
	return r.terms[i/2].doc + " (" + ph + ")"
}

// PhaseWeight returns the phase weight of piece type t: its number of moves
// from the centre of the empty board, 0 for pawns and royals.
func (r *Registry) PhaseWeight(t engine.PieceType) int { return int(r.phaseWeight[t]) }

// PhaseTotal returns the start position's total phase weight, which
// normalises the phase.
func (r *Registry) PhaseTotal() int { return int(r.phaseTotal) }

// MaterialIndex returns the index of the middlegame material weight of
// piece type t (the endgame weight is the next index).
func (r *Registry) MaterialIndex(t engine.PieceType) int { return 2 * int(r.types[t].material) }

// ExtraRoyalIndex returns the index of the middlegame weight of royal.extra
// (-1 if the variant has no such term).
func (r *Registry) ExtraRoyalIndex() int {
	if r.extraRoyal < 0 {
		return -1
	}
	return 2 * int(r.extraRoyal)
}
