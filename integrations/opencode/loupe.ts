// loupe-opencode-plugin: verifies each opencode compaction against the
// session and puts back what the summary lost. Written by `loupe hook install
// opencode`; `loupe hook uninstall opencode` removes it.
//
// Every hook here shells out to `loupe hook opencode EVENT` with the session's
// id and messages on standard input, and fails open: if loupe is missing,
// slow or wrong, the plugin does nothing and opencode goes on as if it were
// not installed.
import type { Plugin } from "@opencode-ai/plugin"

const LOUPE: string = "loupe"
const GATE: boolean = false

export const LoupePlugin: Plugin = async ({ client, $ }) => {
  // Sessions with a block waiting to be put back into the system prompt.
  const pending = new Set<string>()

  const run = async (event: string, payload: Record<string, unknown>): Promise<any> => {
    try {
      const flags = GATE ? ["--gate"] : []
      const input = Buffer.from(JSON.stringify(payload))
      const res = await $`${LOUPE} hook ${flags} opencode ${event} < ${input}`.quiet().nothrow()
      const out = res.stdout.toString().trim()
      return res.exitCode === 0 && out.startsWith("{") ? JSON.parse(out) : undefined
    } catch {
      return undefined
    }
  }

  // The session as loupe reads it: opencode's SDK returns each message with
  // its parts, the same records opencode's JSON storage keeps on disk.
  const session = async (sessionID: string): Promise<Record<string, unknown>> => {
    try {
      const [info, messages] = await Promise.all([
        client.session.get({ path: { id: sessionID } }),
        client.session.messages({ path: { id: sessionID } }),
      ])
      return { sessionID, session: info.data, messages: messages.data }
    } catch {
      return { sessionID }
    }
  }

  return {
    // Before compaction: snapshot, and tell the summarizer what must survive.
    // loupe's text goes in as it is: it is already framed, with transcript
    // text quoted as inert excerpts, and the plugin adds no words of its own.
    "experimental.session.compacting": async (input, output) => {
      const res = await run("compacting", await session(input.sessionID))
      if (res && Array.isArray(res.context)) {
        output.context.push(...res.context.filter((c: unknown): c is string => typeof c === "string"))
      }
    },

    // After compaction: verify the summary opencode stored.
    event: async ({ event }) => {
      if (event.type !== "session.compacted") return
      const sessionID = (event.properties as { sessionID?: string }).sessionID
      if (!sessionID) return
      const res = await run("compacted", await session(sessionID))
      if (res?.pending) pending.add(sessionID)
    },

    // The next request: put the block back, once, as loupe wrote it.
    "experimental.chat.system.transform": async (input, output) => {
      const sessionID = (input as { sessionID?: string }).sessionID
      if (!sessionID || !pending.has(sessionID)) return
      pending.delete(sessionID)
      const res = await run("system", { sessionID })
      if (res && typeof res.system === "string" && res.system) output.system.push(res.system)
    },

    // With the gate on, a violating summary does not auto-continue.
    "experimental.compaction.autocontinue": async (input, output) => {
      if (!GATE) return
      const res = await run("autocontinue", { sessionID: input.sessionID })
      if (res && res.enabled === false) output.enabled = false
    },
  }
}

export default LoupePlugin
