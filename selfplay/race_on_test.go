//go:build race

package selfplay

// raceOn is true in a race-detector build: the determinism tests, whose
// games the detector slows tenfold, then play fewer and shorter ones; the
// full ones run in "go test" without -race.
const raceOn = true
