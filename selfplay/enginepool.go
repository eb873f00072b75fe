package selfplay

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// enginePool keeps outside engines running between the games of a run,
// as match managers do (cutechess-cli, fastchess), instead of starting
// two processes for every game. Starting Fairy-Stockfish (largeboards
// build) and ending it cost about half a second of CPU and wall time, as
// much as a whole game at 5,000 nodes a move.
//
// A process goes back to the pool only when it has answered everything
// it was sent (ExternalPlayer.idle); the next game that takes it sends
// ucinewgame and waits for readyok, as with a fresh process. An engine
// that timed out, crashed, forfeited or was cancelled is ended, never
// reused. Processes are keyed by everything the handshake set (command,
// arguments, options, variant and rule options), so a process only
// serves players that would have started it the same way.
type enginePool struct {
	mu     sync.Mutex
	idle   map[string][]*idleEngine
	closed bool
}

// idleEngine is a pooled process with what its handshake learned.
type idleEngine struct {
	proc    *process
	combo   map[string]bool
	options map[string]bool
}

// newEnginePool returns an empty pool.
func newEnginePool() *enginePool {
	return &enginePool{idle: map[string][]*idleEngine{}}
}

// wrap returns a factory that builds players with f and lets the
// outside-engine players among them share the pool.
func (ep *enginePool) wrap(f PlayerFactory) PlayerFactory {
	return func(spec PlayerSpec) (Player, error) {
		pl, err := f(spec)
		if xp, ok := pl.(*ExternalPlayer); ok && !xp.spec.Restart {
			xp.pool = ep
		}
		return pl, err
	}
}

// take returns a running process for key, or nil; processes that have
// exited while idle are reaped and skipped.
func (ep *enginePool) take(key string) *idleEngine {
	ep.mu.Lock()
	defer ep.mu.Unlock()
	for list := ep.idle[key]; len(list) > 0; list = ep.idle[key] {
		e := list[len(list)-1]
		ep.idle[key] = list[:len(list)-1]
		if e.proc.running() {
			return e
		}
		e.proc.end()
	}
	return nil
}

// put keeps e for key and reports whether it did (not after close).
func (ep *enginePool) put(key string, e *idleEngine) bool {
	ep.mu.Lock()
	defer ep.mu.Unlock()
	if ep.closed {
		return false
	}
	ep.idle[key] = append(ep.idle[key], e)
	return true
}

// close ends every pooled process; processes given back later are ended
// by their players.
func (ep *enginePool) close() {
	ep.mu.Lock()
	ep.closed = true
	idle := ep.idle
	ep.idle = nil
	ep.mu.Unlock()
	var wg sync.WaitGroup
	for _, list := range idle {
		for _, e := range list {
			wg.Go(e.proc.end)
		}
	}
	wg.Wait()
}

// poolKey identifies the handshake p's engine gets: command, arguments,
// options (sorted), variant and rule options.
func (p *ExternalPlayer) poolKey() string {
	names := make([]string, 0, len(p.spec.Options))
	for n := range p.spec.Options {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "%q %q %s %q", p.spec.Cmd, p.spec.Args, p.v.Name, p.v.Options.String())
	for _, n := range names {
		fmt.Fprintf(&b, " %q=%q", n, p.spec.Options[n])
	}
	return b.String()
}
