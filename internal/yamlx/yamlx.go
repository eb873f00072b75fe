// Package yamlx is the project's one strict YAML decoder, used by every
// configuration file: unknown fields, repeated keys and values of the
// wrong type are errors naming the file, the line and the field's full
// path ("run.yaml:7: selfplay.variants[1].pairs: ..."), and a Source
// remembers where each field was so that later range checks can name the
// line too. It checks the document against the Go type by walking
// go.yaml.in/yaml/v3's node tree, not by reading the decoder's messages.
package yamlx

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"tamerlane/internal/fsx"
)

// Error is one mistake in a YAML file: the file and line (0 when unknown)
// and the field's path, e.g. "variants[1].pairs".
type Error struct {
	File  string
	Line  int
	Field string
	Msg   string
}

// Error formats the mistake as "file:line: field: message".
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Source remembers where each field of a decoded file was. A Source made
// by Sub sees the fields under a prefix: its paths are relative to it,
// its errors carry the full path.
type Source struct {
	file   string
	dir    string
	prefix string                // "" or "selfplay." etc.
	lines  map[string]int        // full field path -> line of its key (or item)
	nodes  map[string]*yaml.Node // full field path -> value node
}

// File returns the file name given to Decode.
func (s *Source) File() string {
	if s == nil {
		return ""
	}
	return s.file
}

// Dir returns the absolute directory of the file: relative paths in the
// file are taken relative to it.
func (s *Source) Dir() string {
	if s == nil {
		return ""
	}
	return s.dir
}

