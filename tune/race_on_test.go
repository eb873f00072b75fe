//go:build race

package tune

// raceOn is true in a race-detector build: the exhaustive single-goroutine
// checks then run their short workload, since the detector multiplies
// their time and finds nothing in code without goroutines; their full
// workload runs in "go test ./..." without -race.
const raceOn = true
