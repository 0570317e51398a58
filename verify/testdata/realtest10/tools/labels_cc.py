#!/usr/bin/env python3
"""Writes ../labels-claude-code.json: the hand labels of the realtest10 Claude Code split.

Labelled blind, by reading each source (tools/cc_dump.py, tools/brief_view.py, tools/openview.py
and the raw records) and its summary, following /work/shared/DESIGN.md. loupe was not built or
run on these files and its rule code was not read. Line numbers (Lnnn) are 1-based lines of the
raw (and redacted) file. Every `contains` is in the redacted source before its boundary
(tools/check_contains.py). Run: python3 tools/labels_cc.py (from realtest10/).
The basis of each open item (recorded / stated / inferred, DESIGN.md) is given in its `why`
and in its `basis` field.
"""
import json, os

SA = 'Smartagent-so/Personal_AI_Infrastructure'
PC = 'procrypto/Personal_AI_Infrastructure'


def it(kind, contains, why, **kw):
    d = {'kind': kind, 'contains': contains}
    d.update(kw)
    d['why'] = why
    return d


cases = []

# ---------------------------------------------------------------- s1: 24a90d02 (voice server, German)
cases.append({
    'file': 'claude-code/cc-2.0.57-pai-voice-streaming-history-learnings-de.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.0.57', 'repo': SA,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '345d147a-3db7-4725-8259-b6aac6c387ae',
        'trigger': 'auto', 'pre_tokens': 126389, 'verdict': 'degrade',
        'open': [
            it('commitment', 'welche learnings und verbesserungsvorschläge', carried=True, basis='stated',
               why="L325, the user's last message (stated): which learnings and improvements can be drawn from the history. At the boundary the agent had only read history files (L331-L342), nothing presented. Summary Pending Tasks 'Complete history analysis and present learnings/improvement suggestions', Current Work and Optional Next Step quote it"),
            it('constraint', 'dass Ottie sich häufiger meldet mit einem Zwischenstatus', carried=True, basis='stated',
               why="L149: the user asks that the voice 'Ottie' report more often with an interim status during long work (lasting: 'häufiger', for all later work). Summary Primary Request 'progress updates during work', Analysis 6 'During work: Short heads-up updates'"),
            it('constraint', 'bei der Beendigung langer Aufgaben', carried=True, basis='stated',
               why="L158 'Du solltest mir auf jeden Fall bei der Beendigung langer Aufgaben, wenn es eine Completion gibt, eine Zusammenfassung geben' (a standing rule: every completion of a long task). Summary 'At completion: Summary with status and results', 'summaries at completion'"),
            it('constraint', 'nachdem ich dir einen längeren Input gegeben habe', carried=True, basis='stated',
               why="L166: after every longer input, a short feedback that the prompt was understood, before the long thinking (standing: 'nachdem' = each time). Summary 'After long input: Confirm understanding with short summary'"),
            it('constraint', 'dass der aktuelle Status immer komplett gespeichert', carried=True, basis='stated',
               why="L297: 'make sure the current status is always completely saved, documented…' ('immer': standing), which the user reads as writing a session checkpoint now. Summary Primary Request 'Document session state in a checkpoint file', Analysis 7 'User requested documentation of current state'. The summary keeps the action (document the session state) but reads it as the one checkpoint just written, not as a lasting rule: the most arguable 'carried' of this case"),
            it('constraint', 'dass wir noch die Fallback-Solution haben', carried=True, basis='inferred',
               why="L34 'behalte auch im Hinterkopf, dass wir noch die Fallback-Solution haben mit dem alten Voice-Server und ohne Streaming' (inferred: 'keep in mind', a hedge more than a rule). Summary 'Added automatic fallback to non-streaming on errors', checkpoint 'Contains … fallback instructions'"),
            it('commitment', 'Den Voice-Server können wir später fixen', carried=True, basis='inferred',
               why="L283: after routing voice through the MCP tool, 'we can fix the voice server later' (inferred: an offer, no date). Never fixed before the boundary. Summary Pending Tasks 'Voice server streaming bug remains unfixed (using MCP workaround)'"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', '49a4cf',
               why='L230: background voice-server run, read with BashOutput L232/L235 and killed at L238 (KillShell); the second KillShell at L316 reports it already killed'),
            it('error', 'is not running, so cannot be killed',
               why="L316: KillShell of the shell already killed at L238; nothing was left to do"),
            it('commitment', 'Ich werde Ottie regelmäßig kurze Status-Updates geben lassen',
               why="L151: the agent's acknowledgement of the user's standing rule (labelled as the constraint from L149), carried out from then on (TTS + play_audio calls L277-L330)"),
            it('commitment', 'ich muss den Streaming-Code debuggen',
               why="L261 'ich muss den Streaming-Code debuggen oder wir nutzen erstmal das MCP Tool direkt': an either-or, and the agent took the alternative (MCP tool, L276-L294) with the user's 'ja'; the deferred fix is the L283 item"),
            it('constraint', 'soll der Original Javis sprechen',
               why="L7: describes how the voice system being built should behave (English speech → Jarvis), a design requirement about the thing being built, already implemented (L31), not a rule for the agent"),
            it('commitment', 'Kannst du das bitte auch in die Tat umsetzen',
               why="L174: a one-off request to actually speak the summaries; done (voice output via MCP from L277)"),
        ],
        'notes': "German user; PAI (Personal AI Infrastructure) voice server: ElevenLabs flash model + streaming, a streaming playback bug worked around with the MCP ElevenLabs tools, standing voice-feedback rules, a session checkpoint, then a question about learnings from the history right before the boundary. Summary in English, with the user messages quoted in German. Degrade.",
    }],
})

