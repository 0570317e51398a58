package formats

// The importers register themselves with package registry from their init.
import (
	_ "github.com/loupe-dev/loupe/model/claudecode"
	_ "github.com/loupe-dev/loupe/model/codex"
	_ "github.com/loupe-dev/loupe/model/gemini"
	_ "github.com/loupe-dev/loupe/model/opencode"
	_ "github.com/loupe-dev/loupe/model/openhands"
	_ "github.com/loupe-dev/loupe/model/pi"
)
