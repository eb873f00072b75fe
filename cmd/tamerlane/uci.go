package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"tamerlane/uci"
)

// runUCI serves the UCI protocol on stdin and stdout (package uci).
func runUCI(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("uci", stderr)
	var va variantArg
	fs.StringVar(&va.file, "variant-file", "", "a variant file (docs/variant-files.md): offered as a UCI_Variant and played from the start")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	srv := uci.NewServer("tamerlane", "the tamerlane authors")
	if va.file != "" {
		if err := srv.AddVariantFile(va.file); err != nil {
			return fmt.Errorf("--variant-file: %w", err)
		}
	}
	return srv.Run(ctx, os.Stdin, stdout)
}
