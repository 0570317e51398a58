package lang

import "testing"

func TestStem(t *testing.T) {
	// Pairs from Porter's published vocabulary/output lists, plus the words
	// the matcher leans on.
	cases := map[string]string{
		"caresses": "caress", "ponies": "poni", "cats": "cat", "feed": "feed",
		"agreed": "agre", "plastered": "plaster", "motoring": "motor", "sing": "sing",
		"conflated": "conflat", "troubled": "troubl", "sized": "size", "hopping": "hop",
		"falling": "fall", "hissing": "hiss", "fizzed": "fizz", "failing": "fail",
		"filing": "file", "happy": "happi", "relational": "relat", "conditional": "condit",
		"digitizer": "digit", "generalization": "gener", "electrical": "electr",
		"adjustment": "adjust", "adoption": "adopt", "controll": "control", "rate": "rate",
		"migration": "migrat", "migrations": "migrat", "migrate": "migrat",
		"regenerate": "regener", "regeneration": "regener", "tests": "test",
		"testing": "test", "rebased": "rebas", "rebase": "rebas",
	}
	for in, want := range cases {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}
