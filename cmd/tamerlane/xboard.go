package main

import (
	"context"
	"io"
	"os"

	"tamerlane/xboard"
)

// runXBoard serves the CECP (XBoard/WinBoard) protocol on stdin and
// stdout (package xboard).
func runXBoard(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("xboard", stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	return xboard.NewServer("tamerlane").Run(ctx, os.Stdin, stdout)
}
