// Package configs embeds the pipeline configurations of this directory
// (see package tamerlane/pipeline): default.yaml, which "tamerlane
// run" uses when no -c is given, hour.yaml, shared.yaml (the variants
// Fairy-Stockfish also plays), overnight.yaml and calibration-chess.yaml.
package configs

import "embed"

// FS holds the configuration files, by base name.
//
//go:embed *.yaml
var FS embed.FS
