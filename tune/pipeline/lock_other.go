//go:build !unix

package pipeline

// lockDir does nothing where flock is missing.
func lockDir(dir string) (func(), error) { return func() {}, nil }
