package search

import "testing"

// TestHashSizeBounded: a huge request neither hangs nor allocates beyond
// MaxHashMiB, and ValidateHashMiB names the range.
func TestHashSizeBounded(t *testing.T) {
	for _, mib := range []int{0, -5, MaxHashMiB + 1, 8796093022208, 100000000} {
		if err := ValidateHashMiB(mib); err == nil {
			t.Errorf("ValidateHashMiB(%d) accepted", mib)
		}
	}
	if err := ValidateHashMiB(4); err != nil {
		t.Errorf("ValidateHashMiB(4): %v", err)
	}
	// The size loop must terminate for any int; with a clamp it cannot exceed MaxHashMiB.
	if n := len(newTable(0).entries) * 16; n > 1<<20 {
		t.Errorf("newTable(0) has %d bytes, want at most 1 MiB", n)
	}
}
