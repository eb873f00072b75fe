// Package data embeds the project's data files so that the binary carries
// its defaults: the evaluation tables in weights/ (tuned ones, once
// "tamerlane apply" has copied them in), the hand tables they started from
// in hand/, the published piece values in published/, and the piece
// values this project measured (the atlas) in measured/.
package data

import "embed"

// Weights holds the default eval tables, one YAML file per variant
// (weights/<variant>.yaml).
//
//go:embed weights
var Weights embed.FS

// Hand holds the hand tables, one YAML file per variant
// (hand/<variant>.yaml): the round-number tables written before any
// tuning, which tests use where an evaluation must not change when tuned
// tables are applied.
//
//go:embed hand
var Hand embed.FS

// Published holds published piece values with their sources
// (published/<variant>.yaml).
//
//go:embed published
var Published embed.FS

// Measured holds the piece values this project measured, the atlas
// (measured/<variant>.yaml, in the format of published/ with intervals
// and provenance), and measured/README.md, which says how they are
// written.
//
//go:embed measured
var Measured embed.FS
