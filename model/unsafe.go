package model

import "unsafe"

// unsafeString views b as a string without copying. The caller must not keep
// the result past b's next modification.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
