// Package e2e is loupe's end-to-end suite against the real agent runtimes:
// Claude Code, Codex CLI, Gemini CLI, opencode and pi, installed from the
// npm registry at the versions package-lock.json pins, each driven
// non-interactively against a scripted model server on 127.0.0.1 (server.go)
// with loupe's hooks installed, and the result read back with loupe.
//
// The tests skip unless LOUPE_E2E=1 (they install about 1.5 GB of runtimes
// once, then take a minute or two); .ci/run sets it. LOUPE_E2E_LATEST=1
// installs each runtime's current `latest` instead of the pinned versions,
// to show what changed (outside CI). Installs are cached under
// ${XDG_CACHE_HOME:-~/.cache}/loupe-e2e, keyed by the lock file's hash.
//
// Nothing here talks to anything but 127.0.0.1 and, to install, the npm
// registry: every runtime gets a throwaway HOME and configuration that
// points it at the scripted server, with telemetry and updates off.
package e2e
