// loupe-pi-extension: verifies each pi compaction against the session and
// puts back what the summary lost. Written by `loupe hook install pi`;
// `loupe hook uninstall pi` removes it.
//
// Every handler runs `loupe hook pi EVENT` with the session file's path on
// standard input and fails open: if loupe is missing, slow or wrong, the
// extension does nothing and pi goes on as if it were not installed.
import { spawn } from "node:child_process"
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent"

const LOUPE: string = "loupe"
const GATE: boolean = false
// The weakest basis put back (loupe hook --decide); empty: loupe's default.
const DECIDE: string[] = []
// Past this, a hook's answer is not waited for (loupe's own deadlines are
// shorter).
const TIMEOUT_MS = 20000

function run(event: string, payload: Record<string, unknown>): Promise<any> {
  return new Promise((resolve) => {
    let out = ""
    let done = false
    const finish = (v: any) => {
      if (!done) {
        done = true
        resolve(v)
      }
    }
    try {
      const args = ["hook", ...(GATE ? ["--gate"] : []), ...DECIDE, "pi", event]
      const child = spawn(LOUPE, args, { stdio: ["pipe", "pipe", "ignore"] })
      const timer = setTimeout(() => {
        child.kill("SIGKILL")
        finish(undefined)
      }, TIMEOUT_MS)
      child.stdout.on("data", (d) => (out += d))
      child.on("error", () => finish(undefined))
      child.on("close", (code) => {
        clearTimeout(timer)
        const s = out.trim()
        try {
          finish(code === 0 && s.startsWith("{") ? JSON.parse(s) : undefined)
        } catch {
          finish(undefined)
        }
      })
      child.stdin.on("error", () => {})
      child.stdin.end(JSON.stringify(payload))
    } catch {
      finish(undefined)
    }
  })
}

export default function loupe(pi: ExtensionAPI) {
  const payload = (ctx: any, event: string): Record<string, unknown> => ({
    session_id: ctx.sessionManager?.getSessionId?.() ?? "",
    transcript_path: ctx.sessionManager?.getSessionFile?.() ?? "",
    cwd: ctx.cwd,
    hook_event_name: event,
  })

  // Before compaction: snapshot what the session still owes.
  pi.on("session_before_compact", async (_event, ctx) => {
    await run("pre-compact", payload(ctx, "session_before_compact"))
  })

  // After compaction: verify the summary pi stored; tell the user when it
  // lost something, and with the gate on stop the agent.
  pi.on("session_compact", async (_event, ctx) => {
    const res = await run("post-compact", payload(ctx, "session_compact"))
    if (!res) return
    const msg = res.systemMessage ?? res.stopReason
    if (msg && ctx.hasUI) ctx.ui.notify(String(msg), "warning")
    if (res.continue === false) ctx.abort?.()
  })

  // The next agent start: put the block back, once, as a message the model
  // reads (and the session keeps).
  pi.on("before_agent_start", async (_event, ctx) => {
    const res = await run("agent-start", payload(ctx, "before_agent_start"))
    const text = res?.hookSpecificOutput?.additionalContext
    if (typeof text !== "string" || !text) return
    return { message: { customType: "loupe", content: text, display: true } }
  })
}
