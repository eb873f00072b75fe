package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"tamerlane/xboard"
)

// runXBoard serves the CECP (XBoard/WinBoard) protocol on stdin and
// stdout (package xboard).
func runXBoard(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("xboard", stderr)
	var va variantArg
	fs.StringVar(&va.file, "variant-file", "", "a variant file (docs/variant-files.md): offered in the variants feature, sent with setup")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	srv := xboard.NewServer("tamerlane")
	if va.file != "" {
		if err := srv.AddVariantFile(va.file); err != nil {
			return fmt.Errorf("--variant-file: %w", err)
		}
	}
	return srv.Run(ctx, os.Stdin, stdout)
}
