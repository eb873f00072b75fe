// Package docs holds the project's documents; its test checks that they
// and the code point only at what exists.
package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// root is the repository, the parent of this folder.
const root = ".."

// textFiles returns the repository's files whose names end in one of
// exts, relative to root, leaving out hidden folders and test data.
func textFiles(t *testing.T, exts ...string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		for _, e := range exts {
			if !d.IsDir() && strings.HasSuffix(p, e) {
				out = append(out, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no %v files under %s", exts, root)
	}
	return out
}

// read returns a file's text.
func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	headingRE = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	inlineRE  = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	linkRE    = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	codeRE    = regexp.MustCompile("`[^`]*`")
)

// prose returns the lines of a Markdown text with those of fenced code
// blocks (fences included) blank, so that line i+1 of the file is [i].
func prose(text string) []string {
	lines := strings.Split(text, "\n")
	fenced := false
	for i, line := range lines {
		fence := strings.HasPrefix(strings.TrimSpace(line), "```")
		if fence {
			fenced = !fenced
		}
		if fence || fenced {
			lines[i] = ""
		}
	}
	return lines
}

// slug is the anchor GitHub gives a heading: its text (a link's text in
// place of the link) in lower case, without punctuation, spaces turned
// into hyphens.
func slug(heading string) string {
	heading = inlineRE.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// anchors returns the anchors of a Markdown text's headings, a repeated
// one numbered as GitHub numbers it ("x", "x-1", ...).
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, line := range prose(text) {
		m := headingRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[s+"-"+strconv.Itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

// TestLinksResolve: every relative link of every Markdown file names a
// file or folder of the repository and, with an anchor, a heading of
// that file (a link within a file included).
func TestLinksResolve(t *testing.T) {
	checked := 0
	for _, md := range textFiles(t, ".md") {
		for i, line := range prose(read(t, md)) {
			for _, m := range linkRE.FindAllStringSubmatch(codeRE.ReplaceAllString(line, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				file, anchor, _ := strings.Cut(target, "#")
				path := md
				if file != "" {
					path = filepath.Join(filepath.Dir(md), file)
					if _, err := os.Stat(path); err != nil {
						t.Errorf("%s:%d: link %s: no such file or folder", md, i+1, target)
						continue
					}
				}
				if anchor != "" && strings.HasSuffix(path, ".md") && !anchors(read(t, path))[anchor] {
					t.Errorf("%s:%d: link %s: %s has no heading with that anchor", md, i+1, target, path)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found")
	}
}

// rulesCitationRE matches a citation of the rules reference, "rules.md"
// followed by one or more section numbers ("docs/rules.md 3.4.1, 3.7 and
// 5.1"), in text whose comment markers between lines have been removed.
var rulesCitationRE = regexp.MustCompile(`(?i)rules\.md,?\s+(\d+(?:\.\d+)*(?:(?:,\s*|,?\s+and\s+|,?\s+or\s+)\d+(?:\.\d+)*)*)`)

// sectionsOf returns the sections of the rules reference: its numbered
// headings ("3.4") and the numbered items of their lists ("3.4.2").
func sectionsOf(text string) map[string]bool {
	out := map[string]bool{}
	heading := regexp.MustCompile(`^#{2,3}\s+(\d+(?:\.\d+)?)[.\s]`)
	item := regexp.MustCompile(`^\s*(\d+)\.\s`)
	current := ""
	for _, line := range prose(text) {
		if m := heading.FindStringSubmatch(line); m != nil {
			current = m[1]
			out[current] = true
		} else if m := item.FindStringSubmatch(line); m != nil && current != "" {
			out[current+"."+m[1]] = true
		}
	}
	return out
}

// TestRulesCitationsResolve: every citation of the rules reference in
// the code and the documents ("docs/rules.md 3.7", or the RULES.md the
// project was specified against, which has the same numbers) names a
// section of docs/rules.md or a numbered item of one.
func TestRulesCitationsResolve(t *testing.T) {
	sections := sectionsOf(read(t, filepath.Join(root, "docs", "rules.md")))
	for _, want := range []string{"1", "2.6", "3.4", "3.4.2", "3.8", "5.3", "6"} {
		if !sections[want] {
			t.Fatalf("docs/rules.md: no section %s among %v", want, sections)
		}
	}
	continuation := regexp.MustCompile(`\n\s*(//|\*|#)?\s*`)
	number := regexp.MustCompile(`\d+(?:\.\d+)*`)
	cited := 0
	for _, f := range textFiles(t, ".go", ".md") {
		text := continuation.ReplaceAllString(read(t, f), " ")
		for _, m := range rulesCitationRE.FindAllStringSubmatch(text, -1) {
			for _, n := range number.FindAllString(m[1], -1) {
				cited++
				if !sections[n] {
					t.Errorf("%s: %q cites section %s, which docs/rules.md does not have", f, m[0], n)
				}
			}
		}
	}
	if cited < 100 {
		t.Errorf("only %d citations of the rules reference found", cited)
	}
}
