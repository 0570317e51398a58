package model

// Hooks for the external tests (fuzz_test.go, bench_test.go), which live in
// package model_test so that they may import sampledata.

// MalformedInputs returns the inputs of the malformed-line table and the
// round-trip transcript, as fuzz seeds.
func MalformedInputs() []string {
	out := []string{everyKind, pairingRun}
	for _, tc := range malformed {
		out = append(out, tc.in)
	}
	return out
}
