package main

import (
	"flag"
	"io"
	"strings"
	"testing"
)

// TestEngineFlags: the engine flags build the specs of the sides they
// name (command, arguments, options, clock, restart) and refuse a clock or
// a restart with no outside engine.
func TestEngineFlags(t *testing.T) {
	parse := func(args ...string) (*engineFlags, error) {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var e engineFlags
		e.register(fs)
		return &e, fs.Parse(args)
	}
	e, err := parse("--engine-b", "/opt/fsf/stockfish -x", "--engine-b-option", "Hash=16", "--tc", "10+0.1", "--engine-restart")
	if err != nil {
		t.Fatal(err)
	}
	a, b, err := e.specs()
	if err != nil {
		t.Fatal(err)
	}
	if a != nil || b == nil || b.Cmd != "/opt/fsf/stockfish" || len(b.Args) != 1 || b.Options["Hash"] != "16" || b.TC != "10+0.1" || !b.Restart {
		t.Errorf("specs: a %+v, b %+v", a, b)
	}
	e, _ = parse("--engine-a", "fsf")
	if a, _, _ := e.specs(); a == nil || a.Restart {
		t.Errorf("without --engine-restart: %+v, want an engine kept from game to game", a)
	}
	for _, args := range [][]string{{"--engine-restart"}, {"--tc", "10+0.1"}} {
		e, _ := parse(args...)
		if _, _, err := e.specs(); err == nil || !strings.Contains(err.Error(), "needs --engine-a or --engine-b") {
			t.Errorf("%v: error %v", args, err)
		}
	}
}
