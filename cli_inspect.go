package main

import "fmt"

// inspect opens the inspector on a transcript (the built-in sample when args
// is empty).
func inspect(e *env, args []string) (int, error) {
	fmt.Fprintln(e.stderr, "loupe: the inspector is not built yet; try 'loupe sample' or 'loupe sample migration | head'")
	return exitBadInput, nil
}
