package tune

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"tamerlane/internal/stats"
)

// reference returns the weight combination of a scale's reference piece:
// the Pawn (the mean of all pawn types in variants with several), the
// Knight or the Rook.
func (f *VariantFit) reference(piece string) (map[int]float64, error) {
	v, err := f.variant()
	if err != nil {
		return nil, err
	}
	var refs []PieceValue
	for _, pv := range f.Pieces {
		t, _ := v.PieceByToken(pv.Piece)
		if pv.Piece == piece || (piece == "P" && v.Def(t).Pawn) {
			refs = append(refs, pv)
		}
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("variant %s has no %s", f.Variant, piece)
	}
	coef := map[int]float64{}
	for _, r := range refs {
		rc := r.coef
		if rc == nil {
			rc = f.coefOf(r.Piece)
		}
		for i, c := range rc {
			coef[i] += c / float64(len(refs))
		}
	}
	return coef, nil
}

// HasReference reports whether the fit has the reference piece of a
// scale (Ratio's ref): the piece itself, or a pawn when ref is "P".
func (f *VariantFit) HasReference(ref string) bool {
	_, err := f.reference(ref)
	return err == nil
}

// Ratio returns the value of pv in the scale where the piece ref (a pawn,
// as the mean of all pawn types, when ref is "P") is worth refValue, with
// its 95% interval by the delta method: the engine table's material
// weights as piece values.
func (f *VariantFit) Ratio(pv PieceValue, ref string, refValue float64) (stats.Interval, error) {
	refCoef, err := f.reference(ref)
	if err != nil {
		return stats.Interval{}, err
	}
	if pv.coef == nil {
		pv.coef = f.coefOf(pv.Piece)
	}
	a, b := f.dot(pv.coef), f.dot(refCoef)
	va, vb, cab := f.variance(pv.coef, pv.coef), f.variance(refCoef, refCoef), f.variance(pv.coef, refCoef)
	r := a / b
	vr := r * r * (va/(a*a) + vb/(b*b) - 2*cab/(a*b))
	if a == 0 {
		vr = va / (b * b)
	}
	if vr < 0 {
		vr = 0
	}
	return stats.NewInterval(refValue*r, refValue*math.Sqrt(vr)), nil
}

func (f *VariantFit) coefOf(piece string) map[int]float64 {
	v, err := f.variant()
	if err != nil {
		return nil
	}
	t, ok := v.PieceByToken(piece)
	if !ok {
		return nil
	}
	for i, w := range f.Weights {
		if w.Name == "material."+v.Def(t).Token+".mg" {
			return map[int]float64{i: 0.5, i + 1: 0.5}
		}
	}
	return nil
}

func (f *VariantFit) dot(c map[int]float64) float64 {
	var s float64
	for _, i := range slices.Sorted(maps.Keys(c)) {
		s += c[i] * float64(f.Weights[i].Value)
	}
	return s
}
