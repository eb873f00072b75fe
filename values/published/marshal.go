package published

import (
	"bytes"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Marshal writes t in the file format Parse reads, with comment (lines
// without their "# ") above the document: pieces and values one flow
// mapping a line, as the hand-written files have them, and every field
// Parse would read as absent left out. The result is parsed back, so
// that Marshal never writes a file Parse refuses.
func Marshal(t *Table, comment string) ([]byte, error) {
	doc := fileDoc{Variant: t.Variant, Name: t.Name, Description: t.Description, CitedScale: t.CitedScale}
	for _, p := range t.Pieces {
		doc.Pieces = append(doc.Pieces, filePiece(p))
	}
	for _, s := range t.Sources {
		doc.Sources = append(doc.Sources, fileSource(s))
	}
	for _, e := range t.Entries {
		v := fileValue{Piece: e.Piece, Source: e.Source, Scale: e.Scale, Note: e.Note}
		if e.HasValue {
			v.Value = &e.Value
		}
		if e.HasInterval {
			v.Lo, v.Hi = &e.Lo, &e.Hi
		}
		if e.Rank != 0 {
			v.Rank = &e.Rank
		}
		doc.Values = append(doc.Values, v)
	}
	var root yaml.Node
	if err := root.Encode(&doc); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Variant, err)
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i].Value; k == "pieces" || k == "values" {
			for _, item := range root.Content[i+1].Content {
				item.Style = yaml.FlowStyle
			}
		}
	}
	if comment != "" {
		root.HeadComment = "# " + strings.ReplaceAll(strings.TrimRight(comment, "\n"), "\n", "\n# ")
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Variant, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("%s: %w", t.Variant, err)
	}
	if _, err := Parse(t.Variant+".yaml", b.Bytes()); err != nil {
		return nil, fmt.Errorf("the file written for %s does not parse: %w", t.Variant, err)
	}
	return b.Bytes(), nil
}
