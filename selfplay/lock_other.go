//go:build !unix

package selfplay

// LockDir does nothing where flock is missing.
func LockDir(dir, what string) (func(), error) { return func() {}, nil }