# ---------------------------------------------------------------- s2: 703e4528 (Art skill canonicalisation)
cases.append({
    'file': 'claude-code/cc-2.0.57-pai-art-skill-imagegenerator-todos-de.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.0.57', 'repo': SA,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'e8297e7f-99d7-477f-b5e4-bfc95e25c104',
        'trigger': 'auto', 'pre_tokens': 123096, 'verdict': 'degrade',
        'open': [
            it('commitment', 'ImageGeneratorNanoBananaPro Verzeichnis erstellen', carried=True, basis='recorded',
               why='L225 TodoWrite: pending. Summary Pending Tasks (todo list copied) and Next Step "ImageGeneratorNanoBananaPro Verzeichnis erstellen ← NEXT"'),
            it('commitment', 'ImageGenerator SKILL.md + Workflows erstellen', carried=True, basis='recorded',
               why='L225 TodoWrite: pending. Summary Pending Tasks, same wording'),
            it('commitment', 'ImageGenerator References kopieren', carried=True, basis='recorded',
               why='L225 TodoWrite: pending. Summary Pending Tasks, same wording; Next Step "References kopieren + umbenennen"'),
            it('commitment', 'ImageGenerator CLI-Tool erstellen', carried=True, basis='recorded',
               why='L225 TodoWrite: pending. Summary Pending Tasks, same wording; "Create GenerateImage.ts CLI tool"'),
            it('commitment', 'Art Workflow-Dateien umbenennen (TitleCase)', carried=True, basis='recorded',
               why='L225 TodoWrite: in_progress, never marked completed before the boundary; but the mv of every workflow file ran at L228 and succeeded (L229 listing). The summary lists it "✓" (done). As in realtest9 (task #13), labelled open and carried: the summary\'s "done" is what the files say. A verifier that reports it flipped raises a false alarm'),
            it('commitment', 'Art Tool-Datei umbenennen', carried=True, basis='recorded',
               why='L225 TodoWrite: pending, but done at L231 (mv generate-ulart-image.ts GenerateImage.ts, listing shows it); summary "Renamed `generate-ulart-image.ts` → `GenerateImage.ts` ✓". Same reading as the item above'),
            it('constraint', 'künftig auch regelmäßig wiederverwendet wird', carried=True, basis='inferred',
               why="L119: the Jarvis voice style (short sentences, British humour) is to be saved in the system and reused from now on (inferred: mostly a one-off request to save a profile, done at L150-L157, with a lasting flavour). Summary 'Jarvis Voice Profile: Save Jarvis's British butler voice style … for reuse', voice-profiles.md"),
            it('identifier', 'ImageGeneratorNanoBananaPro', carried=True, basis='recorded',
               why='the skill name the pending todos name (user choice at L185). Summary names it many times'),
        ],
        'losses': [],
        'not_owed': [
            it('error', 'File does not exist',
               why='L7: a Read of a guessed SESSION_STATUS.md path (read-only); the file was found in the root and read (L17-L20)'),
            it('commitment', 'lass jarvis sich kurz vorstellen',
               why='L105: a one-off request, done (TTS introduction played, L106-L116)'),
            it('commitment', 'Lass mich kurz die Skill-Struktur zeigen',
               why='L75: narration of the next step the same response carries out'),
            it('constraint', 'TypeScript (Bun)',
               why="L185: an answer to the agent's AskUserQuestion (a choice for this plan, not a standing rule); the plan at L204 records it and the summary too"),
        ],
        'notes': "German user; PAI training session, a Jarvis voice profile, then a plan (approved) to canonicalise the Art skill and port an image-generator skill. At the boundary the agent had done steps 1-4 of 8 (two of them not yet marked done in the todo list). Summary copies the todo list and marks the finished renames with ✓. Degrade.",
    }],
})

# ---------------------------------------------------------------- s3: d6a37ffc (self-improvement loop, 2 compactions)
cases.append({
    'file': 'claude-code/cc-2.0.58-pai-self-improvement-loop-phases-de-2x.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.0.58', 'repo': SA,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'a1e7ba91-aae2-4d52-84f8-8bcdd866dbca',
        'trigger': 'auto', 'pre_tokens': 121367, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Phase 2-5', carried=True, basis='inferred',
               why="L80/L81: the approved 5-phase plan (the user chose 'Gesamtplan validieren, dann Phase 1' at L77); Phase 1 done and all four todos completed (L149). The agent's last reply (L161) puts 'Phase 2-5 des Self-Improvement Loops … nach Bedarf' under NEXT: later phases of an approved plan, 'as needed' (inferred). Summary Pending Tasks lists Phase 2, 3, 4, 5 as PENDING"),
            it('constraint', 'Das muss unbedingt nachhaltig gefixt werden', carried=True, basis='inferred',
               why="L39: the fix must be lasting, not a quick fix (inferred: it qualifies the request being worked on rather than a rule for later work). Summary 'User will nachhaltigen Fix, nicht Quick-Fix', and quotes the message"),
            it('constraint', 'über den status langer aufgaben den start neuer aufgaben', carried=True, basis='inferred',
               why="L39: the user restates the standing voice-feedback preference (status of long tasks, start of new tasks, summary at completion), described as a config the agent forgot (inferred: told as a description, no imperative). Summary 'Voice-Feedback-Konfiguration nicht im Bewusstsein', SKILL.md 'Voice Feedback (Always Active)' section with the events table"),
        ],
        'losses': [],
        'not_owed': [
            it('error', 'No voices found with that name',
               why='L153: text_to_speech by voice_name; retried at L155 with the voice id and succeeded (L156), played at L158'),
            it('commitment', 'Test: Session neu starten und prüfen ob Context geladen wird',
               why='L118-L149: a todo, completed at L149 (the hook was run by hand at L132-L147)'),
            it('commitment', 'Jetzt erstelle ich `capture-decision.ts`',
               why='L113: narration of the next step, carried out by the same response (Write L114)'),
            it('commitment', 'fasse mir die aktivitäten der letzten session zusammen',
               why='L3: answered at L17'),
        ],
        'notes': "German user; PAI: why knowledge is lost between sessions, a 5-phase plan (approved), Phase 1 implemented and tested; the boundary comes after the agent's completion report. Summary keeps Phases 2-5 as pending. Degrade.",
    }, {
        'ordinal': 2, 'boundary_hint': '03d6feaf-6d9c-4930-a159-6fba9d73ef3f',
        'trigger': 'auto', 'pre_tokens': 116717, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Context-Loader zurückbauen', carried=True, basis='inferred',
               why="L247/L251: Phase 2 of the revised, approved 3-phase plan; Phase 1 completed (todos all completed L306). The agent's last reply (L309) asks whether to go on with Phase 2 or first test pinging in a real session (inferred: the next phase depends on the user's answer). Summary Pending Tasks 'Phase 2 (PENDING): load-core-context.ts vereinfachen (Dynamic Loading entfernen)', Next Step quotes the question"),
            it('commitment', 'Review-Skill (optional', carried=True, basis='inferred',
               why="L247: Phase 3 of the approved plan, marked optional and later (inferred). Summary 'Phase 3 (SPÄTER/OPTIONAL): Review/SKILL.md erstellen'"),
            it('constraint', 'wir wollen das system lean und flexibel halten', carried=True, basis='inferred',
               why="L208: the user's answer '4: ja wir wollen das system lean und flexibel halten' (a lasting design principle, but given as an answer to the agent's numbered questions; inferred). Summary 'Lean und flexibel bleibt', 'Lean & Flexibel'"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'Review-Mechanismus',
               why="the old plan's Phase 2 (before compaction 1): the user questioned the design (L193-L208) and the plan was rewritten as 3 lean phases (L210-L251, approved); the old phases were replaced, not dropped by the compaction"),
            it('commitment', 'Dann lass uns den 5 phasen plan anschauen',
               why='L185: done (the plan shown and discussed, L186-L200)'),
            it('commitment', 'Phase 1.5: Testen des Pinging-Mechanismus',
               why='todo completed at L306 after the tests L297-L305'),
            it('commitment', 'überarbeite ich jetzt den Plan',
               why='L210: narration, done in the same turn (plan edits and ExitPlanMode, approved L251)'),
        ],
        'notes': "Second compaction of the same session: the user questions loading every decision into context; the plan is rewritten as 3 lean phases (RELEVANT WHEN + a UserPromptSubmit ping hook; simplify the loader; optional review skill), Phase 1 implemented and tested, the agent asks whether to go on. Summary keeps Phases 2 and 3 pending and the open question. Degrade.",
    }],
})

