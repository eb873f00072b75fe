package xboard

import (
	"context"
	"io"
	"strings"
	"testing"

	"tamerlane/internal/fuzztest"
)

// FuzzServer: any sequence of CECP command lines is served without a
// panic and ends at the end of the input, a running search stopped.
// Lines that would only make an execution slow are tamed first: the table
// is 1 MiB (memory commands are dropped).
func FuzzServer(f *testing.F) {
	fuzztest.Server(f, []string{
		"xboard\nprotover 2\nnew\nforce\ne2e4\ne7e5\ngo\n",
		"xboard\nprotover 2\nvariant tamerlane2\nnew\nsd 3\ngo\n",
		"new\nvariant 10x10_shako\nsetboard c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1\nst 1\nusermove e3e4\n",
		"new\nlevel 40 5 0\ntime 3000\notim 3000\nusermove e2e4\n?\nundo\nremove\npost\nnopost\nanalyze\nexit\nquit\n",
		"new\nsetboard 8/8/8/8/8/8/8/K6k w - - 0 1\ngo\nresult 1/2-1/2 {draw}\n",
		"new\nsetboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB9223372036854775807Q9223372036854775807BNR w KQkq - 0 1\ngo\n",
		"new\nst 99999999999999999999\ntime 99999999999999999999\nlevel 40 99999999999999999999 NaN\nsd 99999999999999999999\nsetboard 8/8/8/8/8/8/8/8 w - - 0 1\n",
	}, func(l string) bool {
		return strings.HasPrefix(strings.TrimSpace(l), "memory")
	}, func() func(context.Context, io.Reader, io.Writer) error {
		s := NewServer("fuzz")
		s.hashMiB = 1
		return s.Run
	})
}
