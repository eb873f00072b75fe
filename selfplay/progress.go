package selfplay

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress reports finished pairs: a progress bar with an ETA on a
// terminal, plain log lines (every interval or every 5% of the pairs)
// otherwise.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	bar      *progressbar.ProgressBar
	total    int
	done     int
	start    time.Time
	last     time.Time
	lastDone int
	interval time.Duration
}

func newProgress(w io.Writer, total int, interval time.Duration) *progress {
	p := &progress{w: w, total: total, start: time.Now(), interval: interval}
	p.last = p.start
	if p.interval <= 0 {
		p.interval = 10 * time.Second
	}
	if w == nil || total == 0 {
		return p
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("game pairs"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionSetWidth(30),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
		)
		return p
	}
	fmt.Fprintf(w, "selfplay: %d game pairs to play\n", total)
	return p
}

func (p *progress) pairDone() {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if p.bar != nil {
		p.bar.Add(1)
		return
	}
	now := time.Now()
	step := max(1, p.total/20)
	if now.Sub(p.last) < p.interval && p.done-p.lastDone < step && p.done != p.total {
		return
	}
	p.last, p.lastDone = now, p.done
	p.logLine(now)
}

func (p *progress) logLine(now time.Time) {
	el := now.Sub(p.start)
	rate := float64(p.done) / el.Seconds()
	eta := "?"
	if rate > 0 {
		eta = time.Duration(float64(p.total-p.done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "selfplay: %d/%d pairs (%.0f%%), %.0f games/hour, elapsed %s, eta %s\n",
		p.done, p.total, 100*float64(p.done)/float64(p.total), 2*rate*3600, el.Round(time.Second), eta)
}

func (p *progress) finish() {
	if p.w == nil || p.total == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		if p.done < p.total {
			p.bar.Exit()
			fmt.Fprintln(p.w)
		}
		return
	}
	if p.lastDone != p.done {
		p.logLine(time.Now())
	}
}
