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
// The weakest basis put back (loupe hook --decide); empty: loupe's default.
const DECIDE: string[] = []

// How long the agent's first request after a compaction waits for loupe's
// check of it (loupe itself gives up after 4 s).
const WAIT_MS = 4500

export const LoupePlugin: Plugin = async ({ client, $ }) => {
  // Sessions being summarized: opencode runs
  // experimental.chat.system.transform for every model request, the
  // summarizer's included (once more on each retry), and the block is for
  // the agent. From the compacting hook until the summary is written, its
  // check starts, or the summary fails; with the time the compaction began
  // (an older summary's late update does not end it).
  const summarizing = new Map<string, number>()
  // The check of each session's newest compaction, once started: opencode
  // verifies at experimental.compaction.autocontinue (awaited, before the
  // agent goes on) or at the session.compacted event (published after the
  // auto-continue, and not awaited), whichever comes first; the other
  // shares it.
  const checks = new Map<string, Promise<any>>()
  // Sessions whose summary is written but not yet checked: the agent's next
  // request waits for the check (the event may be handled after it starts).
  const awaiting = new Map<string, { done: Promise<void>; resolve: () => void }>()
  // Sessions loupe has been asked about in this process, and those with a
  // block waiting. A block can be owed from another process (a compaction
  // through `opencode serve`, then `opencode run --continue`): each
  // session's first request here asks loupe.
  const asked = new Set<string>()
  const pending = new Set<string>()

  const run = async (event: string, payload: Record<string, unknown>): Promise<any> => {
    try {
      const flags = [...(GATE ? ["--gate"] : []), ...DECIDE]
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

  const settle = (sessionID: string) => {
    awaiting.get(sessionID)?.resolve()
    awaiting.delete(sessionID)
  }

  // verify checks the newest compaction, once however many hooks ask.
  const verify = (sessionID: string): Promise<any> => {
    summarizing.delete(sessionID)
    let check = checks.get(sessionID)
    if (!check) {
      check = (async () => {
        const res = await run("compacted", await session(sessionID))
        if (res?.pending) pending.add(sessionID)
        return res
      })().finally(() => settle(sessionID))
      checks.set(sessionID, check)
    }
    return check
  }

  return {
    // Before compaction: snapshot, and tell the summarizer what must survive.
    // opencode has already stored the compaction request (a user message
    // with a "compaction" part) when this runs; loupe leaves an unanswered
    // one out of the snapshot. loupe's text goes in as it is: it is already
    // framed, with transcript text quoted as inert excerpts, and the plugin
    // adds no words of its own.
    "experimental.session.compacting": async (input, output) => {
      checks.delete(input.sessionID)
      settle(input.sessionID)
      summarizing.set(input.sessionID, Date.now())
      let resolve = () => {}
      const done = new Promise<void>((r) => (resolve = r))
      awaiting.set(input.sessionID, { done, resolve })
      const res = await run("compacting", await session(input.sessionID))
      if (res && Array.isArray(res.context)) {
        output.context.push(...res.context.filter((c: unknown): c is string => typeof c === "string"))
      }
    },

    // After an automatic compaction, before the agent goes on: verify; with
    // the gate on, a violating summary does not auto-continue.
    "experimental.compaction.autocontinue": async (input, output) => {
      await verify(input.sessionID)
      if (!GATE) return
      const res = await run("autocontinue", { sessionID: input.sessionID })
      if (res && res.enabled === false) output.enabled = false
    },

    event: async ({ event }) => {
      const props = event.properties as {
        sessionID?: string
        info?: { sessionID?: string; summary?: boolean; finish?: string; error?: unknown; time?: { created?: number } }
      }
      switch (event.type) {
        case "session.compacted":
          // Every compaction that succeeded (a manual one has no auto-continue).
          if (props.sessionID) await verify(props.sessionID)
          return
        case "message.updated": {
          // The summary written: the next request is the agent's. A summary
          // that failed: no check is coming either.
          const info = props.info
          if (!info?.sessionID || info.summary !== true) return
          const began = summarizing.get(info.sessionID)
          if (began === undefined || (info.time?.created ?? 0) < began) return
          if (info.finish || info.error) summarizing.delete(info.sessionID)
          if (info.error && !checks.has(info.sessionID)) settle(info.sessionID)
          return
        }
        case "session.idle":
          if (props.sessionID && !checks.has(props.sessionID)) {
            summarizing.delete(props.sessionID)
            settle(props.sessionID)
          }
          return
      }
    },

    // Each model request: the summarizer's is left alone; the agent's
    // first after a compaction waits for its check; the block goes back
    // once, as loupe wrote it.
    "experimental.chat.system.transform": async (input, output) => {
      const sessionID = input.sessionID
      if (!sessionID) return
      if (summarizing.has(sessionID)) return
      const wait = awaiting.get(sessionID)
      if (wait) {
        let timer: ReturnType<typeof setTimeout> | undefined
        await Promise.race([wait.done, new Promise<void>((r) => (timer = setTimeout(r, WAIT_MS)))])
        clearTimeout(timer)
        awaiting.delete(sessionID)
      }
      const check = checks.get(sessionID)
      if (check) await check
      if (asked.has(sessionID) && !pending.has(sessionID)) return
      asked.add(sessionID)
      pending.delete(sessionID)
      const res = await run("system", { sessionID })
      if (res && typeof res.system === "string" && res.system) output.system.push(res.system)
    },
  }
}

export default LoupePlugin
