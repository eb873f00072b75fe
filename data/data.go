// Package data embeds the project's data files so that the binary carries
// its defaults: the evaluation tables in weights/ (tuned ones, once
// "tamerlane apply" has copied them in), the hand tables they started from
// in hand/, and the published piece values in published/.
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
