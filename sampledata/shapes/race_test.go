//go:build race

package shapes

// raceDetector is set when the tests run under -race, which makes
// generating and verifying tens of megabytes ten times slower.
const raceDetector = true
