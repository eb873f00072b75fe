package published

import (
	"reflect"
	"strings"
	"testing"
)

// TestMarshalRoundTrip: every shipped table (data/published and
// data/measured) written by Marshal parses back to the same table, with
// pieces and values one flow mapping a line and the comment on top.
func TestMarshalRoundTrip(t *testing.T) {
	pub, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	measured, err := EmbeddedMeasured()
	if err != nil || len(measured) == 0 {
		t.Fatalf("data/measured: %d tables (%v)", len(measured), err)
	}
	var tabs []*Table
	for _, c := range []Catalog{pub, measured} {
		for _, tab := range c {
			tabs = append(tabs, tab)
		}
	}
	for _, tab := range tabs {
		name := tab.File
		b, err := Marshal(tab, "line one\nline two")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		back, err := Parse(tab.File, b)
		if err != nil {
			t.Errorf("%s: %v\n%s", name, err, b)
			continue
		}
		clearLines(back)
		want := *tab
		clearLines(&want)
		if !reflect.DeepEqual(back, &want) {
			t.Errorf("%s: the table read back differs:\n got %+v\nwant %+v", name, back, &want)
		}
		text := string(b)
		if !strings.HasPrefix(text, "# line one\n# line two\n") {
			t.Errorf("%s: comment missing:\n%s", name, text)
		}
		if !strings.Contains(text, "\n  - {letter: ") || !strings.Contains(text, "\n  - {piece: ") {
			t.Errorf("%s: pieces or values not one flow mapping a line:\n%s", name, text)
		}
	}
}

// clearLines zeroes what depends on the file's layout (entry lines).
func clearLines(t *Table) {
	t.Entries = append([]Entry(nil), t.Entries...)
	for i := range t.Entries {
		t.Entries[i].Line = 0
	}
}
