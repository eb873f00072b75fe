package fsx

import (
	"io/fs"
	"os"
	"path/filepath"
)

// WalkLinked walks the tree at root as filepath.WalkDir does (lexical
// order, fn's SkipDir honoured), and also descends into symbolic links
// to directories, so that a pool of runs can be a directory of links to
// them. Paths given to fn run through the links' names. Each real
// directory reached through a link is walked once (a second link to it
// is passed over), so a link cycle ends.
func WalkLinked(root string, fn fs.WalkDirFunc) error {
	resolved, err := filepath.EvalSymlinks(root)
	if err != nil {
		return fn(root, nil, err)
	}
	return walkLinked(root, resolved, fn, map[string]bool{})
}

// walkLinked walks the real directory dir, naming its paths under shown.
func walkLinked(shown, dir string, fn fs.WalkDirFunc, seen map[string]bool) error {
	if seen[dir] {
		return nil
	}
	seen[dir] = true
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		rel, rerr := filepath.Rel(dir, path)
		if rerr != nil {
			return rerr
		}
		p := filepath.Join(shown, rel)
		if err == nil && d.Type()&fs.ModeSymlink != 0 {
			if st, serr := os.Stat(path); serr == nil && st.IsDir() {
				target, terr := filepath.EvalSymlinks(path)
				if terr != nil {
					return fn(p, d, terr)
				}
				return walkLinked(p, target, fn, seen)
			}
		}
		return fn(p, d, err)
	})
}
