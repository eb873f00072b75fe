//go:build !race

package selfplay

// raceOn is true in a race-detector build (see race_on_test.go).
const raceOn = false
