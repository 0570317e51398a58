package main

// verifyCmd runs the headless verifier.
func verifyCmd(e *env, args []string) (int, error) {
	return exitBadInput, usagef("verify is not built yet")
}
