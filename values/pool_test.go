package values

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tamerlane/selfplay"
	"tamerlane/values/published"
)

// measureInto plays a small regression-only measurement into dir.
func measureInto(t *testing.T, dir string, seed, sharedPieces int) {
	t.Helper()
	y := strings.NewReplacer("SEED", strconv.Itoa(seed), "SHARED", strconv.Itoa(sharedPieces)).Replace(`
name: pool
seed: SEED
nodes: 60
max_plies: 80
regression: {min_ply: 4, min_games: 3, shared_pieces: SHARED}
variants:
  - variant: chess
    pairs: 4
`)
	cfg, err := ParseConfig([]byte(y), "pool.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), cfg, dir, RunOptions{Workers: 2, Factory: selfplay.GreedyFactory()}); err != nil {
		t.Fatal(err)
	}
}

func measurePool(t *testing.T, root string) (*Document, error) {
	t.Helper()
	dirs, err := RunDirs(root)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := published.Load("../data/published")
	if err != nil {
		t.Fatal(err)
	}
	rc, err := RegressionSettings(root)
	if err != nil {
		return nil, err
	}
	return Measure(dirs, cat, rc.Options())
}

// A pool of two measurements of different seeds gives the games of both;
// a copy of a measurement beside it is refused, since its games would
// count twice.
func TestPoolRefusesSameGames(t *testing.T) {
	root := t.TempDir()
	measureInto(t, filepath.Join(root, "a"), 1, 0)
	measureInto(t, filepath.Join(root, "b"), 2, 0)
	doc, err := measurePool(t, root)
	if err != nil {
		t.Fatal(err)
	}
	if v := doc.Variant("chess"); v == nil || v.Games != 16 {
		t.Fatalf("pooled chess values %+v, want 16 games", v)
	}
	// A pool of links to the runs reads the same games.
	links := t.TempDir()
	for _, n := range []string{"a", "b"} {
		if err := os.Symlink(filepath.Join(root, n), filepath.Join(links, n)); err != nil {
			t.Fatal(err)
		}
	}
	if doc, err := measurePool(t, links); err != nil || doc.Variant("chess").Games != 16 {
		t.Fatalf("a pool of links: %v", err)
	}
	// A run linked twice is read once.
	if err := os.Symlink(filepath.Join(root, "a"), filepath.Join(links, "a2")); err != nil {
		t.Fatal(err)
	}
	if doc, err := measurePool(t, links); err != nil || doc.Variant("chess").Games != 16 {
		t.Fatalf("a run linked twice: %v", err)
	}
	if err := os.CopyFS(filepath.Join(root, "c"), os.DirFS(filepath.Join(root, "a"))); err != nil {
		t.Fatal(err)
	}
	_, err = measurePool(t, root)
	if err == nil || !strings.Contains(err.Error(), "count twice") ||
		!strings.Contains(err.Error(), filepath.Join(root, "a", "chess", "selfplay")) || !strings.Contains(err.Error(), filepath.Join(root, "c", "chess", "selfplay")) {
		t.Fatalf("a copied measurement pooled with its original: %v", err)
	}
}

// The settings of a pool are those its measurements share; settings that
// differ are an error naming both, and a default left out equals the
// same value written out.
func TestRegressionSettings(t *testing.T) {
	root := t.TempDir()
	measureInto(t, filepath.Join(root, "a"), 1, 1)
	measureInto(t, filepath.Join(root, "b"), 2, 1)
	rc, err := RegressionSettings(root)
	if err != nil {
		t.Fatal(err)
	}
	if rc.SharedPieces != 1 || rc.MinPly != 4 || rc.MinGames != 3 {
		t.Errorf("pooled settings %s, want those of both runs", rc)
	}
	if one, err := RegressionSettings(filepath.Join(root, "a")); err != nil || one != rc {
		t.Errorf("settings of one run %s, %v", one, err)
	}
	if none, err := RegressionSettings(filepath.Join(root, "a", "chess")); err != nil || none != (RegressionConfig{}) {
		t.Errorf("settings of bare self-play runs %s, %v, want the defaults", none, err)
	}
	measureInto(t, filepath.Join(root, "c"), 3, 0)
	_, err = RegressionSettings(root)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(root, "a")) || !strings.Contains(err.Error(), filepath.Join(root, "c")) ||
		!strings.Contains(err.Error(), "shared_pieces: 0") || !errors.Is(err, ErrMixedSettings) {
		t.Fatalf("measurements with other settings pooled: %v", err)
	}
	if a, b := (RegressionConfig{}), (RegressionConfig{MinPly: 16, QuietPlies: 2, MinGames: 30}); a.effective() != b.effective() {
		t.Errorf("defaults left out %s and written out %s differ", a.effective(), b.effective())
	}
}
