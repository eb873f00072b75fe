package main

import (
	"context"
	"io"
	"os"

	"tamerlane/uci"
)

// runUCI serves the UCI protocol on stdin and stdout (package uci).
func runUCI(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("uci", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return uci.NewServer("tamerlane", "the tamerlane authors").Run(ctx, os.Stdin, stdout)
}