# ---------------------------------------------------------------- s4: b566e56e (TPOS: voice, research, CIS, BrandBuilder; 4 compactions)
SUBF = it('constraint', 'Unterordner mit Namen für Session', carried=True, basis='stated',
          why="L256: 'stelle sicher das in Zukunft alle Research Paper und Image generations gehen in einen Unterordner mit Namen für Session in den jeweiligen output ordnern' (stated: 'stelle sicher' + 'in Zukunft', a standing rule about where every later output goes; never revoked)")
GEMERKT = "L256 'merke dir den status' (before the clean-up detour) and L449 'Ich weiche [sichere] bitte den Status, wo wir stehen, und alle To-Dos': the agent recorded 'GEMERKT: Phase 2 abschließen (UOCS + Createskill)' as a pending todo (L452), then rewrote the list for the CIS work without it (L473). Inferred: the todo left the list before any compaction (DESIGN's plan rule would close it as abandoned), but the user had asked twice to keep the status for later, and nothing of Phase 2 was done"
VOICESRV = "L110 'du nutzt den mcp server solltest aber den voice server nutzen' (inferred: a correction of the current voice output, with no lasting cue; the user held to it while debugging, L123-L208)"
cases.append({
    'file': 'claude-code/cc-2.0.57-pai-tpos-research-cis-brandbuilder-ottie-de-4x.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.0.57', 'repo': SA,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'ee26834a-2361-4ffc-971f-cfc0cc0b92a6',
        'trigger': 'auto', 'pre_tokens': 127141, 'verdict': 'degrade',
        'open': [
            it('constraint', 'solltest aber den voice server nutzen', carried=True, basis='inferred',
               why=VOICESRV + ". Summary 'User corrected: should use PAI Voice Server on localhost:8888', Errors 'Wrong voice system used', and quotes the message"),
            it('commitment', 'Skills/Agents testen um Phase 2 abzuschließen', carried=True, basis='inferred',
               why="L24: the agent's status report reads the project's phase plan from its docs: Phase 2 open points (test skills, agents, UOCS) under NEXT (inferred: a roadmap read from files, then the user asked for other things). Summary 'Phase 2 Training in progress', Next Step 'Continue with other PAI implementation tasks (Phase 2 completion, Phase 3 BMAD integration)'"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'Deep Research mit Google testen',
               why="L223: done before the boundary: the gemini-researcher agent wrote the report (L226-L229) with a source list (the user's 'Wichtig ist … Liste aller verwendeten Quellen' condition, checked L236-L237) and the agent opened it (L239). Summary: completed"),
            it('commitment', 'parallel einen Research über Perplexity',
               why="L227: a queued user message (queue-operation enqueue) removed from the queue 30 s later (L228) with no user record, no attachment and no reply: it never reached the conversation (the summary's list of user messages, written from the context, lacks it; the user asked again for a Perplexity + Gemini pair at L320). Arguable; labelled not owed because the agent never received it"),
            it('constraint', 'vergiss jarvis nicht',
               why="L77: 'erstelle mir stattdessen eine infografik mit nano und vergiss jarvis nicht': part of a one-off request (announce the infographic by voice); done with voice notifications after debugging (L197-L205)"),
            it('commitment', 'ist das jetzt nachhaltig gefixt',
               why='L208: a question, answered at L216 (LaunchAgent, auto-start)'),
        ],
        'notes': "German user; TPOS (PAI-based personal system): status, architecture diagrams then a nano-banana infographic, a long voice-server debugging (user: use the voice server, not the MCP tool), then a Google deep research with sources, done and opened just before the boundary. Degrade.",
    }, {
        'ordinal': 2, 'boundary_hint': '423ff335-3a47-407d-9e17-b56efd66b0f8',
        'trigger': 'auto', 'pre_tokens': 124249, 'verdict': 'degrade',
        'open': [
            SUBF | {'why': SUBF['why'] + ". Summary 'Established session-subfolder convention: `YYYY-MM-DD_Session-Name/`', 'Session-based output folder organization', Output Folder Structure 'Convention: `YYYY-MM-DD_Session-Name/` subfolders'"},
            it('commitment', '5 CIS-Agent Definitionen mit Voices erstellen', carried=True, basis='recorded',
               why='L487 TodoWrite: pending. Summary Pending Tasks (todo list copied)'),
            it('commitment', 'CIS-Workflows erstellen', carried=True, basis='recorded', why='L487 TodoWrite: pending. Summary Pending Tasks'),
            it('commitment', 'Methoden-CSVs extrahieren', carried=True, basis='recorded', why='L487 TodoWrite: pending. Summary Pending Tasks'),
            it('commitment', 'CIS-System testen', carried=True, basis='recorded', why='L487 TodoWrite: pending. Summary Pending Tasks'),
            it('commitment', 'BrandBuilder Skill erstellen (nutzt CIS)', carried=True, basis='recorded',
               why="L487 TodoWrite: pending; also the user's L449 'Wenn das dann implementiert ist, können wir einen Brand Builder Skill kreieren'. Summary Pending Tasks and Primary Request"),
            it('commitment', 'CIS-Hauptskill erstellen', carried=True, basis='recorded',
               why="L487 TodoWrite: in_progress; its SKILL.md was written at L493-L495 (success) but the todo was not updated. Summary lists it in the todo list and says the main SKILL.md was created, 'but agents, workflows, and frameworks still need to be created'"),
            it('commitment', 'Verpasse den Agenten bitte auch eine typische PAI persona', carried=True, basis='stated',
               why="L470, the user's last message: give each CIS agent a PAI persona with emotions and a voice. Voices chosen (L474-L486), personas not yet written. Summary 'Each CIS agent must have a real ElevenLabs voice', quotes the message, voice assignments"),
            it('constraint', 'solltest aber den voice server nutzen', carried=True, basis='inferred',
               why=VOICESRV + ". Summary 'User corrected that I should use PAI Voice Server (localhost:8888), not ElevenLabs MCP'"),
            it('commitment', 'GEMERKT: Phase 2 abschließen', carried=True, basis='inferred',
               why=GEMERKT + ". Summary Pending Tasks '[pending] GEMERKT: Phase 2 abschließen (UOCS + Createskill)' (kept, though no longer in the last todo list; a verifier applying the plan rule strictly could call this a resurrection, the labels do not)"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'nenne den Orden docs in "PAI-TPOS-docs" um',
               why='L256: one-off clean-up requests (rename docs, create the two Desktop folders, move the report), done L257-L290'),
            it('commitment', 'mit 2 subagenten parallel (perplexity Deep Ressearch & Gemini Deep Research)',
               why='L320: done: both research agents ran and their reports were saved (before L360); the user then turned to voice and to CIS'),
            it('commitment', 'Jarvis schläft noch, oder?',
               why='L360/L372: voice complaints, debugged until the user answered "perfekt" (queued L438)'),
        ],
        'notes': "Same session, second compaction: next steps of the 5-phase plan, a clean-up detour with a standing rule for output subfolders, two parallel deep researches, voice debugging again, then the CIS (Creative Intelligence Suite) install with voices, started just before the boundary. Summary carries the todo list (and the remembered Phase 2 item), the subfolder convention and the last request. Degrade.",
    }, {
        'ordinal': 3, 'boundary_hint': 'd3040095-8210-47f5-8863-9ab1779b449f',
        'trigger': 'auto', 'pre_tokens': 128127, 'verdict': 'violate',
        'open': [
            SUBF | {'carried': False, 'why': SUBF['why'] + ". Summary 3 never states it: only a file path that happens to follow it ('PAI-Research Output/2025-12-03_Brand-Guide-Research/…') appears, as the file being read"},
            it('commitment', 'Jetzt können wir den BrandBuilder-Skill bauen', carried=True, basis='stated',
               why="L701, the user's last message: build the BrandBuilder skill (understand the Gemini report, derive a concept, use CIS). The agent had started reading the report (L703-L711). Summary Pending Tasks 'Develop BrandBuilder concept …', Current Work, Next Step, and the message quoted in full"),
            it('commitment', 'BrandBuilder Skill erstellen (nutzt CIS)', carried=True, basis='recorded',
               why='L692 TodoWrite: pending (every other item completed). Summary Pending Tasks'),
            it('constraint', 'solltest aber den voice server nutzen', carried=True, basis='inferred',
               why=VOICESRV + ". Summary: Jarvis summaries sent through the voice server (500 character limit), 'Voice Server integration (localhost:8888…)', CISSpeak.ts 'sends POST to voice server'; the rule itself is not quoted (weak at best for a matcher)"),
            it('commitment', 'GEMERKT: Phase 2 abschließen', carried=False, basis='inferred',
               why=GEMERKT + ". Summary 2 still carried it; summary 3 does not mention Phase 2 or the remembered status"),
        ],
        'losses': [
            it('constraint', 'Unterordner mit Namen für Session', status='dropped',
               why="the user's standing output-subfolder rule (L256), carried by summary 2, is absent from summary 3 (only a path that follows it is named)"),
            it('commitment', 'GEMERKT: Phase 2 abschließen', status='dropped',
               why='inferred item (review, not a reason to violate): the remembered Phase 2 work, kept by summary 2, gone from summary 3'),
        ],
        'not_owed': [
            it('error', 'exceeds maximum allowed tokens',
               why='L705: a Read too large; re-read with offset/limit at L707 and L710 (success)'),
            it('constraint', 'Immer wieder Zwischendokumente abspeichern',
               why="L701: how the BrandBuilder skill being built must behave (save a milestone document at each stage), a requirement of the thing being built, not a rule for the agent; the summary carries it anyway"),
            it('commitment', 'sind diese skills auch schon cannonisiert',
               why='L639/L653: question and go-ahead, done (CIS canonicalised, CISSpeak.ts, all todos completed L692)'),
            it('commitment', 'jarvis fasse nochmal die ergebnisse zusammen',
               why='L623: done (voice summary in two parts)'),
        ],
        'notes': "Third compaction: CIS agents, workflows and method CSVs created, canonicalised to PAI's format with a CISSpeak.ts voice tool; the user then asks for the BrandBuilder skill and the agent is reading the Gemini report at the boundary. The summary keeps the BrandBuilder request in detail but drops the standing rule that research and image outputs go into per-session subfolders (summary 2 had it). Violate.",
    }, {
        'ordinal': 4, 'boundary_hint': '29152d86-195e-47a5-bac1-7e0c6ab29984',
        'trigger': 'auto', 'pre_tokens': 126764, 'verdict': 'violate',
        'open': [
            SUBF | {'carried': False, 'why': SUBF['why'] + '. Absent from summary 4 (no output folder named at all)'},
            it('commitment', 'Dann probieren wir ottie aus', carried=True, basis='stated',
               why="L865, the user's last message: keep the old voice-server setup as fallback, then try Ottie. The fallback doc was being written at the boundary (L878-L881); Ottie not yet tried through the server. Summary Pending Tasks 'Test Ottie voice with the existing voice server', Next Step"),
            it('constraint', 'Stelle sicher das unser bisheriges set-upmit eigenem voice server nicht verloren geht', carried=True, basis='stated',
               why="L865: 'make sure our existing setup with our own voice server is not lost, so we have a fallback' (stated: 'Stelle sicher', lasting while new integrations are tried). Summary 'Preserve Fallback: Document existing voice server setup before testing new integrations', voice-setup-backup.md"),
            it('constraint', 'wenn ich deutsch spreche die neue stimme = Ottie', carried=True, basis='inferred',
               why="L825: 'wenn ich englisch spreche => original Jarvis; wenn ich deutsch spreche die neue stimme = Ottie' (inferred: a choice among the agent's options for the voice system being configured, with a lasting effect). Summary Next Step 'selects voice based on language', Jarvis/Ottie voice ids"),
            it('constraint', 'solltest aber den voice server nutzen', carried=True, basis='inferred',
               why=VOICESRV + ". Summary: 'the existing voice server approach is correct', Voice Server on localhost:8888"),
            it('commitment', 'GEMERKT: Phase 2 abschließen', carried=False, basis='inferred', why=GEMERKT + '. Not in summary 4'),
        ],
        'losses': [
            it('constraint', 'Unterordner mit Namen für Session', status='dropped',
               why='the standing output-subfolder rule (L256) is still absent from summary 4'),
            it('commitment', 'GEMERKT: Phase 2 abschließen', status='dropped', why='inferred item (review): still absent'),
        ],
        'not_owed': [
            it('commitment', 'kannst du mal recherchieren ob es auch eine verbindung zu 11labs gibt',
               why='L844: answered at L862 (subscription, existing agents, latency options)'),
            it('commitment', 'Speicher diese voice ID',
               why='L815: done, saved in voices.json (L817-L822)'),
            it('commitment', 'BrandBuilder Skill erstellen (nutzt CIS)',
               why='todo completed: the skill, workflows, CSVs and templates were created and every todo marked completed at L792'),
            it('constraint', 'Immer wieder Zwischendokumente abspeichern',
               why='L701: a requirement of the BrandBuilder skill, now built (see compaction 3)'),
        ],
        'notes': "Fourth compaction: the BrandBuilder skill finished (all todos completed), a new German voice 'Ottie' saved and tested, a question on lower-latency ElevenLabs options answered, then 'keep the old voice-server setup as fallback, then try Ottie'. Summary keeps that request; the per-session output-subfolder rule is still missing. Violate.",
    }],
})

