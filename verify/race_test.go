//go:build race

package verify

// raceDetector is set when the tests run under -race, which makes reading
// and verifying the corpora several times slower: the heaviest checks run
// on a smaller sample then (CI runs both ways: go test, and -race).
const raceDetector = true

// RaceDetector is raceDetector for the external tests (package verify_test).
const RaceDetector = raceDetector
