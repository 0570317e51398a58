//go:build !race

package shapes

const raceDetector = false
