package uci

import (
	"context"
	"io"
	"strings"
	"testing"

	"tamerlane/internal/fuzztest"
)

// FuzzServer: any sequence of command lines is served without a panic
// and ends at the end of the input, a running search stopped. Lines that
// would only make an execution slow are tamed first: the table is 1 MiB
// (Hash options are dropped). A perft count, like a search, ends with the
// input.
func FuzzServer(f *testing.F) {
	fuzztest.Server(f, []string{
		"uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 3\n",
		"setoption name UCI_Variant value tamerlane2\nucinewgame\nposition startpos\ngo nodes 500\nstop\n",
		"setoption name UCI_Variant value shako\nposition fen c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ERNBQKBNRE/C8C w KQkq - 0 1 moves e3e4\ngo wtime 1000 btime 1000 winc 10 binc 10\n",
		"setoption name Rules value giraffe=2\nsetoption name UCI_Variant value tamerlane\nposition startpos\ngo infinite\nd\nquit\n",
		"position fen 8/8/8/8/8/8/8/K6k w - - 0 1\ngo movetime 5\n",
		"uci\nposition moves e2e4 e7e5\nisready\nposition moves\nd\n",
		"position startpos\ngo perft 20\nisready\nstop\ngo perft 2\ngo perft 20\nquit\n",
		"setoption name UCI_Variant value tamerlane\nposition startpos\ngo perft 9\n",
		"position startpos\ngo depth 0\ngo depth -1\ngo nodes 0\ngo nodes -5\ngo perft 0\ngo mate 0\ngo depth\ngo depth 0 nodes 300\n",
	}, func(l string) bool {
		return strings.Contains(strings.ToLower(l), "hash")
	}, func() func(context.Context, io.Reader, io.Writer) error {
		s := NewServer("fuzz", "fuzz")
		s.hashMiB = 1
		return s.Run
	})
}
