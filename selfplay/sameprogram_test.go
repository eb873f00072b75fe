package selfplay

import "testing"

// TestSameProgram: two sides are the same program when they run the same
// table in our engine, or the same outside engine with the same arguments
// and options; limits and names do not count.
func TestSameProgram(t *testing.T) {
	fsf := func(nodes int64, name string, opts map[string]string, args ...string) *EngineSpec {
		return &EngineSpec{Cmd: "/opt/fsf", Args: args, Options: opts, Nodes: nodes, Name: name}
	}
	hash := map[string]string{"Hash": "16"}
	cases := []struct {
		name string
		a, b PlayerSpec
		want bool
	}{
		{"default table twice", PlayerSpec{Limits: Limits{Nodes: 5000}}, PlayerSpec{Limits: Limits{Nodes: 6000}}, true},
		{"same table", PlayerSpec{Table: "t.yaml"}, PlayerSpec{Table: "t.yaml"}, true},
		{"other table", PlayerSpec{Table: "t.yaml"}, PlayerSpec{Table: "u.yaml"}, false},
		{"engine against ours", PlayerSpec{Engine: fsf(5000, "", hash)}, PlayerSpec{}, false},
		{"ours against engine", PlayerSpec{}, PlayerSpec{Engine: fsf(5000, "", hash)}, false},
		{"engine, other limits and names", PlayerSpec{Engine: fsf(5000, "a", hash)}, PlayerSpec{Engine: fsf(6000, "b", map[string]string{"Hash": "16"})}, true},
		{"engine, other options", PlayerSpec{Engine: fsf(5000, "", hash)}, PlayerSpec{Engine: fsf(5000, "", map[string]string{"Hash": "16", "Skill Level": "3"})}, false},
		{"engine, other arguments", PlayerSpec{Engine: fsf(5000, "", hash, "-x")}, PlayerSpec{Engine: fsf(5000, "", hash)}, false},
		{"other engines", PlayerSpec{Engine: fsf(5000, "", hash)}, PlayerSpec{Engine: &EngineSpec{Cmd: "/opt/other", Options: hash}}, false},
	}
	for _, c := range cases {
		if got := c.a.SameProgram(c.b); got != c.want {
			t.Errorf("%s: SameProgram %v, want %v", c.name, got, c.want)
		}
		if got := c.b.SameProgram(c.a); got != c.want {
			t.Errorf("%s, sides swapped: SameProgram %v, want %v", c.name, got, c.want)
		}
	}
}
