package selfplay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// jPair is one journal line: a finished game pair.
type jPair struct {
	Pair  int       `json:"pair"`  // pair index, from 0
	Seed  uint64    `json:"seed"`  // the pair's seed (informative)
	Games [2]*jGame `json:"games"` // the first player is White in games[0], Black in games[1]
}

// journalName is the file name of a stream's journal.
const journalName = "journal.jsonl"

// jEntry locates one journal line.
type jEntry struct {
	pair   int
	file   string
	line   int // 1-based line number in file
	off    int64
	length int
}

// where names the entry's line as "file:line" for errors.
func (e jEntry) where() string { return fmt.Sprintf("%s:%d", e.file, e.line) }

// decodePair decodes and checks one journal line.
func decodePair(line []byte) (*jPair, error) {
	var p jPair
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after the record")
	}
	if p.Pair < 0 {
		return nil, fmt.Errorf("negative pair index %d", p.Pair)
	}
	for i, g := range p.Games {
		if g == nil {
			return nil, fmt.Errorf("game %d missing", i)
		}
		if g.Result != "1-0" && g.Result != "0-1" && g.Result != "1/2-1/2" {
			return nil, fmt.Errorf("game %d: bad result %q", i, g.Result)
		}
	}
	return &p, nil
}

// scanJournal reads a journal and returns its entries in file order and
// the length of its valid prefix. A torn or corrupt last line is ignored
// (the pair is played again); a corrupt line elsewhere, or a pair that
// appears twice, is an error naming the file and line. A missing file is
// an empty journal.
func scanJournal(path string) ([]jEntry, int64, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	var out []jEntry
	seen := map[int]int{}
	var off int64
	line := 0
	for len(data) > 0 {
		line++
		i := bytes.IndexByte(data, '\n')
		last := i < 0
		if last {
			// Torn last line: no newline was written.
			return out, off, nil
		}
		rec := data[:i]
		p, err := decodePair(rec)
		if err != nil {
			if len(data) == i+1 || len(bytes.TrimRight(data[i+1:], "\x00\n")) == 0 {
				// A complete but corrupt last line (e.g. zeroed by a crash).
				return out, off, nil
			}
			return nil, 0, fmt.Errorf("%s:%d: corrupt journal line: %v", path, line, err)
		}
		if prev, dup := seen[p.Pair]; dup {
			return nil, 0, fmt.Errorf("%s:%d: pair %d already recorded at line %d", path, line, p.Pair, prev)
		}
		seen[p.Pair] = line
		out = append(out, jEntry{pair: p.Pair, file: path, line: line, off: off, length: i})
		off += int64(i + 1)
		data = data[i+1:]
	}
	return out, off, nil
}

// journal appends finished pairs to a stream's journal file.
type journal struct {
	mu    sync.Mutex
	path  string
	f     *os.File
	off   int64
	lines int // lines in the file
}

// openJournal opens a journal for appending after cutting off a torn last
// line, and returns its entries.
func openJournal(path string) (*journal, []jEntry, error) {
	entries, valid, err := scanJournal(path)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err == nil && st.Size() != valid {
		if err = f.Truncate(valid); err == nil {
			err = f.Sync()
		}
	}
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	return &journal{path: path, f: f, off: valid, lines: len(entries)}, entries, nil
}

// append writes one pair as a single line with a single write, then syncs.
func (j *journal) append(p *jPair) (jEntry, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return jEntry{}, err
	}
	data = append(data, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := j.f.WriteAt(data, j.off); err != nil {
		return jEntry{}, fmt.Errorf("%s: %v", j.path, err)
	}
	if err := j.f.Sync(); err != nil {
		return jEntry{}, fmt.Errorf("%s: %v", j.path, err)
	}
	j.lines++
	e := jEntry{pair: p.Pair, file: j.path, line: j.lines, off: j.off, length: len(data) - 1}
	j.off += int64(len(data))
	return e, nil
}

func (j *journal) close() error { return j.f.Close() }

// readEntry reads and decodes the line an entry locates.
func readEntry(files map[string]*os.File, e jEntry) (*jPair, error) {
	buf, err := readLine(files, e)
	if err != nil {
		return nil, err
	}
	p, err := decodePair(buf)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", e.where(), err)
	}
	return p, nil
}

// readLine reads the raw bytes of the journal line an entry locates,
// keeping the files it opens in files.
func readLine(files map[string]*os.File, e jEntry) ([]byte, error) {
	f := files[e.file]
	if f == nil {
		var err error
		if f, err = os.Open(e.file); err != nil {
			return nil, err
		}
		files[e.file] = f
	}
	buf := make([]byte, e.length)
	if _, err := f.ReadAt(buf, e.off); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %v", e.where(), err)
	}
	if !bytes.HasPrefix(buf, []byte("{")) {
		return nil, fmt.Errorf("%s: not a journal line", e.where())
	}
	return buf, nil
}
