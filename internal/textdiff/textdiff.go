// Package textdiff shows where two texts part, for the messages of tests
// that compare files byte for byte.
package textdiff

import (
	"fmt"
	"strings"
)

// FirstLine returns the number and both versions of the first line on
// which a and b differ (each clipped to 300 bytes), or "(same lines)".
func FirstLine(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < max(len(la), len(lb)); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n  %.300s\n  %.300s", i+1, x, y)
		}
	}
	return "(same lines)"
}
