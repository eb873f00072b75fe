package main

import (
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
	return yamlx.Remap(err, func(e *yamlx.Error) error {
		field, ok := strings.CutPrefix(e.Field, stream+".")
		if flag, known := flags[field]; ok && known {
			return &yamlx.Error{Field: flag, Msg: e.Msg}
		}
		return e
	})
}