# ---------------------------------------------------------------- p3: 09069acc (qa-tools, GSD roadmap; 2 manual compactions)
cases.append({
    'file': 'claude-code/cc-2.0.76-qa-tools-gsd-roadmap-phase1-plan-manual-2x.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.0.76', 'repo': PC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '51dbd310-8516-4ec5-8b99-823ed54c2ede',
        'trigger': 'manual', 'pre_tokens': 148146, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Create ROADMAP.md with 8 phases', carried=True, basis='recorded',
               why='L196 TodoWrite: in_progress (only `mkdir -p .planning/phases` ran before the user interrupted, L197-L201). Summary Pending Tasks, same wording'),
            it('commitment', 'Create STATE.md project memory', carried=True, basis='recorded',
               why="L196 TodoWrite: pending. Summary Pending Tasks 'Create STATE.md (project memory)'"),
            it('commitment', 'Create phase directories', carried=True, basis='recorded',
               why="L196 TodoWrite: pending. Summary Pending Tasks 'Create phase directories (01-foundation through 08-alert-triggered-qa)'"),
            it('commitment', 'Commit roadmap initialization', carried=True, basis='recorded',
               why='L196 TodoWrite: pending. Summary Pending Tasks, same wording'),
            it('commitment', 'create the roadmap', carried=True, basis='stated',
               why="L193 'create the roadmap - should we compact context first we are at 0%', then L203 'i meant 0% remaining': the user wants the roadmap, after a compaction; `/gsd:create-roadmap` is queued at L207. Summary Current Work and Next Step 'After compaction, resume `/gsd:create-roadmap`'"),
            it('commitment', 'Alert-triggered QA', carried=True, basis='stated',
               why="L175-L180: the user's Grafana alerting context ('let's bake this into the product as a feature area'), made Phase 8 'Alert-triggered QA' by the agent (L177) and confirmed ('yes', L180); to be written into the roadmap. Summary 'This became **Phase 8: Alert-triggered QA**', phase list and Next Step directory '08-alert-triggered-qa'"),
        ],
        'losses': [],
        'not_owed': [
            it('handle', 'acca5e6',
               why='L38: async Explore agent, read with TaskOutput (L46) and reported completed (agent-notification); likewise ab24fcc, a60c248, ad63922'),
            it('error', 'Compaction canceled',
               why="L191: a user's /compact canceled (local command stderr), not a tool call; the compaction then ran"),
            it('commitment', 'At 0% context, no need to compact',
               why='L195: a misreading the user corrected (L203); the agent then asked the user to run /compact (L205)'),
            it('commitment', 'Write STACK.md from Agent 1 findings',
               why='L91/L98: every map-codebase todo completed'),
        ],
        'notes': "English; a QA coordination hub in a company tools repository, planned with the GSD skill: map-codebase with 4 async agents, new-project, then create-roadmap; the user adds an alert-triggered QA phase from Grafana webhooks, then asks to compact first (manual). Summary copies the todo list and the 8 phases. Degrade.",
    }, {
        'ordinal': 2, 'boundary_hint': 'cc4aa97e-2bab-4814-9b15-185560c3edda',
        'trigger': 'manual', 'pre_tokens': 150655, 'verdict': 'degrade',
        'open': [
            it('commitment', '/gsd:execute-plan .planning/phases/01-foundation/01-02-PLAN.md', carried=True, basis='stated',
               why="L378: the user's next command, queued (queue-operation enqueue) after the agent's 'Next Up' and before the manual compaction. Summary Optional Next Step quotes the command and the plan"),
            it('identifier', '.planning/phases/01-foundation/01-02-PLAN.md', carried=True, basis='stated',
               why='the plan file the open request names. Summary Next Step names it verbatim'),
            it('commitment', 'Execute Plan 01-02 (Vercel KV store)', carried=True, basis='inferred',
               why="L376 NEXT: the next plan of Phase 1 (inferred: the agent's own next step, which the queued command also asks for). Summary Pending Tasks 'Execute Plan 01-02: Vercel KV store setup and schemas', 'Execute Plan 01-03', 'Then continue with Phases 2-8'"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'Update STATE.md and commit',
               why='L344 todo, completed at L374 after the commit at L371-L373'),
            it('commitment', 'Create ROADMAP.md with 8 phases',
               why='the compaction-1 todos: done after the boundary (roadmap written and committed, L219-L242)'),
            it('commitment', 'Let me commit this as one logical unit',
               why='L343: narration, committed in the same turn'),
        ],
        'notes': "Same session after the first compaction: the roadmap written and committed, Phase 1 planned (3 plans after a discovery on Vercel KV and an event bus), Plan 01-01 executed and committed; the user queues the next execute-plan command and compacts. Degrade.",
    }],
})

