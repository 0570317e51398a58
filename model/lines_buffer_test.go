package model

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestReadLinesAcrossTheBufferSwitch: lines shorter and longer than the
// first buffer, before and after the loop takes the large one, come back
// whole and with their offsets.
func TestReadLinesAcrossTheBufferSwitch(t *testing.T) {
	var in bytes.Buffer
	var want []string
	for i := 0; in.Len() < 3*largeReadBuffer; i++ {
		n := []int{10, smallReadBuffer - 1, smallReadBuffer + 7, 3 * smallReadBuffer, 200}[i%5]
		line := fmt.Sprintf("%d:%s", i, strings.Repeat(string(rune('a'+i%26)), n))
		want = append(want, line)
		in.WriteString(line + "\n")
	}
	data := bytes.Clone(in.Bytes())
	var got []string
	_, err := ReadLines(&in, func(l Line) error {
		if string(data[l.Off:l.Off+int64(len(l.B))]) != string(l.B) {
			t.Fatalf("line %d: offset %d does not point at it", l.N, l.Off)
		}
		got = append(got, string(l.B))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("line %d differs (%d bytes, want %d)", i+1, len(got[i]), len(want[i]))
		}
	}
}
