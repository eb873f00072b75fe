// Package data embeds the project's data files so that the binary carries
// its defaults: the evaluation tables in weights/ and the published piece
// values in published/.
package data

import "embed"

// Weights holds the default eval tables, one YAML file per variant
// (weights/<variant>.yaml).
//
//go:embed weights
var Weights embed.FS

// Published holds published piece values with their sources
// (published/<variant>.yaml).
//
//go:embed published
var Published embed.FS