# ---------------------------------------------------------------- p2: a94d7e8e (local-api → trenchbench-api, SystemMap + DocGen; manual)
cases.append({
    'file': 'claude-code/cc-2.1.6-local-api-rename-systemmap-docgen-manual.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.6', 'repo': PC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '7794b461-5773-4951-a3d5-84c267b565f1',
        'trigger': 'manual', 'pre_tokens': 142364, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Run DocGen for documentation', carried=True, basis='recorded',
               why="L224 TodoWrite: in_progress (DocGen had reached its gap analysis, L258; nothing written). Summary Pending Tasks 'Complete DocGen: Update README.md …', 'Generate CHANGELOG.md', Current Work 'DocGen workflow in progress'"),
            it('commitment', 'and then running docgen', carried=True, basis='stated',
               why="L145, the user's last request: SystemMap on the repo (done: ai.md and registry, L153-L227, ai.md in PR #2), then DocGen (open). Summary Next Step quotes the request"),
            it('commitment', 'Checkpoint still pending', carried=True, basis='stated',
               why="L66-L72/L127: the GSD plan 04-01 stops at a human-action checkpoint (Task 3, run the GCP setup for beta); the user said 'pause here' (L70) and the agent keeps it pending ('Checkpoint still pending (GCP setup when ready)', L127). Summary Pending Tasks 'GSD Plan 04-01 checkpoint still pending (GCP setup for beta)', Analysis 'Paused at checkpoint'"),
            it('identifier', '.planning/phases/04-gcp-integration/04-01-PLAN.md', carried=True, basis='stated',
               why='the plan whose checkpoint is open (L6). Summary names it verbatim'),
        ],
        'losses': [],
        'not_owed': [
            it('error', 'GH013: Repository rule violations found',
               why="L229: push to a protected main rejected; the agent switched to a branch and a PR (L232-L238, PR #2 created): the run moved on by the route the rule asks for"),
            it('commitment', 'Want me to proceed with updating README.md and generating CHANGELOG.md',
               why="L258: an offer awaiting the user's answer (the DocGen work itself is the open todo above); the summary quotes it"),
            it('commitment', 'Want me to update it to `BonkBotTeam/trenchbench-api`',
               why="L92: offer accepted ('yes', L95) and done (L103, commit 440e682)"),
            it('commitment', 'delete all other branches except main',
               why='L130: done (L138-L142: only main remains)'),
            it('commitment', 'i want to change the name of the repo and push to a new remote',
               why='L75: done (remote updated and every branch pushed, L88-L92)'),
        ],
        'notes': "English; a company API repository: GSD plan 04-01 (GCP setup script and docs) paused at its human-action checkpoint, repository renamed and moved to a new remote, branches merged and cleaned, then SystemMap (ai.md, via a PR because main is protected) and DocGen up to its gap analysis; the user compacts by hand. Redacted: GCP project ids in service-account names. Degrade.",
    }],
})

