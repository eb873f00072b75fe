package main

import (
	"flag"
	"fmt"
	"strings"

	"tamerlane/selfplay"
)

// engineFlags are the flags that make a match side an outside UCI
// engine: --engine-a CMD, --engine-a-option Name=Value (repeatable),
// the same for b, --tc for both engines' clocks, and --engine-restart.
type engineFlags struct {
	cmd     [2]string
	name    [2]string
	opts    [2]stringList
	tc      string
	restart bool
}

func (e *engineFlags) register(fs *flag.FlagSet) {
	for i, side := range []string{"a", "b"} {
		fs.StringVar(&e.cmd[i], "engine-"+side, "", "player "+strings.ToUpper(side)+" is this outside UCI engine (command and arguments, space-separated) instead of a table")
		fs.StringVar(&e.name[i], "engine-"+side+"-name", "", "player "+strings.ToUpper(side)+"'s engine name in the PGN (default: the command's base name)")
		fs.Var(&e.opts[i], "engine-"+side+"-option", "UCI option Name=Value for engine "+strings.ToUpper(side)+" (repeatable)")
	}
	fs.StringVar(&e.tc, "tc", "", "clock SECONDS+INCREMENT (e.g. 10+0.1) for the outside engines (default: --nodes per move)")
	fs.BoolVar(&e.restart, "engine-restart", false, "start the outside engines afresh for every game, for engines that keep state across ucinewgame (default: a match keeps them from game to game)")
}

// specs returns the engine specs of sides A and B (nil: our engine).
func (e *engineFlags) specs() (a, b *selfplay.EngineSpec, err error) {
	var out [2]*selfplay.EngineSpec
	for i, side := range []string{"a", "b"} {
		s, err := engineSpec("engine-"+side, e.cmd[i], e.name[i], e.opts[i])
		if err != nil {
			return nil, nil, err
		}
		if s != nil {
			s.TC, s.Restart = e.tc, e.restart
		}
		out[i] = s
	}
	if e.tc != "" && out[0] == nil && out[1] == nil {
		return nil, nil, fmt.Errorf("--tc needs --engine-a or --engine-b (this engine's own side plays by --nodes)")
	}
	if e.tc != "" {
		if _, _, err := selfplay.ParseTC(e.tc); err != nil {
			return nil, nil, fmt.Errorf("--%v", err) // "--tc \"NaN+0\": ..."
		}
	}
	if e.restart && out[0] == nil && out[1] == nil {
		return nil, nil, fmt.Errorf("--engine-restart needs --engine-a or --engine-b")
	}
	return out[0], out[1], nil
}

// engineSpec builds the spec of the outside engine given by the flag
// --FLAG CMD (command and arguments, space-separated), --FLAG-name and
// the repeated --FLAG-option Name=Value; nil when CMD is empty.
func engineSpec(flag, cmd, name string, opts stringList) (*selfplay.EngineSpec, error) {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		if len(opts) > 0 || name != "" {
			return nil, fmt.Errorf("--%s-option and --%s-name need --%s", flag, flag, flag)
		}
		return nil, nil
	}
	s := &selfplay.EngineSpec{Cmd: f[0], Args: f[1:], Name: name}
	for _, o := range opts {
		k, v, ok := strings.Cut(o, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("--%s-option %q: want Name=Value", flag, o)
		}
		if s.Options == nil {
			s.Options = map[string]string{}
		}
		s.Options[strings.TrimSpace(k)] = v
	}
	return s, nil
}