// Resolve makes a path given in the file absolute: relative to the
// file's directory, or to the working directory when s is nil (a
// configuration built in code). An empty path stays empty.
func (s *Source) Resolve(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	if s != nil {
		return filepath.Join(s.dir, p)
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// Has reports whether the file set the field at path (e.g. "verify.pairs",
// "variants[0].rules").
func (s *Source) Has(path string) bool {
	if s == nil {
		return false
	}
	_, ok := s.lines[s.prefix+path]
	return ok
}

// Line returns the line of the field at path, or of its nearest ancestor
// present in the file (0: none).
func (s *Source) Line(path string) int {
	if s == nil {
		return 0
	}
	for p := s.prefix + path; p != ""; p = parentPath(p) {
		if l, ok := s.lines[p]; ok {
			return l
		}
	}
	return 0
}

// ErrAt builds an Error for the field at path, with the line of the field
// or of its nearest ancestor present in the file.
func (s *Source) ErrAt(path, format string, a ...any) *Error {
	e := &Error{Field: path, Msg: fmt.Sprintf(format, a...)}
	if s == nil {
		return e
	}
	e.File, e.Field, e.Line = s.file, s.prefix+path, s.Line(path)
	return e
}

// Decode parses data strictly into v (a pointer to a struct) and returns
// where each field was. file names the file in errors and for relative
// paths. Every error is an *Error, several joined with errors.Join, in
// line order. Empty data leaves v unchanged.
func Decode(data []byte, file string, v any) (*Source, error) {
	s, err := Parse(data, file)
	if err != nil {
		return nil, err
	}
	return s.DecodeAt("", v)
}

// ReadFile reads the file at path and parses it (see Parse), naming it
// path in errors. Like every configuration, it must be a regular file of
// at most fsx.MaxConfigBytes.
func ReadFile(path string) (*Source, error) {
	data, err := fsx.ReadFile(path, fsx.MaxConfigBytes)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse parses data and records where each field is, without decoding it
// into a Go value (see DecodeAt); only a syntax error fails.
func Parse(data []byte, file string) (*Source, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	s := &Source{file: file, dir: filepath.Dir(abs), lines: map[string]int{}, nodes: map[string]*yaml.Node{}}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, syntaxError(file, err)
	}
	if len(root.Content) > 0 {
		s.index(root.Content[0], "")
		s.nodes[""] = root.Content[0]
	}
	return s, nil
}

// DecodeAt decodes the field at path (relative to s) strictly into v and
// returns a Source whose paths are relative to that field, so that a
// section of a file (the pipeline's selfplay:) is checked by its own type
// with the file's lines and full paths in its errors.
func (s *Source) DecodeAt(path string, v any) (*Source, error) {
	full := s.prefix + path
	sub := &Source{file: s.file, dir: s.dir, prefix: full + ".", lines: s.lines, nodes: s.nodes}
	if full == "" {
		sub.prefix = ""
	}
	n := s.nodes[full]
	if n == nil {
		return sub, nil
	}
	return sub, s.decode(n, full, v)
}

// decode checks n against v's type, then decodes it.
func (s *Source) decode(n *yaml.Node, path string, v any) error {
	var errs []*Error
	s.check(n, reflect.TypeOf(v), path, &errs)
	if len(errs) == 0 {
		if err := n.Decode(v); err != nil {
			errs = append(errs, &Error{File: s.file, Line: n.Line, Field: path, Msg: strings.TrimPrefix(err.Error(), "yaml: ")})
		}
	}
	return Join(errs)
}

// Join returns the errors in line order joined with errors.Join, or nil
// when there are none.
func Join(errs []*Error) error {
	if len(errs) == 0 {
		return nil
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e
	}
	return errors.Join(out...)
}

// Flatten lists the errors joined in err (errors.Join, at any depth), or
// err alone.
func Flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, Flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// Remap rewrites every *Error joined in err with f (to name another field
// or file: the one the user wrote) and joins the results again; other
// errors pass unchanged. Remap(nil, f) is nil.
func Remap(err error, f func(*Error) error) error {
	if err == nil {
		return nil
	}
	list := Flatten(err)
	for i, e := range list {
		var ye *Error
		if errors.As(e, &ye) {
			list[i] = f(ye)
		}
	}
	if len(list) == 1 {
		return list[0]
	}
	return errors.Join(list...)
}

// check walks n against type t and appends one Error per mistake.
func (s *Source) check(n *yaml.Node, t reflect.Type, path string, errs *[]*Error) {
	bad := func(line int, format string, a ...any) {
		*errs = append(*errs, &Error{File: s.file, Line: line, Field: path, Msg: fmt.Sprintf(format, a...)})
	}
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[yaml.Node]() || t.Kind() == reflect.Interface || isNull(n) {
		return
	}
	if reflect.PointerTo(t).Implements(reflect.TypeFor[yaml.Unmarshaler]()) {
		if err := n.Decode(reflect.New(t).Interface()); err != nil {
			bad(n.Line, "%s", strings.TrimPrefix(err.Error(), "yaml: "))
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			bad(n.Line, "wrong type: want a mapping, got %s", describe(n))
			return
		}
		fields := structFields(t)
		s.pairs(n, path, errs, func(key, val *yaml.Node, p string) {
			f, ok := fields[key.Value]
			if !ok {
				*errs = append(*errs, &Error{File: s.file, Line: key.Line, Field: p, Msg: fmt.Sprintf("unknown field %q (known: %s)", key.Value, strings.Join(sortedKeys(fields), ", "))})
				return
			}
			s.check(val, f, p, errs)
		})
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			bad(n.Line, "wrong type: want a mapping, got %s", describe(n))
			return
		}
		s.pairs(n, path, errs, func(key, val *yaml.Node, p string) { s.check(val, t.Elem(), p, errs) })
	case reflect.Slice, reflect.Array:
		if n.Kind != yaml.SequenceNode {
			bad(n.Line, "wrong type: want a list, got %s", describe(n))
			return
		}
		for i, c := range n.Content {
			s.check(c, t.Elem(), fmt.Sprintf("%s[%d]", path, i), errs)
		}
	default:
		if n.Kind != yaml.ScalarNode {
			bad(n.Line, "wrong type: want %s, got %s", want(t), describe(n))
			return
		}
		if err := n.Decode(reflect.New(t).Interface()); err != nil || isInteger(t) && n.ShortTag() == "!!float" {
			// yaml.v3 truncates 2.5 into an int field without a word.
			bad(n.Line, "wrong type: want %s, got %s", want(t), describe(n))
		}
	}
}

// isInteger reports whether t is a signed or unsigned integer type.
func isInteger(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// pairs calls f on each key and value of a mapping, reporting repeated
// keys.
func (s *Source) pairs(n *yaml.Node, path string, errs *[]*Error, f func(key, val *yaml.Node, p string)) {
	first := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], n.Content[i+1]
		p := join(path, key.Value)
		if l, dup := first[key.Value]; dup {
			*errs = append(*errs, &Error{File: s.file, Line: key.Line, Field: p, Msg: fmt.Sprintf("field %q given twice (first at line %d)", key.Value, l)})
			continue
		}
		first[key.Value] = key.Line
		f(key, val, p)
	}
}

// index records the path and line of every node.
func (s *Source) index(n *yaml.Node, path string) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := join(path, k.Value)
			if _, dup := s.lines[p]; !dup {
				s.lines[p] = k.Line
				s.nodes[p] = v
			}
			s.index(v, p)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			s.lines[p] = c.Line
			s.nodes[p] = c
			s.index(c, p)
		}
	}
}

// structFields maps the YAML names of a struct's fields (inline structs
// included) to their types.
func structFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if strings.Contains(","+opts+",", ",inline,") {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range structFields(ft) {
					out[k] = v
				}
			}
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f.Type
	}
	return out
}

func sortedKeys(m map[string]reflect.Type) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

// describe names what a node holds, for "wrong type" messages: its tag,
// and a scalar's value (cut at 40 bytes).
func describe(n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode {
		return n.ShortTag()
	}
	v := n.Value
	if len(v) > 40 {
		v = v[:40] + "..."
	}
	return n.ShortTag() + " " + strconv.Quote(v)
}

// want names what a Go scalar type accepts.
func want(t reflect.Type) string { return t.Kind().String() }

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

// syntaxError turns a parse error ("yaml: line 3: ...") into an Error.
// The parser reports syntax errors only as text; the line is read from
// its fixed "line N: " prefix.
func syntaxError(file string, err error) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			if line, err := strconv.Atoi(num); err == nil {
				return &Error{File: file, Line: line, Msg: tail}
			}
		}
	}
	return &Error{File: file, Msg: msg}
}