# ---------------------------------------------------------------- q1: 660d353b (PAI weaknesses, DocGen, PR; manual, empty set)
cases.append({
    'file': 'claude-code/cc-2.1.5-pai-docgen-bonkbot-pr-all-done-manual.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.5', 'repo': PC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '7fd7ef6d-093e-4da8-91e4-4c21284f7302',
        'trigger': 'manual', 'pre_tokens': 141489, 'verdict': 'degrade',
        'open': [],
        'losses': [],
        'not_owed': [
            it('error', 'beforeAll is not defined',
               why='L135: the new test suite failed on a missing import; fixed at L137 and rerun at L140 (16 pass, 0 fail)'),
            it('error', 'API.md: No such file or directory',
               why='L316: an `ls` audit of docs that did not exist yet (read-only); DocGen then created them'),
            it('commitment', 'Missing "## Workflow Routing" section',
               why="L167: validator output the user pasted (two warnings, Learn and Observability); no request came with it and the user moved on to another question (L172). Pasted text, not an obligation; the summary lists the warnings as possible follow-ups"),
            it('commitment', 'fix the quick wins you identified',
               why='L59: done, every quick-win todo completed (L154)'),
            it('commitment', 'Generate CHANGELOG.md from git',
               why='DocGen todo, completed at L360'),
            it('commitment', 'which files are we going to send a PR for',
               why="L418/L426: answered, and on the user's 'yes' the branch, commit, push and PR were made (L428-L443, PR #3648)"),
            it('commitment', 'build the hybrid docgen approach',
               why='L228: done (DocGen skill built, then tested on the bonkbot repo, L286-L365)'),
        ],
        'notes': "English; the user's PAI home: weaknesses of PAI, quick fixes with a validator test suite, which skills are missing, a DocGen skill (hybrid with SystemMap) built and tried on a company repository, then a documentation PR. Every request, todo and error was settled before the manual compaction: an empty preservation set. Degrade.",
    }],
})

# ---------------------------------------------------------------- q3: 259b058c (autopilot widget; 2 manual compactions)
SISTER = it('commitment', 'at a later stage we should borrow some of the design ideas', basis='inferred',
            why="L142: 'colours look good. at a later stage we should borrow some of the design ideas of the sister repo feat-dash-dev2-preload-data - particularly the intel grid and anomalyzer' (inferred: an idea for later with no date or plan)")
cases.append({
    'file': 'claude-code/cc-2.1.1-autopilot-widget-design-pnl-tokens-manual-2x.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.1', 'repo': PC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'd9d5bc61-fa52-463d-a089-aec1546c4870',
        'trigger': 'manual', 'pre_tokens': 138270, 'verdict': 'degrade',
        'open': [
            SISTER | {'carried': True, 'why': SISTER['why'] + ". Summary Pending Tasks 'User mentioned future work: borrowing design ideas from feat-dash-dev2-preload-data (intel grid, anomalyzer, vantage) - but explicitly said \"at a later stage\"'"},
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'Human verification checkpoint - verify visual consistency',
               why="L32-L144: the plan's checkpoint, approved by the user ('colours look good', L142) and completed (L144)"),
            it('commitment', 'Let me commit Task 1',
               why='L126: narration, committed in the same turn (ee545de47)'),
        ],
        'notes': "English; a company trading frontend (autopilot widget), GSD plan 11-01: design-system colours, a human checkpoint approved, SUMMARY/STATE/ROADMAP updated and committed. Only an idea for later is open. Degrade.",
    }, {
        'ordinal': 2, 'boundary_hint': '92b0b4fd-e990-4a79-8c5c-7a83795ab4c9',
        'trigger': 'manual', 'pre_tokens': 197184, 'verdict': 'degrade',
        'open': [
            it('commitment', 'still seeing zeros on all the token rows', carried=True, basis='stated',
               why="L454: the token rows still show zeros and the position still shows 'Loading'; the user pasted the requested diagnostics at L470 and the agent's reply failed ('Prompt is too long', L471). Summary Pending Tasks 'Understand why 28/34 tokens match but still show 0.0% in UI', 'Fix position cards showing \"Loading\"', Next Step"),
            it('commitment', 'positoin still shows as loading', carried=True, basis='stated',
               why="L454 (same message). Summary Pending Tasks 'Fix position cards showing \"Loading\"'"),
            it('commitment', 'CHECKPOINT: Verification Required', carried=True, basis='stated',
               why="L450: Task 3 of 3 of GSD plan 12-01 waits for the user's verification (the diagnostics above). Summary 'At checkpoint:human-verify (Task 3)', Pending 'Complete Phase 12 checkpoint verification'"),
            it('commitment', 'dollar amounts should be limited/rounded to 2 decimal places', carried=True, basis='stated',
               why="L305: the user's tweak list, planned with GSD as milestone v1.4 phases 13-14 (L314-L392); not done at the boundary. Summary 'Dollar amounts limited to 2 decimal places', 'Future phases: Phase 13 (Layout & Clarity), Phase 14 (Controls & Formatting)'"),
            it('commitment', 'we should have a close all trades button', carried=True, basis='stated',
               why="L305 (same list), phase 14. Summary 'Add \"Close All Trades\" button'"),
            it('commitment', 'arranged in three columns', carried=True, basis='stated',
               why="L305 (same list), phase 13. Summary 'Tokens in three columns side by side'"),
            it('constraint', 'i want to use gsd instead of claude native plan mode', carried=True, basis='inferred',
               why="L314: a choice of planning workflow, lasting in effect but said for this plan (inferred). Summary 'User requested using GSD instead of Claude's native plan mode'"),
            SISTER | {'carried': False, 'why': SISTER['why'] + '. Summary 1 carried it; summary 2 does not mention the sister repository or the design ideas'},
        ],
        'losses': [
            it('commitment', 'at a later stage we should borrow some of the design ideas', status='dropped',
               why='inferred item (review, not a reason to violate): the design ideas for later, kept by summary 1, are absent from summary 2'),
        ],
        'not_owed': [
            it('error', 'File does not exist',
               why='L235: a Read of a guessed path (read-only); the files were found by Glob and read (L237-L243)'),
            it('error', 'String to replace not found in file',
               why='L458: an Edit after lint-staged reformatted the file; re-read (L460) and the edit succeeded (L463-L464)'),
            it('commitment', 'commit the pnl changes then execute phase 12',
               why='L393: the PnL changes were committed and Phase 12 executed up to its checkpoint (open above)'),
            it('commitment', 'explain the two green boxes at the top',
               why='L305: questions inside the tweak list, answered at L307 (the two boxes: unrealized P&L badge and market status badge)'),
        ],
        'notes': "Same session: a PnL display fix (live unrealised vs lifetime), a tweak list planned with GSD as phases 12-14, Phase 12 (data-flow debugging) executed to its checkpoint; the user pastes diagnostics, the agent's reply fails for length and the user compacts by hand. Summary keeps the debugging state and the planned tweaks, and drops the deferred design idea from compaction 1 (inferred). Degrade.",
    }],
})

