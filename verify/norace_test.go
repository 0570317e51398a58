//go:build !race

package verify

const raceDetector = false

// RaceDetector is raceDetector for the external tests (package verify_test).
const RaceDetector = raceDetector
