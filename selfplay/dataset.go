package selfplay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"

	"tamerlane/internal/fsx"
)

// Record is one sampled position of the data set (positions.jsonl).
//
// The file holds one JSON object per line, in pair order and, within a
// game, in ply order. Its fields:
//
//   - fen: the position, in the variant's FEN;
//   - result: the game's result from White's view: 1, 0.5 or 0;
//   - score: the search score of the player to move in centipawns,
//     converted to White's view;
//   - mate: present only when the search found a mate: the distance in
//     moves from White's view (positive: White mates);
//   - ply: plies from the game's root position (the variant's start, or the
//     PGN's FEN tag) to this position, opening moves included;
//   - game: the game's id, 2·pair + g (g = 0 for the pair's first game),
//     the GameId tag of the PGN; unique within the file;
//   - variant and rules: the variant's name and its rule options in
//     canonical "k=v,k=v" form (every option, defaults included).
//
// The keys appear in that order, for example:
//
//	{"fen":"...","result":0.5,"score":-23,"ply":31,"game":14,"variant":"tamerlane","rules":"citadels=on,..."}
type Record struct {
	FEN     string  `json:"fen"`
	Result  float64 `json:"result"`
	Score   int     `json:"score"`
	Mate    int     `json:"mate,omitempty"`
	Ply     int     `json:"ply"`
	Game    int64   `json:"game"`
	Variant string  `json:"variant"`
	Rules   string  `json:"rules"`
}

// ScanDataset reads data-set records from r and calls fn for each; name is
// used in errors, which give the line. It stops at fn's first error.
func ScanDataset(r io.Reader, name string, fn func(Record) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	line := 0
	for {
		b, err := br.ReadBytes('\n')
		if len(b) > 0 {
			line++
			if b[len(b)-1] != '\n' {
				return fmt.Errorf("%s:%d: truncated record (no end of line)", name, line)
			}
			if len(bytes.TrimSpace(b)) == 0 {
				return fmt.Errorf("%s:%d: empty line", name, line)
			}
			var rec Record
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.DisallowUnknownFields()
			if derr := dec.Decode(&rec); derr != nil {
				return fmt.Errorf("%s:%d: %v", name, line, derr)
			}
			if rec.FEN == "" || rec.Variant == "" {
				return fmt.Errorf("%s:%d: record without fen or variant", name, line)
			}
			if rec.Result != 0 && rec.Result != 0.5 && rec.Result != 1 {
				return fmt.Errorf("%s:%d: result %v is not 0, 0.5 or 1", name, line, rec.Result)
			}
			if ferr := fn(rec); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %v", name, line+1, err)
		}
	}
}

// errStop ends a scan early without an error.
var errStop = errors.New("stop")

// Records iterates over the records of a data-set file (a regular file:
// fsx.Open); a failure is yielded once, with a zero Record, as the last
// element.
func Records(path string) iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		f, err := fsx.Open(path)
		if err != nil {
			yield(Record{}, err)
			return
		}
		defer f.Close()
		err = ScanDataset(f, path, func(r Record) error {
			if !yield(r, nil) {
				return errStop
			}
			return nil
		})
		if err != nil && !errors.Is(err, errStop) {
			yield(Record{}, err)
		}
	}
}

// ReadDataset reads a whole data-set file. Errors name the file and line.
func ReadDataset(path string) ([]Record, error) {
	var out []Record
	for r, err := range Records(path) {
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