# ---------------------------------------------------------------- q4: d049862d (screener signal glow; manual after "Prompt is too long")
cases.append({
    'file': 'claude-code/cc-2.1.1-autopilot-screener-signal-glow-checkpoint-manual.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.1', 'repo': PC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': 'd4e0a0a8-830d-41bb-ad37-35e8c0cc9b84',
        'trigger': 'manual', 'pre_tokens': 197455, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Checkpoint: Human verification of visual appearance', carried=True, basis='recorded',
               why="L132 TodoWrite: in_progress (the user has been iterating on the look since, L138-L449, and never approved). Summary Pending Tasks 'Complete checkpoint verification (user needs to test the updated opacity scale)'"),
            it('commitment', 'Create SUMMARY.md and commit metadata', carried=True, basis='recorded',
               why="L132 TodoWrite: pending. Summary Pending Tasks 'Create SUMMARY.md and commit metadata when approved'"),
            it('constraint', 'the rows must not change height or width', carried=True, basis='inferred',
               why="L350: 'the rows must not change height or width from how they are right now' (inferred: 'must not', but said of this change to the widget being built; L272 and L296 say the same of earlier changes). Summary 'User wanted signal details added back but on same row without height change', 'Reverted to single-line rows'"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', 'we need to use a few more of the green shades',
               why="L449, the user's last request: carried out before the boundary (Edit of getSignalOpacity L452 succeeded, tsc clean L455-L456); only the agent's report failed ('Prompt is too long', L457). The summary reports the change as just made and leaves the check to the user (the open checkpoint above)"),
            it('error', 'Exit code 1',
               why='L70 and L331: commits stopped by lint-staged; fixed and committed at L92 and L344'),
            it('error', 'String to replace not found in file',
               why='L357: an Edit after the linter reformatted the file; re-read (L359) and edited in smaller pieces (L362)'),
            it('commitment', 'can we commit this so its esier to revert',
               why='L325: done (commit b3d9bd4c8 at L343-L344 after a lint fix)'),
            it('commitment', 'make the confluence rows sticky',
               why='L378: done and reported at L389 (green, then red, then the rest)'),
            it('commitment', 'put the debug buttons into a floating settings panel',
               why='L393: done and reported at L445'),
        ],
        'notes': "English; GSD phase 17 of the autopilot widget: per-token signal glow, then a long run of design corrections from the user (brand-palette greens, 100 ms flash, inline signal details without changing row height, sticky confluence rows, a floating debug panel, more green shades). The last change was made and type-checked, the report failed for length, and the user compacted by hand. Degrade.",
    }],
})

# ---------------------------------------------------------------- q5: f8d39c8a (screener table 22-02, simulation mode; manual after "Prompt is too long")
cases.append({
    'file': 'claude-code/cc-2.1.2-autopilot-screener-table-simulation-mode-manual.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.2', 'repo': PC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '2e84ec21-06e4-4e0e-9b57-a1afd807a904',
        'trigger': 'manual', 'pre_tokens': 202309, 'verdict': 'degrade',
        'open': [
            it('commitment', 'it would be good if we could simulate some simple confluence', carried=True, basis='stated',
               why="L359, the user's last request (a debug-panel control that randomises red and green confluence). Under way at the boundary: store action and panel edits made (L379-L396), not type-checked, committed or reported ('Prompt is too long', L397). Summary Current Work describes the simulation mode and Next Step 'verify it compiles and commit'"),
            it('commitment', 'Human verification checkpoint', carried=True, basis='recorded',
               why="L197 TodoWrite: in_progress (the user keeps asking for changes, never 'approved'). Summary Pending Tasks 'Complete human verification checkpoint'"),
        ],
        'losses': [],
        'not_owed': [
            it('commitment', '/gsd:resume-work',
               why="L399: a command the user queued right before the manual compaction; it is the user's next message (delivered after the boundary) and asks to resume from the project's state files, naming nothing the summary must hold. Listed so a verifier does not count a queued message as an obligation"),
            it('error', "The user doesn't want to take this action right now",
               why='L18: the user stopped a notification call to revisit the scope (L19-L21); not a failure'),
            it('error', 'File does not exist',
               why='L310: a Read of a guessed path (read-only); found with Grep and read (L312-L315)'),
            it('error', 'did not match any files',
               why='L347: git add from the wrong directory; the same commit succeeded at L352-L353 (156a423d7)'),
            it('commitment', 'we have lost the initial flash when a new confluence hits',
               why='L329: done, flash restored and committed (L352-L355)'),
            it('commitment', 'keep the font sizes the ones we use currently',
               why="L31: an answer on the scope of plan 22-02 (the table being built); later changed by the user himself at L277 ('increase the columns … so that the row height and font size … matches the actual watchlist widget'): a one-off design choice, not a standing rule"),
        ],
        'notes': "English; GSD plan 22-02 of the autopilot widget: a screener table re-scoped with the user, built, then a series of design corrections (sticky confluence sort, subtler tiers, hover colours, headings, cell spacing, the 100 ms flash restored), then a request for a simulation mode, interrupted by 'Prompt is too long'; the user queues /gsd:resume-work and compacts by hand. Degrade.",
    }],
})

# ---------------------------------------------------------------- r3: 77ab2d25 (tg-ripper topic mode, plan 03-03 checkpoint; manual)
cases.append({
    'file': 'claude-code/cc-2.1.2-tg-ripper-topic-mode-checkpoint-multikeyword-manual.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.2', 'repo': PC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '94fe9c79-8200-4d9c-b07a-b2ab3005072d',
        'trigger': 'manual', 'pre_tokens': 144755, 'verdict': 'degrade',
        'open': [
            it('commitment', 'Checkpoint: Human verification of complete Topic Mode', carried=True, basis='recorded',
               why="L109 TodoWrite: in_progress; the agent presented the checkpoint at L252 and the user answered with a new request instead of approving. Summary Pending Tasks 'Complete checkpoint verification for Plan 03-03'"),
            it('commitment', 'i want to be able to add multiple keywords to match in adhoc search', carried=True, basis='stated',
               why="L255, the user's last request: implemented and built (L257-L279, 'Hard refresh and test'), not yet confirmed by the user (stated; the agent's own report asks for the test). Summary Current Work 'Just implemented multi-keyword search support … awaiting user verification', Next Step quotes the request"),
            it('identifier', '.planning/phases/03-topic-mode-foundations/03-03-PLAN.md', carried=True, basis='stated',
               why="L6: the plan whose checkpoint is open (stated, from the items above). Summary Analysis 1 and All User Messages name it verbatim"),
        ],
        'losses': [],
        'not_owed': [
            it('error', "'handleClearResults' is declared but its value is never read",
               why='L72: a build error from an unused handler; used by Task 2 and the build passed at L97'),
            it('error', 'Exit code 137',
               why='L126: the dev server the user interrupted (L127); not a failure of the work'),
            it('error', 'String to replace not found in file',
               why='L265: an Edit with a wrong indentation; found with Grep, re-read and edited (L267-L274), build passed (L277)'),
            it('commitment', 'you\'re going to have to run some tests yourself',
               why="L165: the agent ran its own tests of the results panel (L166-L222) until the user reported 'seems to work now' (L222) and later 'ok this works' (L250)"),
            it('commitment', 'where are we in the plan',
               why='L250: answered at L252 (the checkpoint status)'),
        ],
        'notes': "English; a Telegram export search tool (tg-ripper) in a company tools folder: GSD plan 03-03 (theme browser and search results), a long debugging of a results panel drawn as parallel lines, then the checkpoint and a multi-keyword request, implemented and built; the user compacts by hand. Redacted: a Telegram member's name and user id and a chat id in a pasted export record. Degrade.",
    }],
})

