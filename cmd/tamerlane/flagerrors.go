package main

import (
	"errors"
	"strings"

	"tamerlane/internal/yamlx"
)

// flagFieldErrors rewrites the validation errors of the stream a command
// built from its flags (stream, e.g. "matches[0]") so that they name the
// flag the user typed ("--openings: ...") rather than the configuration
// field the flag fills ("matches[0].openings_file: ..."), and no file or
// line: a -c file's would point at a stream the command ignores. flags
// maps the stream's field names to their flags; errors of other fields
// pass unchanged.
func flagFieldErrors(err error, stream string, flags map[string]string) error {
	if err == nil {
		return nil
	}
	list := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		list = j.Unwrap()
	}
	out := make([]error, len(list))
	for i, e := range list {
		out[i] = e
		var ye *yamlx.Error
		if !errors.As(e, &ye) {
			continue
		}
		field, ok := strings.CutPrefix(ye.Field, stream+".")
		if !ok {
			continue
		}
		if flag, ok := flags[field]; ok {
			out[i] = &yamlx.Error{Field: flag, Msg: ye.Msg}
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	return errors.Join(out...)
}
