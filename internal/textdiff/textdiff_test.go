package textdiff

import "testing"

func TestFirstLine(t *testing.T) {
	for _, c := range []struct{ a, b, want string }{
		{"x\ny\nz", "x\ny\nz", "(same lines)"},
		{"x\ny\nz", "x\nY\nz", "line 2:\n  y\n  Y"},
		{"x\ny", "x\ny\nz", "line 3:\n  \n  z"},
		{"", "a", "line 1:\n  \n  a"},
	} {
		if got := FirstLine([]byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("FirstLine(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
	}
}