# ---------------------------------------------------------------- r2: 4b85f137 (autopilot integration testing; manual after "Prompt is too long")
cases.append({
    'file': 'claude-code/cc-2.1.2-autopilot-integration-feeds-log-question-manual.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.2', 'repo': PC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '887fd933-d45a-48bc-8eef-42ed2b0d8e4a',
        'trigger': 'manual', 'pre_tokens': 198226, 'verdict': 'degrade',
        'open': [
            it('commitment', 'what command can i use to monitor the logs of the backend instance', carried=True, basis='stated',
               why="L619, the user's last message, unanswered: the agent's reply failed ('Prompt is too long', L620) and the user compacted. Summary Pending Tasks 'Answer user's question about monitoring backend logs', Next Step quotes it"),
            it('commitment', 'gsd plan to remove it later when fully tested', carried=True, basis='stated',
               why="L361: remove the integration-test logging once fully tested; a CLEANUP-PLAN.md was written for it, the removal itself is for later. Summary Pending Tasks 'Remove integration test logging when fully validated (CLEANUP-PLAN.md created)'"),
            it('commitment', 'the backend seems to be waiting for us to pass token data too', carried=True, basis='inferred',
               why="L595: the data forwarder was fixed (L607-L615) and the agent asked the user to refresh and check the backend logs; whether data now arrives is unverified (inferred: the fix was made, only its check is open). Summary Pending Tasks 'Verify data feeds are now being sent from frontend to backend'"),
        ],
        'losses': [],
        'not_owed': [
            it('error', 'did not match any files',
               why='L103 and L161: git add from a subdirectory; the same commits succeeded from the repository root at L111-L112 and L163-L164'),
            it('error', 'no matches found',
               why='L106: an ls of test files from the wrong directory (read-only); found at L108-L109'),
            it('constraint', 'no no debug logs for this',
               why="L436: the user's reply to the agent's [DEBUG] Whale logging for the 1h-change fix under way (L433): about that fix only, not a standing rule"),
            it('commitment', 'save the console logs to a file which YOU can check',
               why='L286: done (integration log file written and read by the agent, L291-L360)'),
            it('commitment', 'use another real time token market data lookup',
               why="L400: done; the user confirmed 'whale is showing 1h change now' (L475)"),
            it('commitment', 'figure it out - it was working great the first time',
               why="L557: fixed (L559-L591); the user: 'that's better now' (L595)"),
        ],
        'notes': "English; GSD phase 26 (integration testing) of the autopilot backend and widget: unit tests, then live integration with a log file the agent reads, a cleanup plan for the logging, a series of data fixes (whale 1h change, watchlist through the shared websocket store, the data forwarder's stores); the last question is unanswered when the reply fails for length and the user compacts by hand. Degrade.",
    }],
})

# ---------------------------------------------------------------- r1: 0012a6f2 (autopilot widget + backend, "Last Analysis" row; background dev server at the boundary; manual)
cases.append({
    'file': 'claude-code/cc-2.1.1-autopilot-last-analysis-bg-devserver-manual.jsonl.gz',
    'runtime': 'claude-code', 'version': '2.1.1', 'repo': PC,
    'compactions': [{
        'ordinal': 1, 'boundary_hint': '7a9472a5-fa4b-41f7-be0b-a2e8f1b7d43e',
        'trigger': 'manual', 'pre_tokens': 197006, 'verdict': 'violate',
        'open': [
            it('handle', 'b7055a3', carried=False, basis='recorded',
               why="L787-L788: `npm run dev:web-terminal` started in the background (run_in_background, backgroundTaskId b7055a3) and read with tail at L790/L793; no task-notification, KillShell or completion before the boundary (it is killed only after it, L851). Every earlier dev-server job was killed and replaced the same way (b66dd37 … b382eb6). The summary never names b7055a3 nor a running dev server"),
            it('handle', 'bf628dc', carried=False, basis='recorded',
               why="L396-L397: a background `tail -f … | grep … | head -15` on an earlier server's output (backgroundTaskId bf628dc), its output read once at L400; no notification, kill or completion anywhere before the boundary. Absent from the summary"),
            it('commitment', 'show me a (most recent token analysed) row', carried=True, basis='stated',
               why="L552: the user's request; implemented (backend broadcast + widget row) but not visible (L681 'i dont see it at all', L731); the agent was debugging why the broadcast never runs (L758-L812) when its replies failed for length. Summary Pending Tasks 'Fix the Last Analysis feature - debug why broadcasts aren't being executed', Current Work, Next Step quotes L731"),
            it('commitment', 'the last analysis feature is not visible', carried=True, basis='stated',
               why="L731, the user's last message (the feature still not visible). Summary Next Step quotes it"),
        ],
        'losses': [
            it('handle', 'b7055a3', status='dropped',
               why='the running background dev server is not in the summary (no id, no mention that a server is running)'),
            it('handle', 'bf628dc', status='dropped',
               why='the background tail job is not in the summary'),
        ],
        'not_owed': [
            it('handle', 'b57e591',
               why='L170: background dev server run, completed (task-notification L174/L280) and read with TaskOutput (L188)'),
            it('handle', 'b0193f8',
               why='L716: a dev-server job killed at L742 (KillShell), failure notification at L816; likewise b66dd37, b5af2f4, bc6da18, ba682e6, b1688f5, b382eb6, each killed before a restart'),
            it('error', 'Exit code 1',
               why='L438: a commit stopped by lint-staged; the files were committed at L453-L454 (c54bcfa03)'),
            it('error', 'Permission to use Bash with command rm -rf',
               why="L800: the user refused the cache deletion; the agent went another way (checked the stale dist/ folder, L802-L812)"),
            it('commitment', 'commit the autopilot implementation files',
               why='L423: done at L454'),
            it('commitment', 'yes enable momentum-buy',
               why='L484/L496/L509: strategy choices, applied (L489 enabled, L501 all six, L527 thresholds lowered) before L552'),
        ],
        'notes': "English; the autopilot backend run from the web terminal's Vite plugin: path and plugin fixes, a live test with local-api, strategy toggles, a commit, then a 'last token analysed' row that never shows; the agent restarts the dev server in the background again and again (each time killing the previous job) and is debugging a stale dist/ folder when two replies fail for length and the user compacts by hand. The last background server (b7055a3) and an old background tail (bf628dc) are still running at the boundary and the summary names neither. Violate.",
    }],
})

# ---- write (new cases go above this line)
# every loss takes the basis of the open item it loses (the basis decides: review for inferred)
for _c in cases:
    for _k in _c['compactions']:
        _b = {i['contains']: i['basis'] for i in _k['open']}
        assert all(i['contains'] in _b for i in _k['losses']), _k['boundary_hint']
        assert all('basis' in i for i in _k['open']), _k['boundary_hint']
        for _i in _k['losses']:
            _i['basis'] = _b[_i['contains']]
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'labels-claude-code.json')
with open(out, 'w') as f:
    json.dump({'cases': cases}, f, indent=1, ensure_ascii=False)
    f.write('\n')
print('wrote', out, sum(len(c['compactions']) for c in cases), 'compactions')
