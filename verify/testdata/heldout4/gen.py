#!/usr/bin/env python3
"""Regenerate held-out set 4 for loupe: *.jsonl transcripts and labels.json.

Usage:  python3 gen.py            (writes next to this file)

Set 4 aims at what sets 1-3 may have missed: transcripts shaped like real
coding-agent runs (several user requests, reasoning around commitments,
realistic commands and outputs, 2-3 compactions per run, summaries of 10-40
lines in the real layouts), with several items per compaction of which only
one or two are lost, flipped or resurrected.  Traps it adds:

  * near-duplicate obligations that differ in one word, only one of them lost;
  * an item mentioned twice in one summary (Current Work + Pending Tasks);
  * pending items whose wording contains completion words ("once ... merged");
  * closed work correctly omitted, or mentioned as done, or quoted in Claude
    Code's "All user messages" section (a quote of a request is not a claim
    that the work is still pending);
  * constraints that survive only as a verbatim user quote;
  * successful tool output that merely contains the word "error";
  * a non-zero exit status reported in a result that is not flagged is_error;
  * identifiers at token boundaries (BOX-41 / BOX-414, flags.go as a trailing
    path segment, robots.py inside test_robots.py);
  * identifier loss that violates without refusing any default consumer.

Domains: ranked-choice vote tabulation, calendar recurrence, genealogy,
Python dependency resolution, font subsetting, language servers, sports
league scheduling, event ticketing, recipe scaling, CAD mesh repair, photo
deduplication, course autograding, spreadsheet engines, dotfile managers,
library circulation, web archiving, crossword construction, real-estate feeds.

Labels are what a careful reader of DESIGN.md decides, not what any
implementation says.  Where a status is genuinely ambiguous, two are accepted.
"""
import json
import os
import random
from datetime import datetime, timedelta, timezone

OUT = os.path.dirname(os.path.abspath(__file__))

CC_HEAD = ("This session is being continued from a previous conversation that ran out of context. "
           "The summary below covers the earlier portion of the conversation.\n\n")
CC_TAIL = ("\n\nPlease continue the conversation from where we left off without asking the user any "
           "further questions. Continue with the last task that you were asked to work on.")

B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


class Run:
    """Builds one loupe/v1 transcript; every event gets the next turn."""

    def __init__(self, name, agent, source=None, consumers=None, idstyle="toolu"):
        self.name = name
        meta = {"type": "meta", "format": "loupe/v1", "run": name, "agent": agent}
        if source:
            meta["source"] = source
        if consumers:
            meta["consumers"] = consumers
        self.events = [meta]
        self.turn = 0
        self.seq = 0
        self.rng = random.Random("heldout4:" + name)
        self.clock = datetime(2025, 3, 3, 9, 0, 0, tzinfo=timezone.utc) + timedelta(
            days=self.rng.randint(0, 120), minutes=self.rng.randint(0, 300))
        self.idstyle = idstyle
        self.ncall = 0

    # ids ---------------------------------------------------------------
    def cid(self):
        self.ncall += 1
        if self.idstyle == "toolu":
            return "toolu_01" + "".join(self.rng.choice(B62) for _ in range(22))
        if self.idstyle == "call":
            return "call_" + "".join(self.rng.choice(B62) for _ in range(24))
        if self.idstyle == "gemini":
            return "%s-%d-%s" % ("fc", 1741000000000 + self.ncall * 7919,
                                 "".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6)))
        if self.idstyle == "oh":
            return "toolcall_%03d" % (self.ncall + 40)
        if self.idstyle == "seq":
            return "call_%d" % self.ncall
        raise ValueError(self.idstyle)

    # events ------------------------------------------------------------
    def _add(self, ev, gap=None):
        self.turn += 1
        self.clock += timedelta(seconds=gap if gap is not None else self.rng.randint(4, 95))
        ev = dict(ev)
        ev["turn"] = self.turn
        ev["ts"] = self.clock.strftime("%Y-%m-%dT%H:%M:%SZ")
        # keep "type" first for readability
        out = {"type": ev.pop("type"), "turn": ev.pop("turn")}
        out.update(ev)
        self.events.append(out)
        return self.turn

    def user(self, text):
        return self._add({"type": "message", "role": "user", "text": text}, gap=self.rng.randint(60, 600))

    def asst(self, text):
        return self._add({"type": "message", "role": "assistant", "text": text})

    def call(self, name, inp, cid=None):
        cid = cid or self.cid()
        t = self._add({"type": "tool_call", "id": cid, "name": name, "input": inp})
        return cid, t

    def result(self, cid, text, is_error=False):
        return self._add({"type": "tool_result", "id": cid, "is_error": is_error, "text": text})

    def tool(self, name, inp, text, is_error=False, cid=None):
        cid, tc = self.call(name, inp, cid)
        tr = self.result(cid, text, is_error)
        return cid, tc, tr

    def bash(self, cmd, text, is_error=False, name="Bash", key="command", cid=None):
        return self.tool(name, {key: cmd}, text, is_error, cid)

    def plan(self, items):
        return self._add({"type": "plan", "items": [
            {"id": i, "text": t, "status": s} for (i, t, s) in items]})

    def commitment(self, cid, text, status):
        return self._add({"type": "commitment", "id": cid, "text": text, "status": status})

    def compact(self, summary, self_report=None, trigger="auto", before=None, after=None):
        self.seq += 1
        ev = {"type": "compaction", "seq": self.seq, "trigger": trigger, "summary": summary}
        if self_report is not None:
            ev["self_report"] = self_report
        ev["tokens_before"] = before or self.rng.randint(120000, 190000)
        ev["tokens_after"] = after or max(1200, len(summary) // 4 + self.rng.randint(300, 900))
        t = self._add(ev)
        return self.seq, t

    def write(self):
        path = os.path.join(OUT, self.name + ".jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for ev in self.events:
                f.write(json.dumps(ev, ensure_ascii=False) + "\n")


class Case:
    """Labels for one transcript, in the dev set's schema."""

    def __init__(self, run):
        self.file = run.name + ".jsonl"
        self.comps = {}
        self.findings = []
        self.no_findings = []

    def comp(self, seq, verdict=None):
        c = {"items": [], "seq": seq}
        if verdict:
            c = {"verdict": verdict, "items": [], "seq": seq}
        self.comps[seq] = c
        return Comp(c)

    def finding(self, kind, turn):
        self.findings.append({"kind": kind, "turn": turn})

    def none(self, kind):
        self.no_findings.append({"kind": kind})

    def to_json(self):
        return {"file": self.file,
                "compactions": [self.comps[k] for k in sorted(self.comps)],
                "findings": self.findings, "no_findings": self.no_findings}


class Comp:
    def __init__(self, d):
        self.d = d

    def item(self, kind, turn, contains, status, self_report=None):
        if isinstance(status, str):
            status = [status]
        it = {"kind": kind, "turn": turn, "contains": contains, "status": list(status)}
        if self_report:
            it["self_report"] = self_report
        self.d["items"].append(it)
        return self

    def notreq(self, kind, turn, contains):
        self.d["items"].append({"kind": kind, "turn": turn, "contains": contains, "not_required": True})
        return self

    def cons(self, **allowed):
        self.d.setdefault("consumers", [])
        for name in ("planner", "router", "verifier"):
            if name in allowed:
                self.d["consumers"].append({"name": name, "allowed": allowed[name]})
        for name, v in allowed.items():
            if name not in ("planner", "router", "verifier"):
                self.d["consumers"].append({"name": name, "allowed": v})
        return self

    def unsourced(self, needle):
        self.d.setdefault("unsourced_claims", []).append(needle)
        return self


def cc(sections, analysis=None):
    """Claude Code summary: numbered sections keyed by heading text."""
    out = [CC_HEAD.rstrip("\n"), ""]
    if analysis:
        out += ["Analysis:", analysis.strip("\n"), ""]
    out.append("Summary:")
    for i, (head, body) in enumerate(sections, 1):
        out.append("%d. %s:" % (i, head))
        out.append(body.strip("\n"))
        out.append("")
    return "\n".join(out).rstrip("\n") + CC_TAIL


def snapshot(parts):
    out = ["<state_snapshot>"]
    for tag, body in parts:
        out.append("    <%s>" % tag)
        for line in body.strip("\n").split("\n"):
            out.append("        " + line.strip())
        out.append("    </%s>" % tag)
    out.append("</state_snapshot>")
    return "\n".join(out)


def md(sections):
    out = []
    for head, body in sections:
        out.append(head)
        out.append(body.strip("\n"))
        out.append("")
    return "\n".join(out).rstrip("\n")


def fields(pairs):
    return "\n".join("%s: %s" % (k, v.strip("\n")) for k, v in pairs)


SCENARIOS = []


def scenario(fn):
    SCENARIOS.append(fn)
    return fn


# ---------------------------------------------------------------------------
# k01  ranked-choice tabulator, Claude Code layout, 3 compactions
#   #1 degrade: closed commitment + closed error + three constraints, one of
#      them only fully present as a verbatim user quote
#   #2 violate: near-duplicate "tabulate the north / south precinct recount",
#      south lost; closed exporter quoted in "All user messages" (not resurrected)
#   #3 degrade: south was really run after a false completion; the user's
#      complaint about it is quoted (not resurrected); branch kept
# ---------------------------------------------------------------------------
BALLOT_PY = '''"""Ballot walking for instant-runoff rounds."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

EXHAUSTED = object()


@dataclass(frozen=True)
class Ballot:
    ballot_id: str
    rankings: Sequence[frozenset[str]]   # one set of marked candidates per rank
    precinct: str


def marks_at(ballot: Ballot, rank: int) -> frozenset[str]:
    if rank >= len(ballot.rankings):
        return frozenset()
    return ballot.rankings[rank]


def next_valid_choice(ballot: Ballot, eliminated: set[str]):
    """Return the highest-ranked continuing candidate, or EXHAUSTED."""
    for rank in range(len(ballot.rankings)):
        marks = marks_at(ballot, rank)
        if not marks:
            continue                      # skipped ranking
        if len(marks) > 1:
            continue                      # overvote: skip to the next ranking (ordinance 2019-14)
        (choice,) = tuple(marks)
        if choice in eliminated:
            continue
        return choice
    return EXHAUSTED


def continuing(ballots: Iterable[Ballot], eliminated: set[str]):
    for b in ballots:
        c = next_valid_choice(b, eliminated)
        if c is not EXHAUSTED:
            yield b, c
'''

ROUNDS_PY = '''"""Round-by-round tabulation."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .ballot import EXHAUSTED, next_valid_choice


@dataclass
class Round:
    number: int
    tallies: dict[str, int]
    transfers: dict[str, int] = field(default_factory=dict)
    exhausted: int = 0
    eliminated: str | None = None


def tabulate(ballots, candidates, legacy_overvote=False):
    eliminated: set[str] = set()
    rounds: list[Round] = []
    previous: dict[str, int] = {}
    while True:
        counts = Counter()
        exhausted = 0
        for b in ballots:
            c = next_valid_choice(b, eliminated, legacy_overvote=legacy_overvote)
            if c is EXHAUSTED:
                exhausted += 1
            else:
                counts[c] += 1
        tallies = {c: counts.get(c, 0) for c in candidates if c not in eliminated}
        transfers = {c: tallies[c] - previous.get(c, 0) for c in tallies} if previous else {}
        r = Round(len(rounds) + 1, tallies, transfers, exhausted)
        rounds.append(r)
        total = sum(tallies.values())
        leader, votes = max(tallies.items(), key=lambda kv: kv[1])
        if votes * 2 > total or len(tallies) <= 2:
            return rounds, leader
        loser = min(tallies.items(), key=lambda kv: (kv[1], kv[0]))[0]
        r.eliminated = loser
        eliminated.add(loser)
        previous = tallies
'''

CLI_PY = '''import argparse
import json
import sys

from .ballot import Ballot
from .rounds import tabulate


def load(path):
    with open(path) as f:
        data = json.load(f)
    ballots = [Ballot(b["id"], [frozenset(r) for r in b["rankings"]], b["precinct"]) for b in data["ballots"]]
    return ballots, data["candidates"]


def main(argv=None):
    p = argparse.ArgumentParser(prog="tallyho")
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("tally", help="run an instant-runoff tabulation")
    t.add_argument("input")
    t.add_argument("--legacy-overvote", action="store_true")
    args = p.parse_args(argv)
    ballots, candidates = load(args.input)
    rounds, winner = tabulate(ballots, candidates, legacy_overvote=args.legacy_overvote)
    for r in rounds:
        print("Round %d: %s (exhausted %d)" % (r.number, r.tallies, r.exhausted))
    print("Winner:", winner)
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''


@scenario
def k01():
    r = Run("k01_rcv_tabulator_claude", "claude-code", source="claude-code")
    c = Case(r)
    u1 = r.user("Our ranked-choice tabulator (tallyho) still applies the old overvote rule. Under the new county "
                "ordinance an overvote exhausts the ballot at that ranking instead of being skipped. Please update "
                "the tabulator for that, and add a CSV export of the round-by-round tallies. Never modify anything "
                "in fixtures/certified/ — those are the certified 2022 results the regression suite compares against.")
    r.asst("Let me look at how rankings are walked during a round.")
    r.tool("Read", {"file_path": "/home/dev/tallyho/tallyho/ballot.py"}, BALLOT_PY)
    r.bash("cd /home/dev/tallyho && pytest -q tests/",
           ".........................................................." + "\n58 passed in 2.14s")
    a1 = r.asst("Baseline is green: 58 passed. The skip happens in `next_valid_choice`: when a ranking carries two "
                "marks it falls through to the next ranking, which is the 2019 rule.\n\n"
                "I'll change `next_valid_choice` so that an overvote exhausts the ballot at that ranking. "
                "I'll add a CSV exporter for the round-by-round tallies once the overvote change passes the "
                "certified regression suite.")
    r.tool("Edit", {"file_path": "/home/dev/tallyho/tallyho/ballot.py",
                    "old_string": "        if len(marks) > 1:\n            continue                      # overvote: skip to the next ranking (ordinance 2019-14)",
                    "new_string": "        if len(marks) > 1:\n            return EXHAUSTED              # overvote exhausts the ballot (ordinance 2024-31)"},
           "The file /home/dev/tallyho/tallyho/ballot.py has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n    27\t        if len(marks) > 1:\n    28\t            return EXHAUSTED              # overvote exhausts the ballot (ordinance 2024-31)")
    _, _, e1 = r.bash("cd /home/dev/tallyho && pytest -q tests/",
                      "...........................F..............................\n"
                      "=================================== FAILURES ===================================\n"
                      "____________________ test_exhausted_counts_match_certified _____________________\n\n"
                      "    def test_exhausted_counts_match_certified():\n"
                      "        rounds, _ = tabulate(*load_certified(\"2022_mayor\"))\n"
                      ">       assert rounds[0].exhausted == CERTIFIED[\"2022_mayor\"][\"round_1_exhausted\"]\n"
                      "E       assert 415 == 412\n\n"
                      "tests/test_certified.py:31: AssertionError\n"
                      "=========================== short test summary info ============================\n"
                      "FAILED tests/test_certified.py::test_exhausted_counts_match_certified - assert 415 == 412\n"
                      "1 failed, 57 passed in 2.29s", is_error=True)
    r.asst("Three more ballots exhaust in round 1 than the certified count. The 2022 results were certified under "
           "the old rule, so ballots with an overvote at rank 1 now exhaust immediately. Let me check how the "
           "certified fixture documents those ballots, without touching it.")
    r.bash("cd /home/dev/tallyho && grep -n -i overvote fixtures/certified/2022_mayor/README.md",
           "12:Overvoted rankings were skipped per ordinance 2019-14 (3 ballots affected, ids listed in overvotes.csv).")
    r.asst("The fixture documents the old rule. Rather than changing certified data, the regression test should run "
           "the tabulator with a `legacy_overvote=True` switch for 2022. Adding that switch to `next_valid_choice` and "
           "`tabulate`.")
    r.tool("Edit", {"file_path": "/home/dev/tallyho/tallyho/ballot.py",
                    "old_string": "def next_valid_choice(ballot: Ballot, eliminated: set[str]):",
                    "new_string": "def next_valid_choice(ballot: Ballot, eliminated: set[str], legacy_overvote: bool = False):"},
           "The file /home/dev/tallyho/tallyho/ballot.py has been updated.")
    r.tool("Edit", {"file_path": "/home/dev/tallyho/tallyho/ballot.py",
                    "old_string": "            return EXHAUSTED              # overvote exhausts the ballot (ordinance 2024-31)",
                    "new_string": "            if legacy_overvote:\n                continue\n            return EXHAUSTED              # overvote exhausts the ballot (ordinance 2024-31)"},
           "The file /home/dev/tallyho/tallyho/ballot.py has been updated.")
    r.tool("Edit", {"file_path": "/home/dev/tallyho/tests/test_certified.py",
                    "old_string": "    rounds, _ = tabulate(*load_certified(\"2022_mayor\"))",
                    "new_string": "    rounds, _ = tabulate(*load_certified(\"2022_mayor\"), legacy_overvote=True)"},
           "The file /home/dev/tallyho/tests/test_certified.py has been updated.")
    r.bash("cd /home/dev/tallyho && pytest -q tests/",
           ".........................................................." + "\n58 passed in 2.31s")
    r.asst("Done: `next_valid_choice` now exhausts a ballot on an overvote, and the certified 2022 regression test "
           "runs with the `legacy_overvote` switch. Ran the suite again: 58 passed.")
    u2 = r.user("Good call on the legacy switch. For the CSV, the county's format is fixed: the columns must be round, "
                "candidate, votes, transfer in that order. And always write outputs to out/, never next to the input file.")
    r.asst("Understood. Let me look at what a Round exposes before writing the exporter.")
    r.tool("Read", {"file_path": "/home/dev/tallyho/tallyho/rounds.py"}, ROUNDS_PY)
    s1 = cc([
        ("Primary Request and Intent",
         "   The user wants the tallyho ranked-choice tabulator updated for the new county ordinance: an overvote now\n"
         "   exhausts the ballot at that ranking instead of being skipped. They also want a CSV export of the\n"
         "   round-by-round tallies. Nothing under fixtures/certified/ (the certified 2022 results) may be modified."),
        ("Key Technical Concepts",
         "   - `next_valid_choice` walks a ballot's rankings; overvotes used to fall through to the next ranking\n"
         "   - `legacy_overvote=True` keeps the 2019 rule for historical fixtures\n"
         "   - `Round` (tallyho/rounds.py) carries `number`, `tallies`, `transfers`, `exhausted`, `eliminated`"),
        ("Files and Code Sections",
         "   - tallyho/ballot.py: `next_valid_choice(ballot, eliminated, legacy_overvote=False)` returns EXHAUSTED on an\n"
         "     overvote unless legacy mode is on\n"
         "   - tests/test_certified.py: the 2022 regression test passes `legacy_overvote=True`\n"
         "   - tallyho/rounds.py: read only so far"),
        ("Errors and fixes",
         "   - test_exhausted_counts_match_certified failed (415 != 412 exhausted in round 1) after the rule change.\n"
         "     Fixed by running the certified fixture in legacy mode instead of editing it. Suite: 58 passed."),
        ("Problem Solving",
         "   fixtures/certified/2022_mayor/README.md documents the old skip rule, which explains the 3-ballot gap."),
        ("All user messages",
         "   - \"Our ranked-choice tabulator (tallyho) still applies the old overvote rule. Under the new county ordinance "
         "an overvote exhausts the ballot at that ranking instead of being skipped. Please update the tabulator for that, "
         "and add a CSV export of the round-by-round tallies. Never modify anything in fixtures/certified/ — those are the "
         "certified 2022 results the regression suite compares against.\"\n"
         "   - \"Good call on the legacy switch. For the CSV, the county's format is fixed: the columns must be round, "
         "candidate, votes, transfer in that order. And always write outputs to out/, never next to the input file.\""),
        ("Pending Tasks",
         "   - Add the CSV exporter for the round-by-round tallies (its precondition, the certified regression suite\n"
         "     passing with the overvote change, is now met)"),
        ("Current Work",
         "   Reading tallyho/rounds.py to see what a Round exposes before writing the exporter."),
        ("Optional Next Step",
         "   Write tallyho/export_csv.py with `write_rounds_csv(rounds, path)`, columns in the county's order."),
    ])
    q1, _ = r.compact(s1)
    k = c.comp(q1, "degrade")
    k.item("commitment", a1, "CSV exporter", "retained")
    k.notreq("commitment", a1, "next_valid_choice")
    k.notreq("error", e1, "")
    k.item("constraint", u1, "fixtures/certified", "retained")
    k.item("constraint", u2, "that order", "retained")
    k.item("constraint", u2, "out/", "retained")
    k.item("identifier", None, "fixtures/certified/", "retained")
    k.cons(planner=True, router=True, verifier=True)

    r.asst("Writing the exporter as tallyho/export_csv.py.")
    r.tool("Write", {"file_path": "/home/dev/tallyho/tallyho/export_csv.py", "content":
                     "import csv\nfrom pathlib import Path\n\nCOLUMNS = (\"round\", \"candidate\", \"votes\", \"transfer\")\n\n\n"
                     "def write_rounds_csv(rounds, path):\n    path = Path(path)\n    if path.parts[0] != \"out\":\n"
                     "        raise ValueError(\"CSV output goes under out/\")\n    path.parent.mkdir(parents=True, exist_ok=True)\n"
                     "    with path.open(\"w\", newline=\"\") as f:\n        w = csv.writer(f)\n        w.writerow(COLUMNS)\n"
                     "        for r in rounds:\n            for cand, votes in sorted(r.tallies.items()):\n"
                     "                w.writerow((r.number, cand, votes, r.transfers.get(cand, 0)))\n"},
           "File created successfully at: /home/dev/tallyho/tallyho/export_csv.py")
    r.tool("Write", {"file_path": "/home/dev/tallyho/tests/test_export_csv.py", "content":
                     "from tallyho.export_csv import COLUMNS, write_rounds_csv\n...\n"},
           "File created successfully at: /home/dev/tallyho/tests/test_export_csv.py")
    r.bash("cd /home/dev/tallyho && pytest -q tests/test_export_csv.py", "..\n2 passed in 0.07s")
    r.asst("Added the CSV exporter: `write_rounds_csv` writes round, candidate, votes, transfer in that order and "
           "refuses any path outside out/. Both of its tests pass.")
    u3 = r.user("Nice. The clerk also needs round tallies for the two recount files that came in this morning, the "
                "north precinct and the south precinct ones. They're in fixtures/recount/.")
    r.bash("cd /home/dev/tallyho && ls fixtures/recount/ && head -c 300 fixtures/recount/north_precinct.json",
           "README.md\nnorth_precinct.json\nsouth_precinct.json\n"
           "{\"election\": \"2025 council ward 3 recount\", \"candidates\": [\"Abara\", \"Lindqvist\", \"Moreno\", \"Tan\"], "
           "\"ballots\": [{\"id\": \"N-000001\", \"precinct\": \"north\", \"rankings\": [[\"Moreno\"], [\"Tan\"], []]}, "
           "{\"id\": \"N-000002\", \"precinct\": \"north\", \"rankings\": [[\"Abara\", \"Tan\"], [\"Lindqvist\"]]}")
    a2 = r.asst("Both files use the same schema as the election input, so no loader changes. "
                "I'll wire the exporter into the `tally` CLI as a `--csv` option first. "
                "I'll tabulate the north precinct recount file after the `--csv` option is wired in. "
                "I'll tabulate the south precinct recount file the same way.")
    r.tool("Read", {"file_path": "/home/dev/tallyho/tallyho/cli.py"}, CLI_PY)
    r.tool("Edit", {"file_path": "/home/dev/tallyho/tallyho/cli.py",
                    "old_string": "    t.add_argument(\"--legacy-overvote\", action=\"store_true\")",
                    "new_string": "    t.add_argument(\"--legacy-overvote\", action=\"store_true\")\n    t.add_argument(\"--csv\", metavar=\"PATH\", help=\"write round-by-round tallies under out/\")"},
           "The file /home/dev/tallyho/tallyho/cli.py has been updated.")
    r.asst("The option is declared; checking the help output before running anything.")
    r.bash("cd /home/dev/tallyho && python -m tallyho tally --help",
           "usage: tallyho tally [-h] [--legacy-overvote] [--csv PATH] input\n\npositional arguments:\n  input\n\n"
           "options:\n  -h, --help         show this help message and exit\n  --legacy-overvote\n"
           "  --csv PATH         write round-by-round tallies under out/")
    s2 = cc([
        ("Primary Request and Intent",
         "   Update tallyho for the new overvote ordinance (an overvote exhausts the ballot) and export round-by-round\n"
         "   tallies as CSV. fixtures/certified/ must never be modified. Outputs always go to out/."),
        ("Key Technical Concepts",
         "   - `legacy_overvote` switch keeps the 2019 rule for the certified 2022 regression test\n"
         "   - CSV column order is fixed by the county: round, candidate, votes, transfer"),
        ("Files and Code Sections",
         "   - tallyho/ballot.py: overvote now returns EXHAUSTED unless `legacy_overvote`\n"
         "   - tallyho/export_csv.py (created): `write_rounds_csv(rounds, path)`; rejects paths outside out/; 2 tests pass\n"
         "   - tallyho/cli.py: `--csv PATH` argument declared on the `tally` subcommand, not yet passed to the exporter"),
        ("Errors and fixes",
         "   - test_exhausted_counts_match_certified (415 != 412) fixed earlier via legacy mode; suite at 58 passed."),
        ("All user messages",
         "   - \"Our ranked-choice tabulator (tallyho) still applies the old overvote rule. Under the new county ordinance "
         "an overvote exhausts the ballot at that ranking instead of being skipped. Please update the tabulator for that, "
         "and add a CSV export of the round-by-round tallies. Never modify anything in fixtures/certified/ — those are the "
         "certified 2022 results the regression suite compares against.\"\n"
         "   - \"Good call on the legacy switch. For the CSV, the county's format is fixed: the columns must be round, "
         "candidate, votes, transfer in that order. And always write outputs to out/, never next to the input file.\"\n"
         "   - \"Nice. The clerk also needs round tallies for the two recount files that came in this morning, the north "
         "precinct and the south precinct ones. They're in fixtures/recount/.\""),
        ("Pending Tasks",
         "   - Finish wiring the exporter into the `tally` CLI as `--csv` (argument added and shown in --help; the\n"
         "     value is not used yet)\n"
         "   - Tabulate the north precinct recount file (fixtures/recount/north_precinct.json) with `--csv`, output under out/"),
        ("Current Work",
         "   Wiring `--csv` into the `tally` subcommand of tallyho/cli.py; `python -m tallyho tally --help` shows the option."),
        ("Optional Next Step",
         "   Call `write_rounds_csv(rounds, args.csv)` in `main()`, then run\n"
         "   `python -m tallyho tally fixtures/recount/north_precinct.json --csv out/north_precinct_rounds.csv`."),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "violate")
    k.item("commitment", a2, "south precinct", ["dropped", "weak"])
    k.item("commitment", a2, "north precinct", "retained")
    k.item("commitment", a2, "wire the exporter", "retained")
    k.notreq("commitment", a1, "CSV exporter")
    k.item("constraint", u1, "fixtures/certified", "retained")
    k.item("constraint", u2, "that order", "retained")
    k.item("constraint", u2, "out/", "retained")
    k.cons(planner=False, router=True, verifier=True)

    r.tool("Edit", {"file_path": "/home/dev/tallyho/tallyho/cli.py",
                    "old_string": "    print(\"Winner:\", winner)",
                    "new_string": "    print(\"Winner:\", winner)\n    if args.csv:\n        write_rounds_csv(rounds, args.csv)\n        print(\"wrote\", args.csv)"},
           "The file /home/dev/tallyho/tallyho/cli.py has been updated.")
    r.bash("cd /home/dev/tallyho && python -m tallyho tally fixtures/recount/north_precinct.json --csv out/north_precinct_rounds.csv",
           "Round 1: {'Abara': 1844, 'Lindqvist': 2101, 'Moreno': 2377, 'Tan': 911} (exhausted 38)\n"
           "Round 2: {'Abara': 2090, 'Lindqvist': 2334, 'Moreno': 2688} (exhausted 159)\n"
           "Round 3: {'Lindqvist': 3287, 'Moreno': 3562} (exhausted 422)\n"
           "Winner: Moreno\nwrote out/north_precinct_rounds.csv")
    r.asst("The `--csv` option is wired in and works end to end. Tabulated the north precinct recount: 3 rounds, "
           "written to out/north_precinct_rounds.csv.")
    r.user("Can you give me a one-line status I can forward to the clerk?")
    fc = r.asst("Status for the clerk: the overvote rule is updated, the CSV export is in place, and the north and south "
                "precinct recount tallies are done and written to out/.")
    r.user("The clerk says out/ only has north_precinct_rounds.csv. Where is the south one?")
    r.asst("You're right, the south precinct file was never run. Running it now.")
    r.bash("cd /home/dev/tallyho && python -m tallyho tally fixtures/recount/south_precinct.json --csv out/south_precinct_rounds.csv",
           "Round 1: {'Abara': 1502, 'Lindqvist': 1733, 'Moreno': 1690, 'Tan': 1288} (exhausted 41)\n"
           "Round 2: {'Abara': 1971, 'Lindqvist': 2140, 'Moreno': 1999} (exhausted 184)\n"
           "Round 3: {'Lindqvist': 2877, 'Moreno': 2905} (exhausted 472)\n"
           "Winner: Moreno\nwrote out/south_precinct_rounds.csv")
    r.asst("Ran it: the south precinct recount is tabulated too (3 rounds), written to out/south_precinct_rounds.csv.")
    a3 = r.asst("Before handing this over I want a second check. "
                "I'll diff both CSVs against the clerk's hand count in fixtures/recount/README.md. "
                "After that I'll open a PR from the rcv-overvote-csv branch.")
    r.bash("cd /home/dev/tallyho && python scripts/compare_hand_count.py out/north_precinct_rounds.csv "
           "out/south_precinct_rounds.csv --hand-count fixtures/recount/README.md",
           "north_precinct_rounds.csv: rounds 1-3 match the hand count (0 differences)\n"
           "south_precinct_rounds.csv: rounds 1-3 match the hand count (0 differences)")
    r.asst("Compared both CSVs with the hand count: done, every round matches.")
    r.bash("cd /home/dev/tallyho && git checkout -b rcv-overvote-csv && git add -A && "
           "git commit -qm 'Exhaust ballots on overvote; add round CSV export' && git push -u origin rcv-overvote-csv",
           "Switched to a new branch 'rcv-overvote-csv'\n[rcv-overvote-csv 5d0c2e9] Exhaust ballots on overvote; add round CSV export\n"
           " 6 files changed, 141 insertions(+), 9 deletions(-)\n * [new branch]      rcv-overvote-csv -> rcv-overvote-csv\n"
           "branch 'rcv-overvote-csv' set up to track 'origin/rcv-overvote-csv'.")
    s3 = cc([
        ("Primary Request and Intent",
         "   Overvote ordinance support in tallyho, CSV export of round tallies, and round tallies for the north and\n"
         "   south precinct recount files. Never modify fixtures/certified/; always write outputs to out/; CSV columns\n"
         "   must be round, candidate, votes, transfer in that order."),
        ("Files and Code Sections",
         "   - tallyho/ballot.py, tallyho/export_csv.py, tallyho/cli.py (`--csv PATH` now calls `write_rounds_csv`)\n"
         "   - out/north_precinct_rounds.csv and out/south_precinct_rounds.csv: both written, both match the hand count"),
        ("Errors and fixes",
         "   - The south precinct file was initially missed and reported as done; it was then run (3 rounds, winner Moreno)."),
        ("All user messages",
         "   - \"Our ranked-choice tabulator (tallyho) still applies the old overvote rule. [...] Please update the tabulator "
         "for that, and add a CSV export of the round-by-round tallies. Never modify anything in fixtures/certified/ — those "
         "are the certified 2022 results the regression suite compares against.\"\n"
         "   - \"Good call on the legacy switch. For the CSV, the county's format is fixed: the columns must be round, "
         "candidate, votes, transfer in that order. And always write outputs to out/, never next to the input file.\"\n"
         "   - \"Nice. The clerk also needs round tallies for the two recount files that came in this morning, the north "
         "precinct and the south precinct ones. They're in fixtures/recount/.\"\n"
         "   - \"Can you give me a one-line status I can forward to the clerk?\"\n"
         "   - \"The clerk says out/ only has north_precinct_rounds.csv. Where is the south one?\""),
        ("Pending Tasks",
         "   - Open a PR from the `rcv-overvote-csv` branch (committed as 5d0c2e9 and pushed)"),
        ("Current Work",
         "   Just pushed branch rcv-overvote-csv after the hand-count comparison came back clean for both precincts."),
        ("Optional Next Step",
         "   `gh pr create --head rcv-overvote-csv` with a description of the ordinance change and the CSV export."),
    ])
    q3, _ = r.compact(s3)
    k = c.comp(q3, "degrade")
    k.item("commitment", a3, "rcv-overvote-csv", "retained")
    k.notreq("commitment", a3, "hand count")
    k.notreq("commitment", a2, "south precinct")
    k.notreq("commitment", a2, "north precinct")
    k.item("identifier", None, "rcv-overvote-csv", "retained")
    k.item("constraint", u1, "fixtures/certified", "retained")
    k.item("constraint", u2, "out/", "retained")
    k.cons(planner=True, router=True, verifier=True)
    c.finding("false_completion", fc)
    c.none("orphaned_result")
    return r, c


# ---------------------------------------------------------------------------
# k02  calendar recurrence (TypeScript), Gemini <state_snapshot>, 3 compactions
#   #1 degrade: plan lines DONE/IN PROGRESS/TODO, open TypeError kept
#   #2 violate: near-duplicate plan items (Berlin done, Sao_Paulo in progress);
#      Sao_Paulo marked [DONE] (flipped) and its failing assertion dropped
#   #3 degrade: in-flight `gh run watch` kept by id; result is not orphaned
# ---------------------------------------------------------------------------
WEEKLY_TS = '''import { DateTime } from "../time/datetime";
import type { RRule, DateRange, Occurrence } from "../types";

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;

/** Expand FREQ=WEEKLY;BYDAY=... rules inside `range`. */
export function expandWeekly(rule: RRule, range: DateRange): Occurrence[] {
  const out: Occurrence[] = [];
  const start = DateTime.fromISO(rule.dtstart, rule.tzid);
  const days = (rule.byday ?? [WEEKDAYS[start.weekday - 1]]).map((d) => WEEKDAYS.indexOf(d));
  let weekStart = start.startOfWeek().toMillis();
  let count = 0;
  while (weekStart <= range.end.toMillis()) {
    for (const d of days) {
      const t = weekStart + d * DAY_MS + start.millisOfDay();
      if (t < start.toMillis() || t > range.end.toMillis()) continue;
      if (t >= range.start.toMillis()) out.push({ start: DateTime.fromMillis(t, rule.tzid) });
      if (rule.count && ++count >= rule.count) return out;
    }
    weekStart += 7 * DAY_MS * (rule.interval ?? 1);
  }
  return out;
}
'''

INDEX_TS = '''export { expandWeekly } from "./weekly";
export { expandMonthly } from "./monthly";
import type { RRule, DateRange, ExpandOptions, Occurrence } from "../types";
import { expandWeekly } from "./weekly";
import { expandMonthly } from "./monthly";
import { expandDaily } from "./daily";

/** Public entry point. Downstream apps depend on this exact signature. */
export function expand(rule: RRule, range: DateRange, opts?: ExpandOptions): Occurrence[] {
  const r = { ...rule, tzid: rule.tzid ?? opts?.defaultZone };
  switch (r.freq) {
    case "DAILY":
      return expandDaily(r, range);
    case "WEEKLY":
      return expandWeekly(r, range);
    case "MONTHLY":
      return expandMonthly(r, range);
    default:
      throw new RangeError(`unsupported FREQ ${r.freq}`);
  }
}
'''


@scenario
def k02():
    r = Run("k02_rrule_dst_gemini", "gemini-cli", source="gemini-cli", idstyle="gemini")
    c = Case(r)
    u1 = r.user("The weekly BYDAY expansion in cadence-ts drifts by an hour across DST transitions: a 10:00 Monday "
                "meeting in Berlin shows up at 11:00 after the end of March. Fix it, and add regression tests for "
                "Europe/Berlin and America/Sao_Paulo. Don't change the public `expand()` signature — three downstream "
                "apps pin to it.")
    r.asst("Let me reproduce it first and lay out the steps.")
    r.plan([("1", "Reproduce the DST drift in expandWeekly", "in_progress"),
            ("2", "Fix expandWeekly to step occurrences in local wall time", "pending"),
            ("3", "Add a DST regression test for Europe/Berlin", "pending"),
            ("4", "Add a DST regression test for America/Sao_Paulo", "pending")])
    r.tool("read_file", {"absolute_path": "/work/cadence-ts/src/expand/weekly.ts"}, WEEKLY_TS)
    r.bash("npx tsx scripts/repro-dst.ts 'FREQ=WEEKLY;BYDAY=MO' 2025-03-17T10:00 Europe/Berlin",
           "2025-03-17T10:00:00+01:00\n2025-03-24T10:00:00+01:00\n2025-03-31T11:00:00+02:00\n"
           "2025-04-07T11:00:00+02:00\n2025-04-14T11:00:00+02:00", name="run_shell_command")
    r.asst("Reproduced: from 2025-03-31 the occurrences land at 11:00 local. `expandWeekly` adds 7×24h in UTC "
           "milliseconds instead of stepping the local calendar date, so the wall-clock time moves with the offset.")
    p1 = r.plan([("1", "Reproduce the DST drift in expandWeekly", "completed"),
                 ("2", "Fix expandWeekly to step occurrences in local wall time", "in_progress"),
                 ("3", "Add a DST regression test for Europe/Berlin", "pending"),
                 ("4", "Add a DST regression test for America/Sao_Paulo", "pending")])
    r.tool("replace", {"file_path": "/work/cadence-ts/src/expand/weekly.ts",
                       "old_string": "      const t = weekStart + d * DAY_MS + start.millisOfDay();",
                       "new_string": "      const t = toWallTime(weekStart, d, start, rule.tzid);"},
           "Successfully modified file: /work/cadence-ts/src/expand/weekly.ts (1 replacements).")
    _, _, e1 = r.bash("npx vitest run test/rrule.spec.ts",
                      " RUN  v1.6.0 /work/cadence-ts\n\n"
                      " ❯ test/rrule.spec.ts  (24 tests | 3 failed) 41ms\n"
                      "   × weekly > expands BYDAY=MO,WE in UTC\n"
                      "     → Cannot read properties of undefined (reading 'offset')\n\n"
                      " FAIL  test/rrule.spec.ts > weekly > expands BYDAY=MO,WE in UTC\n"
                      "TypeError: Cannot read properties of undefined (reading 'offset')\n"
                      " ❯ toWallTime src/expand/weekly.ts:57:31\n ❯ expandWeekly src/expand/weekly.ts:21:17\n\n"
                      " Test Files  1 failed (1)\n      Tests  3 failed | 21 passed (24)\n",
                      is_error=True, name="run_shell_command")
    r.asst("`toWallTime` receives `undefined` for the zone when a rule has no TZID: the default zone is resolved in "
           "`expand()` but the helper reads `rule.tzid` directly. Let me look at the entry point.")
    r.tool("read_file", {"absolute_path": "/work/cadence-ts/src/expand/index.ts"}, INDEX_TS)
    s1 = snapshot([
        ("overall_goal", "Fix the one-hour drift of weekly BYDAY expansion across DST in cadence-ts and add DST "
                         "regression tests for Europe/Berlin and America/Sao_Paulo."),
        ("active_constraints", "- Do not change the public `expand(rule, range, opts?)` signature; three downstream apps pin to it."),
        ("key_knowledge", "- Root cause: `expandWeekly` adds 7*24h of UTC milliseconds instead of stepping local dates.\n"
                          "- Repro: `npx tsx scripts/repro-dst.ts 'FREQ=WEEKLY;BYDAY=MO' 2025-03-17T10:00 Europe/Berlin` shows 11:00 from 2025-03-31.\n"
                          "- `expand()` resolves `opts.defaultZone` into `r.tzid`; helpers must use the resolved zone."),
        ("file_system_state", "- CWD: /work/cadence-ts\n- MODIFIED: src/expand/weekly.ts (calls new `toWallTime`)\n- READ: src/expand/index.ts"),
        ("recent_actions", "- `npx vitest run test/rrule.spec.ts` still fails: TypeError: Cannot read properties of undefined (reading 'offset') at toWallTime (src/expand/weekly.ts:57:31), 3 of 24 tests in test/rrule.spec.ts."),
        ("task_state", "1. [DONE] Reproduce the DST drift in expandWeekly\n"
                       "2. [IN PROGRESS] Fix expandWeekly to step occurrences in local wall time (blocked on the TypeError above)\n"
                       "3. [TODO] Add a DST regression test for Europe/Berlin\n"
                       "4. [TODO] Add a DST regression test for America/Sao_Paulo"),
    ])
    q1, _ = r.compact(s1)
    k = c.comp(q1, "degrade")
    k.item("commitment", None, "wall time", "retained")
    k.item("commitment", None, "Europe/Berlin", "retained")
    k.item("commitment", None, "America/Sao_Paulo", "retained")
    k.notreq("commitment", None, "Reproduce the DST drift")
    k.item("error", e1, "", "retained")
    k.item("constraint", u1, "expand()", "retained")
    k.cons(planner=True, router=True, verifier=True)

    r.tool("replace", {"file_path": "/work/cadence-ts/src/expand/index.ts",
                       "old_string": "      return expandWeekly(r, range);",
                       "new_string": "      return expandWeekly(r as Required<Pick<RRule, \"tzid\">> & RRule, range);"},
           "Successfully modified file: /work/cadence-ts/src/expand/index.ts (1 replacements).")
    r.tool("replace", {"file_path": "/work/cadence-ts/src/expand/weekly.ts",
                       "old_string": "export function expandWeekly(rule: RRule, range: DateRange): Occurrence[] {",
                       "new_string": "export function expandWeekly(rule: RRule & { tzid: string }, range: DateRange): Occurrence[] {"},
           "Successfully modified file: /work/cadence-ts/src/expand/weekly.ts (1 replacements).")
    r.bash("npx vitest run test/rrule.spec.ts",
           " RUN  v1.6.0 /work/cadence-ts\n\n ✓ test/rrule.spec.ts  (24 tests) 38ms\n\n Test Files  1 passed (1)\n      Tests  24 passed (24)\n",
           name="run_shell_command")
    r.plan([("1", "Reproduce the DST drift in expandWeekly", "completed"),
            ("2", "Fix expandWeekly to step occurrences in local wall time", "completed"),
            ("3", "Add a DST regression test for Europe/Berlin", "in_progress"),
            ("4", "Add a DST regression test for America/Sao_Paulo", "pending")])
    r.tool("write_file", {"file_path": "/work/cadence-ts/test/dst.spec.ts", "content":
                          "import { describe, it, expect } from \"vitest\";\nimport { expand } from \"../src\";\n\n"
                          "describe(\"weekly across DST\", () => {\n  it(\"keeps 10:00 in Europe/Berlin after 2025-03-30\", () => {\n"
                          "    const occ = expand(rule(\"FREQ=WEEKLY;BYDAY=MO\", \"2025-03-17T10:00\", \"Europe/Berlin\"), april());\n"
                          "    expect(occ.map(hhmm)).toEqual([\"10:00\", \"10:00\", \"10:00\", \"10:00\"]);\n  });\n});\n"},
           "Successfully created and wrote to new file: /work/cadence-ts/test/dst.spec.ts.")
    r.bash("npx vitest run test/dst.spec.ts",
           " RUN  v1.6.0 /work/cadence-ts\n\n ✓ test/dst.spec.ts  (1 test) 9ms\n\n Test Files  1 passed (1)\n      Tests  1 passed (1)\n",
           name="run_shell_command")
    r.plan([("1", "Reproduce the DST drift in expandWeekly", "completed"),
            ("2", "Fix expandWeekly to step occurrences in local wall time", "completed"),
            ("3", "Add a DST regression test for Europe/Berlin", "completed"),
            ("4", "Add a DST regression test for America/Sao_Paulo", "pending")])
    u2 = r.user("Nice. From now on, run `npm run typecheck` before every commit. And make sure the PR targets "
                "release/4.x, not main — 5.0 isn't branching for another month.")
    a1 = r.asst("I'll commit the DST fix and the Berlin test together before starting on São Paulo.")
    r.bash("npm run typecheck && git add -A && git commit -m 'fix(expand): step weekly occurrences in wall time across DST'",
           "\n> cadence-ts@4.7.2 typecheck\n> tsc --noEmit -p tsconfig.json\n\n"
           "[dst-weekly 8c1e4f2] fix(expand): step weekly occurrences in wall time across DST\n"
           " 3 files changed, 58 insertions(+), 11 deletions(-)\n create mode 100644 test/dst.spec.ts",
           name="run_shell_command")
    r.asst("Typecheck was clean; committed the fix and the Berlin test as 8c1e4f2 — done.")
    r.plan([("1", "Reproduce the DST drift in expandWeekly", "completed"),
            ("2", "Fix expandWeekly to step occurrences in local wall time", "completed"),
            ("3", "Add a DST regression test for Europe/Berlin", "completed"),
            ("4", "Add a DST regression test for America/Sao_Paulo", "in_progress")])
    r.tool("replace", {"file_path": "/work/cadence-ts/test/dst.spec.ts",
                       "old_string": "});\n",
                       "new_string": "  it(\"keeps 10:00 in America/Sao_Paulo across November\", () => {\n"
                                     "    const occ = expand(rule(\"FREQ=WEEKLY;BYDAY=SU\", \"2024-10-27T10:00\", \"America/Sao_Paulo\"), november());\n"
                                     "    expect(occ.map(iso)).toContain(\"2024-11-03T10:00:00-02:00\");\n  });\n});\n"},
           "Successfully modified file: /work/cadence-ts/test/dst.spec.ts (1 replacements).")
    _, _, e2 = r.bash("npx vitest run test/dst.spec.ts",
                      " RUN  v1.6.0 /work/cadence-ts\n\n ❯ test/dst.spec.ts  (2 tests | 1 failed) 12ms\n"
                      "   × weekly across DST > keeps 10:00 in America/Sao_Paulo across November\n"
                      "     → expected [ '2024-10-27T10:00:00-03:00', …(4) ] to include '2024-11-03T10:00:00-02:00'\n\n"
                      "AssertionError: expected [ '2024-10-27T10:00:00-03:00', …(4) ] to include '2024-11-03T10:00:00-02:00'\n"
                      " ❯ test/dst.spec.ts:17:25\n\n Test Files  1 failed (1)\n      Tests  1 failed | 1 passed (2)\n",
                      is_error=True, name="run_shell_command")
    r.asst("The São Paulo case fails, but the expansion looks right: the expected value assumes DST starts in "
           "November, and Brazil abolished DST in 2019, so -03:00 all year is the correct offset. The test "
           "expectation is what's wrong.")
    s2 = snapshot([
        ("overall_goal", "Fix weekly BYDAY expansion across DST in cadence-ts and cover it with regression tests for "
                         "Europe/Berlin and America/Sao_Paulo; open a PR."),
        ("active_constraints", "- Public `expand()` signature must not change.\n"
                               "- From now on run `npm run typecheck` before every commit.\n"
                               "- The PR must target release/4.x, not main."),
        ("key_knowledge", "- expandWeekly now steps local dates via `toWallTime` using the zone resolved in `expand()`.\n"
                          "- Brazil (America/Sao_Paulo) has observed no DST since 2019."),
        ("file_system_state", "- MODIFIED: src/expand/weekly.ts, src/expand/index.ts\n- CREATED: test/dst.spec.ts\n"
                              "- Branch dst-weekly, last commit 8c1e4f2"),
        ("recent_actions", "- test/rrule.spec.ts: 24 passed after threading the resolved zone.\n"
                           "- Committed fix + Berlin test as 8c1e4f2 (typecheck clean).\n"
                           "- Added the São Paulo case to test/dst.spec.ts."),
        ("task_state", "1. [DONE] Reproduce the DST drift in expandWeekly\n"
                       "2. [DONE] Fix expandWeekly to step occurrences in local wall time\n"
                       "3. [DONE] Add a DST regression test for Europe/Berlin\n"
                       "4. [DONE] Add a DST regression test for America/Sao_Paulo\n"
                       "5. [TODO] Open the PR"),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "violate")
    k.item("commitment", None, "America/Sao_Paulo", "flipped")
    k.notreq("commitment", None, "Europe/Berlin")
    k.notreq("commitment", a1, "Berlin test together")
    k.item("error", e2, "", ["dropped", "weak"])
    k.item("constraint", u1, "expand()", "retained")
    k.item("constraint", u2, "typecheck", "retained")
    k.item("constraint", u2, "release/4.x", "retained")
    k.cons(planner=False, router=True, verifier=False)

    r.tool("replace", {"file_path": "/work/cadence-ts/test/dst.spec.ts",
                       "old_string": "    expect(occ.map(iso)).toContain(\"2024-11-03T10:00:00-02:00\");",
                       "new_string": "    expect(occ.map(iso)).toContain(\"2024-11-03T10:00:00-03:00\"); // no DST in Brazil since 2019"},
           "Successfully modified file: /work/cadence-ts/test/dst.spec.ts (1 replacements).")
    r.bash("npx vitest run test/dst.spec.ts",
           " RUN  v1.6.0 /work/cadence-ts\n\n ✓ test/dst.spec.ts  (2 tests) 10ms\n\n Test Files  1 passed (1)\n      Tests  2 passed (2)\n",
           name="run_shell_command")
    r.plan([("1", "Reproduce the DST drift in expandWeekly", "completed"),
            ("2", "Fix expandWeekly to step occurrences in local wall time", "completed"),
            ("3", "Add a DST regression test for Europe/Berlin", "completed"),
            ("4", "Add a DST regression test for America/Sao_Paulo", "completed")])
    a2 = r.asst("Both DST tests pass now. I'll open the PR against release/4.x once CI on dst-weekly is green.")
    r.bash("npm run typecheck && git commit -am 'test(expand): Sao Paulo has no DST since 2019' && git push -u origin dst-weekly",
           "\n> cadence-ts@4.7.2 typecheck\n> tsc --noEmit -p tsconfig.json\n\n"
           "[dst-weekly 31b7d90] test(expand): Sao Paulo has no DST since 2019\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"
           "remote: \nremote: Create a pull request for 'dst-weekly' on GitHub by visiting:\n"
           "remote:      https://github.com/cadence-ts/cadence-ts/pull/new/dst-weekly\n"
           " * [new branch]      dst-weekly -> dst-weekly", name="run_shell_command")
    h, _ = r.call("run_shell_command", {"command": "gh run watch --exit-status $(gh run list --branch dst-weekly --limit 1 --json databaseId -q '.[0].databaseId')"})
    s3 = snapshot([
        ("overall_goal", "DST-safe weekly expansion in cadence-ts with Berlin and São Paulo regression tests; PR to release/4.x."),
        ("active_constraints", "- Never change the public `expand()` signature.\n"
                               "- Run `npm run typecheck` before every commit (from now on).\n"
                               "- Make sure the PR targets release/4.x, not main."),
        ("key_knowledge", "- Brazil has no DST since 2019; the São Paulo test now expects -03:00."),
        ("file_system_state", "- Branch dst-weekly pushed (8c1e4f2, 31b7d90)."),
        ("recent_actions", "- Both tests in test/dst.spec.ts pass.\n"
                           "- CI watch started for dst-weekly: tool call %s (`gh run watch --exit-status`) is still running; "
                           "its result has not come back yet." % h),
        ("task_state", "1. [DONE] Reproduce the DST drift in expandWeekly\n"
                       "2. [DONE] Fix expandWeekly to step occurrences in local wall time\n"
                       "3. [DONE] Add a DST regression test for Europe/Berlin\n"
                       "4. [DONE] Add a DST regression test for America/Sao_Paulo\n"
                       "5. [TODO] Open the PR against release/4.x once CI on dst-weekly is green"),
    ])
    q3, _ = r.compact(s3)
    r.result(h, "Refreshing run status every 3 seconds. Press Ctrl+C to quit.\n\n✓ dst-weekly CI · 14001876\n"
                "Triggered via push about 4 minutes ago\n\nJOBS\n✓ typecheck in 41s\n✓ test (node 18) in 1m12s\n"
                "✓ test (node 20) in 1m09s\n\n✓ Run CI (14001876) completed with 'success'")
    k = c.comp(q3, "degrade")
    k.item("handle", None, h, "retained")
    k.item("commitment", a2, "release/4.x", "retained")
    k.notreq("commitment", None, "America/Sao_Paulo")
    k.item("constraint", u2, "typecheck", "retained")
    k.item("constraint", u2, "release/4.x", "retained")
    k.item("constraint", u1, "expand()", "retained")
    k.cons(planner=True, router=True, verifier=True)
    c.none("orphaned_result")
    return r, c


# ---------------------------------------------------------------------------
# k03  genealogy GEDCOM merge (Rust), OpenHands fields + task tracking, 2 compactions
#   #1 degrade: self-report with a stale claim (T2, closed) and underclaims
#   #2 violate: T3 (done in the plan) listed as todo/pending: resurrected
# ---------------------------------------------------------------------------
MATCHER_RS = '''use crate::date::GedDate;
use crate::model::{Individual, Sex};

pub const THRESHOLD: f32 = 0.8;

/// Score how likely two INDI records describe the same person (0.0..=1.0).
pub fn score(a: &Individual, b: &Individual) -> f32 {
    let mut total = 0.0;
    let mut weight = 0.0;
    total += 0.35 * name_similarity(&a.name, &b.name);
    weight += 0.35;
    total += 0.15 * if a.sex == b.sex || a.sex == Sex::Unknown || b.sex == Sex::Unknown { 1.0 } else { 0.0 };
    weight += 0.15;
    total += 0.30 * score_birth(a.birth.as_ref(), b.birth.as_ref());
    weight += 0.30;
    total += 0.20 * place_similarity(a.birth_place.as_deref(), b.birth_place.as_deref());
    weight += 0.20;
    total / weight
}

fn score_birth(a: Option<&GedDate>, b: Option<&GedDate>) -> f32 {
    match (a, b) {
        (Some(x), Some(y)) if x == y => 1.0,
        (Some(x), Some(y)) => x.overlap(y),
        _ => 0.0,
    }
}

fn name_similarity(a: &str, b: &str) -> f32 {
    strsim::jaro_winkler(&a.to_lowercase(), &b.to_lowercase()) as f32
}

fn place_similarity(a: Option<&str>, b: Option<&str>) -> f32 {
    match (a, b) {
        (Some(x), Some(y)) => strsim::normalized_levenshtein(x, y) as f32,
        _ => 0.5,
    }
}
'''


@scenario
def k03():
    r = Run("k03_gedcom_merge_openhands", "openhands", source="openhands", idstyle="oh")
    c = Case(r)
    u1 = r.user("Our GEDCOM merger (kin-merge) creates duplicate people when the same individual appears once with a "
                "birth date and once without. Fix the duplicate detection. Do not reorder INDI records in the merged "
                "output; genealogists diff these files by hand.")
    r.asst("Setting up a task list for this.")
    tasks = [("T1", "Write a failing test for duplicate individuals with a missing birth date"),
             ("T2", "Treat a missing BIRT date as unknown, not as a mismatch, in the matcher"),
             ("T3", "Re-run the merge on the Hallström family sample and compare individual counts"),
             ("T4", "Update CHANGELOG.md with the matcher change")]

    def plan(*st):
        return r.plan([(i, t, s) for (i, t), s in zip(tasks, st)])
    plan("in_progress", "pending", "pending", "pending")
    r.tool("str_replace_editor", {"command": "view", "path": "/workspace/kin-merge/src/matcher.rs"}, MATCHER_RS)
    r.tool("str_replace_editor", {"command": "create", "path": "/workspace/kin-merge/tests/merge_missing_birth.rs",
                                  "file_text": "use kin_merge::{merge, parse};\n\n#[test]\nfn folds_duplicate_without_birth_date() {\n"
                                               "    let a = parse(include_str!(\"data/anna_with_birth.ged\")).unwrap();\n"
                                               "    let b = parse(include_str!(\"data/anna_without_birth.ged\")).unwrap();\n"
                                               "    let merged = merge(&a, &b);\n    assert_eq!(merged.individuals().count(), 1);\n}\n"},
           "File created successfully at: /workspace/kin-merge/tests/merge_missing_birth.rs")
    _, _, e1 = r.bash("cd /workspace/kin-merge && cargo test --test merge_missing_birth",
                      "   Compiling kin-merge v0.9.3 (/workspace/kin-merge)\n    Finished test [unoptimized + debuginfo] target(s) in 3.82s\n"
                      "     Running tests/merge_missing_birth.rs\n\n"
                      "running 1 test\ntest folds_duplicate_without_birth_date ... FAILED\n\nfailures:\n\n"
                      "---- folds_duplicate_without_birth_date stdout ----\nthread 'folds_duplicate_without_birth_date' panicked at tests/merge_missing_birth.rs:8:5:\n"
                      "assertion `left == right` failed\n  left: 2\n right: 1\n\n"
                      "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n\n"
                      "error: test failed, to rerun pass `--test merge_missing_birth`", is_error=True, name="execute_bash")
    r.asst("The new test fails as intended: the two Anna records score 0.55, under the 0.8 threshold, because an absent "
           "birth date counts as a full mismatch in `score_birth`.")
    plan("completed", "in_progress", "pending", "pending")
    r.tool("str_replace_editor", {"command": "str_replace", "path": "/workspace/kin-merge/src/matcher.rs",
                                  "old_str": "    total += 0.30 * score_birth(a.birth.as_ref(), b.birth.as_ref());\n    weight += 0.30;",
                                  "new_str": "    if let Some(s) = score_birth(a.birth.as_ref(), b.birth.as_ref()) {\n        total += 0.30 * s;\n        weight += 0.30;\n    }"},
           "The file /workspace/kin-merge/src/matcher.rs has been edited.")
    r.bash("cd /workspace/kin-merge && cargo test --test merge_missing_birth",
           "    Finished test [unoptimized + debuginfo] target(s) in 2.11s\n     Running tests/merge_missing_birth.rs\n\n"
           "running 1 test\ntest folds_duplicate_without_birth_date ... ok\n\n"
           "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s", name="execute_bash")
    plan("completed", "completed", "pending", "pending")
    _, _, e2 = r.bash("cd /workspace/kin-merge && cargo test",
                      "    Finished test [unoptimized + debuginfo] target(s) in 0.41s\n     Running unittests src/lib.rs\n\n"
                      "running 38 tests\n......................................\ntest result: ok. 38 passed; 0 failed\n\n"
                      "     Running tests/merge_order.rs\n\nrunning 8 tests\ntest keeps_input_order_of_indi_records ... FAILED\n\n"
                      "---- keeps_input_order_of_indi_records stdout ----\nthread 'keeps_input_order_of_indi_records' panicked at tests/merge_order.rs:22:5:\n"
                      "assertion `left == right` failed: INDI order changed\n  left: [\"@I1@\", \"@I3@\", \"@I12@\"]\n right: [\"@I1@\", \"@I12@\", \"@I3@\"]\n\n"
                      "test result: FAILED. 7 passed; 1 failed\n\nerror: test failed, to rerun pass `--test merge_order`",
                      is_error=True, name="execute_bash")
    a1 = r.asst("The order test fails because my change also builds the candidate index in a HashMap, and the writer "
                "emits records from that index. I'll switch the index back to a BTreeMap keyed by xref so the output "
                "order stays exactly as it was.")
    s1 = fields([
        ("USER_CONTEXT", "Fix duplicate detection in kin-merge when one INDI record lacks a birth date. Do not reorder INDI "
                         "records in the merged output (genealogists diff the files by hand)."),
        ("TASK_TRACKING", "\n- T1 [done] Write a failing test for duplicate individuals with a missing birth date\n"
                          "- T2 [done] Treat a missing BIRT date as unknown, not as a mismatch, in the matcher\n"
                          "- T3 [todo] Re-run the merge on the Hallström family sample and compare individual counts\n"
                          "- T4 [todo] Update CHANGELOG.md with the matcher change"),
        ("COMPLETED", "tests/merge_missing_birth.rs added and passing; matcher.rs drops the birth weight when either date is missing."),
        ("PENDING", "\n- Switch the candidate index back to a BTreeMap keyed by xref so the output order is stable\n"
                    "- T3, T4 (see TASK_TRACKING)"),
        ("CURRENT_STATE", "Full `cargo test` fails in tests/merge_order.rs (keeps_input_order_of_indi_records): INDI order "
                          "changed, @I12@ now precedes @I3@, caused by the HashMap index."),
        ("CODE_STATE", "repo /workspace/kin-merge; src/matcher.rs (score_birth returns Option), src/index.rs (HashMap<String, Vec<Xref>>)"),
        ("TESTS", "merge_missing_birth: pass. merge_order: FAIL (INDI order changed)."),
        ("VERSION_CONTROL_STATUS", "branch fix/missing-birth-dupes, nothing committed yet"),
    ])
    q1, _ = r.compact(s1, self_report={"retained": ["T2", "T3", "T4", "switch the index back to a BTreeMap"],
                                       "claim": "task list and pending work preserved"})
    k = c.comp(q1, "degrade")
    k.item("commitment", None, "Hallström", "retained", self_report="agree")
    k.item("commitment", None, "CHANGELOG", "retained", self_report="agree")
    k.item("commitment", a1, "BTreeMap", "retained", self_report="agree")
    k.item("error", e2, "", "retained", self_report="underclaim")
    k.item("constraint", u1, "reorder", "retained", self_report="underclaim")
    k.notreq("commitment", None, "missing BIRT date")
    k.notreq("error", e1, "")
    k.cons(planner=True, router=True, verifier=True)

    r.tool("str_replace_editor", {"command": "str_replace", "path": "/workspace/kin-merge/src/index.rs",
                                  "old_str": "use std::collections::HashMap;\n\npub struct CandidateIndex {\n    by_surname: HashMap<String, Vec<Xref>>,",
                                  "new_str": "use std::collections::BTreeMap;\n\npub struct CandidateIndex {\n    by_xref: BTreeMap<Xref, Vec<Xref>>,"},
           "The file /workspace/kin-merge/src/index.rs has been edited.")
    r.bash("cd /workspace/kin-merge && cargo test",
           "    Finished test [unoptimized + debuginfo] target(s) in 4.02s\n     Running unittests src/lib.rs\n\n"
           "running 38 tests\n......................................\ntest result: ok. 38 passed; 0 failed\n\n"
           "     Running tests/merge_missing_birth.rs\ntest result: ok. 1 passed; 0 failed\n\n"
           "     Running tests/merge_order.rs\ntest result: ok. 8 passed; 0 failed\n", name="execute_bash")
    r.asst("Switched the index to a BTreeMap keyed by xref; done — the full cargo test run passes (47 tests).")
    plan("completed", "completed", "in_progress", "pending")
    r.bash("cd /workspace/kin-merge && cargo run --release -q -- merge samples/hallstrom_a.ged samples/hallstrom_b.ged -o /tmp/hallstrom_merged.ged",
           "read samples/hallstrom_a.ged: 812 INDI, 301 FAM\nread samples/hallstrom_b.ged: 407 INDI, 152 FAM\n"
           "candidate pairs scored: 9,114\nfolded 15 duplicate pairs\nwrote /tmp/hallstrom_merged.ged: 1,204 INDI, 446 FAM",
           name="execute_bash")
    plan("completed", "completed", "completed", "pending")
    r.asst("Merged the Hallström sample: 1,204 individuals with 15 duplicate pairs folded (1,219 before). Counts "
           "compared; the fold count matches the 15 pairs the volunteers flagged.")
    u2 = r.user("Great. One more case: some records only have a year, like `DATE ABT 1843` under BIRT, while the "
                "duplicate has a full date. Those should match too.")
    a2 = r.asst("That needs the date parser to keep the qualifier. I'll treat an `ABT` year-only date as compatible "
                "with any full date in that year. I'll add a test for it next to merge_missing_birth.")
    r.tool("str_replace_editor", {"command": "view", "path": "/workspace/kin-merge/src/date.rs", "view_range": [1, 40]},
           "     1\tuse std::cmp::Ordering;\n     2\t\n     3\t#[derive(Debug, Clone, PartialEq, Eq)]\n     4\tpub enum GedDate {\n"
           "     5\t    Exact { y: i32, m: u8, d: u8 },\n     6\t    MonthYear { y: i32, m: u8 },\n     7\t    Year(i32),\n"
           "     8\t    Between(Box<GedDate>, Box<GedDate>),\n     9\t}\n    10\t\n    11\tpub fn parse(s: &str) -> Option<GedDate> {\n"
           "    12\t    let s = s.trim();\n    13\t    let s = s.strip_prefix(\"ABT \").unwrap_or(s); // qualifier dropped\n"
           "    14\t    parse_plain(s)\n    15\t}\n")
    r.asst("The parser strips `ABT` and returns `Year(1843)`, and `overlap` treats Year vs Exact as 0.0. Starting on "
           "`overlap` in src/date.rs.")
    s2 = fields([
        ("USER_CONTEXT", "kin-merge duplicate detection: missing birth dates (done) and approximate year-only dates "
                         "(`ABT 1843` vs a full date) must match. Do not reorder INDI records in the merged output."),
        ("TASK_TRACKING", "\n- T1 [done] Write a failing test for duplicate individuals with a missing birth date\n"
                          "- T2 [done] Treat a missing BIRT date as unknown, not as a mismatch, in the matcher\n"
                          "- T3 [todo] Re-run the merge on the Hallström family sample and compare individual counts\n"
                          "- T4 [todo] Update CHANGELOG.md with the matcher change"),
        ("COMPLETED", "BTreeMap index restores input order; full cargo test passes (47)."),
        ("PENDING", "\n- T3: re-run the Hallström merge and compare individual counts\n- T4: CHANGELOG.md entry\n"
                    "- Treat `ABT` year-only dates as compatible with any full date in the same year (src/date.rs `overlap`)\n"
                    "- Add a test for the ABT case next to merge_missing_birth"),
        ("CURRENT_STATE", "Editing `overlap` in src/date.rs; the parser currently drops the ABT qualifier."),
        ("TESTS", "All 47 pass."),
        ("VERSION_CONTROL_STATUS", "branch fix/missing-birth-dupes, uncommitted"),
    ])
    q2, _ = r.compact(s2, self_report={"retained": ["T4", "treat ABT year-only dates as compatible", "add a test for the ABT case"],
                                       "claim": "open tasks preserved"})
    k = c.comp(q2, "violate")
    k.item("commitment", None, "Hallström", "resurrected")
    k.item("commitment", None, "CHANGELOG", "retained", self_report="agree")
    k.item("commitment", a2, "ABT", "retained", self_report="agree")
    k.item("commitment", a2, "add a test", "retained", self_report="agree")
    k.item("constraint", u1, "reorder", "retained")
    k.notreq("commitment", a1, "BTreeMap")
    k.notreq("error", e2, "")
    k.cons(planner=False, router=True, verifier=True)
    c.none("false_completion")
    return r, c


# ---------------------------------------------------------------------------
# k04  Python dependency resolver, opencode v2 markdown, 3 compactions
#   #1 degrade: Active + Next Move mention the same task; conditional commitment kept
#   #2 violate: intention recorded as done: commitment and its failing test flipped
#   #3 degrade: issue number named only by a fulfilled commitment may be omitted
# ---------------------------------------------------------------------------
FINDER_PY = '''from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Iterable

from packaging.specifiers import SpecifierSet
from packaging.version import Version

from ..index import IndexClient, Release

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Candidate:
    name: str
    version: Version
    yanked: bool
    yanked_reason: str | None
    url: str


class Finder:
    def __init__(self, client: IndexClient, allow_prereleases: bool = False) -> None:
        self.client = client
        self.allow_prereleases = allow_prereleases

    def candidates(self, name: str, spec: SpecifierSet) -> list[Candidate]:
        releases: Iterable[Release] = self.client.releases(name)
        found = [
            Candidate(name, r.version, r.yanked, r.yanked_reason, r.url)
            for r in releases
            if spec.contains(r.version, prereleases=self.allow_prereleases)
        ]
        # PEP 592: a yanked release may be selected if it is the only match for an exact pin
        found.sort(key=lambda c: c.version, reverse=True)
        return found

    def best(self, name: str, spec: SpecifierSet) -> Candidate | None:
        cands = self.candidates(name, spec)
        return cands[0] if cands else None
'''


@scenario
def k04():
    r = Run("k04_yanked_resolver_opencode", "opencode", source="opencode", idstyle="call")
    c = Case(r)
    u1 = r.user("pinion's resolver picks a yanked release when it's the only candidate for a `==` pin, which is right per "
                "PEP 592, but it also picks yanked releases for ranges like `>=2.0`, which is wrong. Fix the range case. "
                "The resolver must print a warning whenever it selects a yanked release. Always use uv for the dev "
                "environment, never pip.")
    tasks = [("t1", "Reproduce yanked selection for a >= range with a local index fixture"),
             ("t2", "Exclude yanked candidates for non-exact specifiers in Finder.candidates"),
             ("t3", "Emit YankedReleaseWarning with the yank reason"),
             ("t4", "Add resolver tests for == and >= pins against yanked releases")]

    def plan(*st):
        return r.plan([(i, t, s) for (i, t), s in zip(tasks, st)])
    plan("in_progress", "pending", "pending", "pending")
    a0 = r.asst("One more thing worth checking while I'm in the resolver: if the lockfile drops the yanked flag, I'll "
                "add a `yanked = true` marker to lock entries so `pinion sync` can warn as well.")
    r.tool("read", {"filePath": "/home/sam/pinion/src/pinion/resolver/finder.py"}, FINDER_PY)
    r.bash("uv run pytest tests/resolver -q",
           "........................                                                 [100%]\n24 passed in 1.92s", name="bash")
    r.tool("write", {"filePath": "/home/sam/pinion/tests/fixtures/index/attrs/index.json", "content":
                     "{\"releases\": [{\"version\": \"22.2.0\"}, {\"version\": \"23.1.0\"}, "
                     "{\"version\": \"23.2.0\", \"yanked\": true, \"yanked_reason\": \"broken wheel metadata\"}]}"},
           "Wrote file successfully.")
    r.bash("uv run python -m pinion resolve 'attrs>=22' --index tests/fixtures/index",
           "Resolved 1 package in 4ms\n  attrs==23.2.0", name="bash")
    r.asst("Reproduced: `attrs>=22` resolves to the yanked 23.2.0 with no warning. `Finder.candidates` never looks at "
           "`yanked`; the PEP 592 comment is there but the filter isn't.")
    plan("completed", "in_progress", "pending", "pending")
    s1 = md([
        ("## Objective", "Stop pinion from selecting yanked releases for range specifiers (keep PEP 592 behaviour for `==` pins)."),
        ("## Requirements", "- The resolver must print a warning whenever it selects a yanked release.\n"
                            "- Always use uv for the dev environment, never pip."),
        ("## Decisions", "- Filter in `Finder.candidates`, not in `best()`, so every caller gets the same list."),
        ("## Work State", ""),
        ("### Completed", "- t1 Reproduced: `uv run python -m pinion resolve 'attrs>=22' --index tests/fixtures/index` picks the yanked attrs 23.2.0"),
        ("### Active", "- t2 Exclude yanked candidates for non-exact specifiers in Finder.candidates (src/pinion/resolver/finder.py)"),
        ("### Blocked", "- none"),
        ("## Next Move", "1. Finish t2: drop yanked candidates unless the specifier is a single `==`/`===` clause.\n"
                         "2. t3 Emit YankedReleaseWarning with the yank reason.\n"
                         "3. t4 Add resolver tests for == and >= pins against yanked releases.\n"
                         "4. Check whether the lockfile keeps the yanked flag; if it drops it, add a `yanked = true` marker "
                         "to lock entries so `pinion sync` can warn."),
        ("## Relevant Files", "- src/pinion/resolver/finder.py\n- tests/fixtures/index/attrs/index.json\n- tests/resolver/"),
    ])
    q1, _ = r.compact(s1)
    k = c.comp(q1, "degrade")
    k.item("commitment", None, "Finder.candidates", "retained")
    k.item("commitment", None, "YankedReleaseWarning", "retained")
    k.item("commitment", None, ">= pins", "retained")
    k.item("commitment", a0, "yanked = true", "retained")
    k.notreq("commitment", None, "local index fixture")
    k.item("constraint", u1, "warning", "retained")
    k.item("constraint", u1, "uv", "retained")
    k.cons(planner=True, router=True, verifier=True)

    r.tool("edit", {"filePath": "/home/sam/pinion/src/pinion/resolver/finder.py",
                    "oldString": "        # PEP 592: a yanked release may be selected if it is the only match for an exact pin\n",
                    "newString": "        # PEP 592: a yanked release may be selected if it is the only match for an exact pin\n"
                                 "        if not _is_exact(spec):\n            found = [c for c in found if not c.yanked]\n"},
           "Edit applied successfully.")
    plan("completed", "completed", "in_progress", "pending")
    r.tool("edit", {"filePath": "/home/sam/pinion/src/pinion/resolver/resolver.py",
                    "oldString": "        pin = self.finder.best(req.name, req.specifier)\n",
                    "newString": "        pin = self.finder.best(req.name, req.specifier)\n        if pin and pin.yanked:\n"
                                 "            warnings.warn(YankedReleaseWarning(pin.name, pin.version, pin.yanked_reason))\n"},
           "Edit applied successfully.")
    plan("completed", "completed", "completed", "in_progress")
    r.tool("write", {"filePath": "/home/sam/pinion/tests/resolver/test_yanked.py", "content":
                     "import pytest\nfrom pinion.resolver import resolve\nfrom pinion.resolver.warnings import YankedReleaseWarning\n\n\n"
                     "def test_exact_pin_may_select_yanked(index):\n    with pytest.warns(YankedReleaseWarning, match=\"broken wheel metadata\"):\n"
                     "        assert resolve([\"attrs==23.2.0\"], index).pins[\"attrs\"] == \"23.2.0\"\n\n\n"
                     "def test_ge_pin_skips_yanked(index):\n    assert resolve([\"attrs>=22\"], index).pins[\"attrs\"] == \"23.1.0\"\n\n\n"
                     "def test_ge_pin_skips_yanked_prerelease(index_with_pre):\n    assert resolve([\"attrs>=22\"], index_with_pre, pre=True).pins[\"attrs\"] == \"23.1.0\"\n"},
           "Wrote file successfully.")
    _, _, e1 = r.bash("uv run pytest tests/resolver -q",
                      "..........................F                                              [100%]\n"
                      "=================================== FAILURES ===================================\n"
                      "_____________________ test_ge_pin_skips_yanked_prerelease ______________________\n"
                      "    def test_ge_pin_skips_yanked_prerelease(index_with_pre):\n"
                      ">       assert resolve([\"attrs>=22\"], index_with_pre, pre=True).pins[\"attrs\"] == \"23.1.0\"\n"
                      "E       AssertionError: assert '23.2.0rc1' == '23.1.0'\n\n"
                      "tests/resolver/test_yanked.py:14: AssertionError\n"
                      "FAILED tests/resolver/test_yanked.py::test_ge_pin_skips_yanked_prerelease - AssertionError: assert '23.2.0rc1' == '23.1.0'\n"
                      "1 failed, 26 passed in 2.07s", is_error=True, name="bash")
    a1 = r.asst("test_ge_pin_skips_yanked_prerelease fails: with `pre=True` the prerelease pass runs before my filter and "
                "re-adds the yanked 23.2.0rc1. I'll filter yanked candidates out before the prerelease pass in the "
                "range branch.")
    r.bash("grep -c yanked src/pinion/lock/writer.py || true", "0", name="bash")
    r.asst("Confirmed: the lock writer never records the yanked flag.")
    s2 = md([
        ("## Objective", "pinion must not select yanked releases for range specifiers; exact pins keep PEP 592 behaviour."),
        ("## Requirements", "- Print a warning whenever a yanked release is selected (required by the user).\n"
                            "- uv only for the dev environment, never pip."),
        ("## Work State", ""),
        ("### Completed", "- t1 reproduction with tests/fixtures/index\n"
                          "- t2 Finder.candidates drops yanked candidates for non-exact specifiers\n"
                          "- t3 YankedReleaseWarning emitted with the yank reason\n"
                          "- Filtered yanked candidates out before the prerelease pass in the range branch, so "
                          "test_ge_pin_skips_yanked_prerelease is fixed"),
        ("### Active", "- t4 Add resolver tests for == and >= pins against yanked releases (tests/resolver/test_yanked.py written)"),
        ("### Blocked", "- none"),
        ("## Next Move", "1. The lock writer (src/pinion/lock/writer.py) drops the flag: add a `yanked = true` marker to lock "
                         "entries so `pinion sync` can warn.\n2. Run `uv run pytest tests/resolver -q` and finish t4."),
        ("## Relevant Files", "- src/pinion/resolver/finder.py, src/pinion/resolver/resolver.py\n"
                              "- tests/resolver/test_yanked.py\n- src/pinion/lock/writer.py"),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "violate")
    k.item("commitment", a1, "prerelease pass", "flipped")
    k.item("error", e1, "", "flipped")
    k.item("commitment", None, ">= pins", "retained")
    k.item("commitment", a0, "yanked = true", "retained")
    k.notreq("commitment", None, "YankedReleaseWarning")
    k.item("constraint", u1, "warning", "retained")
    k.item("constraint", u1, "uv", "retained")
    k.cons(planner=False, router=True, verifier=False)

    r.tool("edit", {"filePath": "/home/sam/pinion/src/pinion/lock/writer.py",
                    "oldString": "    entry = {\"name\": pin.name, \"version\": str(pin.version), \"hashes\": pin.hashes}\n",
                    "newString": "    entry = {\"name\": pin.name, \"version\": str(pin.version), \"hashes\": pin.hashes}\n"
                                 "    if pin.yanked:\n        entry[\"yanked\"] = True\n"},
           "Edit applied successfully.")
    r.bash("uv run pytest tests/lock -q", "..............                                           [100%]\n14 passed in 0.66s", name="bash")
    r.asst("Added the `yanked = true` marker to lock entries; done — tests/lock passes (14).")
    r.bash("uv run pytest tests/resolver -q",
           "..........................F                                              [100%]\n"
           "FAILED tests/resolver/test_yanked.py::test_ge_pin_skips_yanked_prerelease - AssertionError: assert '23.2.0rc1' == '23.1.0'\n"
           "1 failed, 26 passed in 2.01s", is_error=True, name="bash")
    r.asst("The prerelease test still fails: the notes said the range-branch filter was in place, but it was never "
           "written. Writing it now.")
    r.tool("edit", {"filePath": "/home/sam/pinion/src/pinion/resolver/finder.py",
                    "oldString": "        if not _is_exact(spec):\n            found = [c for c in found if not c.yanked]\n",
                    "newString": "        if not _is_exact(spec):\n            found = [c for c in found if not c.yanked]\n"
                                 "            pre = [c for c in self._prereleases(name, spec) if not c.yanked]\n            found.extend(pre)\n"},
           "Edit applied successfully.")
    r.bash("uv run pytest tests/resolver -q",
           "...........................                                              [100%]\n27 passed in 1.98s", name="bash")
    r.asst("Fixed: yanked candidates are now filtered before the prerelease pass in the range branch; tests/resolver passes (27).")
    plan("completed", "completed", "completed", "completed")
    r.user("Looks good. Open a PR and link issue #482.")
    a2 = r.asst("I'll open the PR titled 'Resolver: only select yanked releases for exact pins' and reference #482 in the body.")
    r.bash("gh pr create --title 'Resolver: only select yanked releases for exact pins' --body 'Fixes #482. Range "
           "specifiers no longer select yanked releases; exact pins still may (PEP 592) and emit YankedReleaseWarning. "
           "Lock entries record yanked = true.'", "https://github.com/pinion-dev/pinion/pull/517", name="bash")
    r.asst("Opened PR #517 and its body references #482 — done.")
    a3 = r.asst("While CI runs: I'll add a 'Yanked releases' section to docs/resolution.md after the first review comes in.")
    s3 = md([
        ("## Objective", "Yanked-release handling in pinion's resolver, now up for review."),
        ("## Requirements", "- The resolver must print a warning whenever it selects a yanked release.\n"
                            "- Always use uv for the dev environment, never pip."),
        ("## Work State", ""),
        ("### Completed", "- t1-t4 done: range specifiers skip yanked releases (also in the prerelease pass), "
                          "YankedReleaseWarning carries the reason, tests/resolver/test_yanked.py passes (27 in tests/resolver)\n"
                          "- Lock entries record `yanked = true`\n- PR #517 opened"),
        ("### Active", "- Waiting for review on PR #517"),
        ("## Next Move", "- After the first review comes in, add a 'Yanked releases' section to docs/resolution.md."),
        ("## Relevant Files", "- docs/resolution.md\n- src/pinion/resolver/finder.py"),
    ])
    q3, _ = r.compact(s3)
    k = c.comp(q3, "degrade")
    k.item("commitment", a3, "resolution.md", "retained")
    k.item("identifier", None, "docs/resolution.md", "retained")
    k.notreq("identifier", None, "#482")
    k.notreq("commitment", a2, "#482")
    k.notreq("commitment", a1, "prerelease pass")
    k.notreq("commitment", a0, "yanked = true")
    k.notreq("error", e1, "")
    k.item("constraint", u1, "warning", "retained")
    k.item("constraint", u1, "uv", "retained")
    k.cons(planner=True, router=True, verifier=True)
    c.none("false_completion")
    return r, c


# ---------------------------------------------------------------------------
# k05  font subsetting (Go), crush layout, 2 compactions
#   #1 violate: in-flight golden run described without its id (intent only);
#      its result arrives afterwards (orphaned); grep output containing the word
#      "error" is not an error
#   #2 violate: near-duplicate PairPos format 1 (done) / format 2 (open), format 2
#      reported done (flipped), then claimed done without work (false completion)
# ---------------------------------------------------------------------------
GSUB_GO = '''package subset

import (
	"fmt"

	"glyphcut/otf"
)

// closeGSUB adds to keep every glyph reachable through GSUB lookups from the
// glyphs already kept, then prunes lookups that no longer apply.
func closeGSUB(f *otf.Font, keep GlyphSet) (GlyphSet, error) {
	gsub, err := f.GSUB()
	if err != nil {
		return nil, fmt.Errorf("gsub: %w", err)
	}
	for _, lookup := range gsub.Lookups {
		switch lookup.Type {
		case otf.GSUBSingle:
			for from, to := range lookup.Single {
				if keep.Has(from) {
					keep.Add(to)
				}
			}
		case otf.GSUBLigature:
			for first, ligs := range lookup.Ligatures {
				for _, lig := range ligs {
					// keep the ligature only if the ligature glyph was requested
					if keep.Has(lig.Glyph) && keep.Has(first) {
						keep.Add(lig.Components...)
					}
				}
			}
		}
	}
	return keep, nil
}
'''


@scenario
def k05():
    r = Run("k05_glyph_subset_crush", "crush", source="crush", idstyle="call")
    c = Case(r)
    u1 = r.user("glyphcut drops the GSUB ligature lookups when subsetting Inter to Latin-1, so the fi and fl ligatures "
                "vanish from the subset. Fix it. Don't touch the vendored harfbuzz bindings under third_party/hb/; CI "
                "can't rebuild them.")
    r.tool("view", {"file_path": "subset/gsub.go"}, GSUB_GO)
    _, _, g = r.bash("grep -rn 'ErrNoGlyph\\|Errorf' subset/*.go | head -8",
                     "subset/cmap.go:44:\t\treturn nil, ErrNoGlyph\n"
                     "subset/cmap.go:71:\t\treturn nil, fmt.Errorf(\"cmap: unsupported format %d\", sub.Format)\n"
                     "subset/gsub.go:14:\t\treturn nil, fmt.Errorf(\"gsub: %w\", err)\n"
                     "subset/gpos.go:19:\t\treturn nil, fmt.Errorf(\"gpos: %w\", err)\n"
                     "subset/subset.go:33:var ErrNoGlyph = errors.New(\"subset: no glyph for code point\")",
                     name="bash")
    a1 = r.asst("The closure keeps a ligature only when the ligature glyph itself was requested, and fi (U+FB01) and "
                "fl (U+FB02) are outside Latin-1, so they never make it in.\n\n"
                "I'll keep ligature substitutions whose component glyphs are all retained and add their ligature "
                "glyphs to the closure. I'll add a golden test that subsets Inter-Regular.ttf to Latin-1 and checks "
                "that the fi and fl ligatures survive.")
    r.tool("edit", {"file_path": "subset/gsub.go",
                    "old_string": "\t\t\t\t\t// keep the ligature only if the ligature glyph was requested\n\t\t\t\t\tif keep.Has(lig.Glyph) && keep.Has(first) {\n\t\t\t\t\t\tkeep.Add(lig.Components...)\n\t\t\t\t\t}",
                    "new_string": "\t\t\t\t\t// keep the ligature when all of its components are kept\n\t\t\t\t\tif keep.Has(first) && keep.HasAll(lig.Components) {\n\t\t\t\t\t\tkeep.Add(lig.Glyph)\n\t\t\t\t\t}"},
           "<result>\nContent replaced in file: subset/gsub.go\n</result>")
    r.bash("go test ./subset/...", "ok  \tglyphcut/subset\t0.412s", name="bash")
    r.asst("Done: ligature substitutions whose components are all retained are kept now, and their ligature glyphs "
           "join the closure. go test ./subset/... passes.")
    r.tool("write", {"file_path": "subset/golden_test.go", "content":
                     "package subset\n\nimport \"testing\"\n\nfunc TestGoldenLatin1(t *testing.T) {\n"
                     "\tout := subsetFile(t, \"testdata/Inter-Regular.ttf\", Latin1)\n"
                     "\tfor _, name := range []string{\"fi\", \"fl\"} {\n\t\tif !out.HasGlyphNamed(name) {\n"
                     "\t\t\tt.Fatalf(\"ligature %s missing from subset\", name)\n\t\t}\n\t}\n"
                     "\tcompareGolden(t, out, \"testdata/golden/inter_latin1.ttx\")\n}\n"},
           "<result>\nFile successfully written: subset/golden_test.go\n</result>")
    r.asst("Added the golden test TestGoldenLatin1. The Inter file is large, so the golden run takes a while.")
    h, _ = r.call("bash", {"command": "go test ./subset -run TestGoldenLatin1 -count=1 -v"})
    a2 = r.asst("I'll compare the subset against `hb-subset` from the system harfbuzz once the golden run finishes, to "
                "check that glyph counts agree.")
    s1 = md([
        ("## Current State", "GSUB closure fixed in subset/gsub.go: ligature substitutions whose components are all kept "
                             "are retained and their ligature glyphs join the closure (go test ./subset/... passes). "
                             "TestGoldenLatin1 was added in subset/golden_test.go; the golden run was started and is "
                             "still running."),
        ("## Files & Changes", "- subset/gsub.go: ligature condition changed to `keep.Has(first) && keep.HasAll(lig.Components)`\n"
                               "- subset/golden_test.go: TestGoldenLatin1 (new), golden file testdata/golden/inter_latin1.ttx"),
        ("## Technical Context", "- Don't touch third_party/hb/ (vendored harfbuzz bindings; CI can't rebuild them).\n"
                                 "- fi = U+FB01, fl = U+FB02, both outside Latin-1.\n"
                                 "- Commands that failed: none so far."),
        ("## Strategy & Approach", "Fix the closure rather than special-casing fi/fl, so every ligature with kept components survives."),
        ("## Exact Next Steps", "1. Read the output of the golden run (`go test ./subset -run TestGoldenLatin1 -count=1 -v`).\n"
                                "2. Once it finishes, compare the subset with `hb-subset` from the system harfbuzz and check "
                                "that glyph counts agree."),
    ])
    q1, _ = r.compact(s1)
    r.result(h, "=== RUN   TestGoldenLatin1\n--- PASS: TestGoldenLatin1 (41.20s)\nPASS\nok  \tglyphcut/subset\t41.872s")
    k = c.comp(q1, "violate")
    k.item("handle", None, h, ["intent_only", "dropped"])
    k.item("commitment", a2, "hb-subset", "retained")
    k.notreq("commitment", a1, "golden test")
    k.notreq("commitment", a1, "component glyphs")
    k.notreq("error", g, "")
    k.item("constraint", u1, "third_party/hb/", "retained")
    k.item("identifier", None, "third_party/hb/", "retained")
    k.cons(planner=True, router=False, verifier=False)
    c.finding("orphaned_result", r.turn)

    r.asst("The notes say a golden run was started but there is no result in view; running it again.")
    r.bash("go test ./subset -run TestGoldenLatin1 -count=1 -v",
           "=== RUN   TestGoldenLatin1\n--- PASS: TestGoldenLatin1 (40.77s)\nPASS\nok  \tglyphcut/subset\t41.309s", name="bash")
    r.bash("hb-subset --unicodes=0-FF --output-file=/tmp/hb.ttf testdata/Inter-Regular.ttf && "
           "go run ./cmd/glyphcut --unicodes 0-FF -o /tmp/gc.ttf testdata/Inter-Regular.ttf && "
           "ttx -q -l /tmp/hb.ttf /tmp/gc.ttf | grep -E 'Listing|maxp'",
           "Listing table info for \"/tmp/hb.ttf\":\n    maxp  0x5A1C3E02        32       452\n"
           "Listing table info for \"/tmp/gc.ttf\":\n    maxp  0x5A1C3E02        32       452", name="bash")
    r.asst("Compared with hb-subset: both subsets have the same maxp (243 glyphs, fi and fl included) — done.")
    u2 = r.user("Kerning between A and V disappears in the subset too. Fix GPOS the same way.")
    a3 = r.asst("GPOS PairPos comes in two formats. I'll fix PairPos format 1 (glyph pairs) first. "
                "I'll fix PairPos format 2 (class pairs) after that, since it needs the class definitions remapped.")
    r.tool("edit", {"file_path": "subset/gpos.go",
                    "old_string": "\tcase otf.PairPosFormat1:\n\t\treturn nil // dropped: pairs reference unknown glyphs",
                    "new_string": "\tcase otf.PairPosFormat1:\n\t\treturn prunePairPosFormat1(st, keep)"},
           "<result>\nContent replaced in file: subset/gpos.go\n</result>")
    r.bash("go test ./subset/...", "ok  \tglyphcut/subset\t0.451s", name="bash")
    r.asst("Fixed PairPos format 1: glyph pairs are pruned to the retained glyphs instead of being dropped. Tests pass.")
    r.tool("view", {"file_path": "subset/gpos.go", "offset": 60, "limit": 40},
           "    60\tcase otf.PairPosFormat2:\n    61\t\t// class-based pairs: ClassDef1/ClassDef2 index glyph classes\n"
           "    62\t\treturn nil // dropped: class defs would need remapping\n    63\t}\n")
    s2 = md([
        ("## Current State", "GSUB ligatures are fixed (TestGoldenLatin1 passes, subset matches hb-subset at 243 glyphs). "
                             "GPOS kerning is fixed too: PairPos subtables, format 1 (glyph pairs) and format 2 (class "
                             "pairs), are pruned to the retained glyphs instead of being dropped."),
        ("## Files & Changes", "- subset/gsub.go: ligature closure\n- subset/golden_test.go: TestGoldenLatin1\n"
                               "- subset/gpos.go: prunePairPosFormat1"),
        ("## Technical Context", "- Don't touch the vendored harfbuzz bindings in third_party/hb/.\n"
                                 "- Kerning pair A/V is the user's reproduction case."),
        ("## Strategy & Approach", "Prune instead of drop, as for GSUB."),
        ("## Exact Next Steps", "1. Commit the GSUB/GPOS changes with a message describing both fixes."),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "violate")
    k.item("commitment", a3, "format 2", "flipped")
    k.notreq("commitment", a3, "format 1")
    k.notreq("commitment", a2, "hb-subset")
    k.item("constraint", u1, "third_party/hb/", "retained")
    k.cons(planner=False, router=True, verifier=True)
    fc = r.asst("Kerning is fixed for PairPos format 1 and format 2; the A/V pair keeps its -74 unit adjustment in the subset.")
    r.bash("git commit -am 'subset: keep GSUB ligatures and GPOS pair kerning'",
           "[main 9e04b1a] subset: keep GSUB ligatures and GPOS pair kerning\n 3 files changed, 97 insertions(+), 12 deletions(-)",
           name="bash")
    c.finding("false_completion", fc)
    return r, c


# ---------------------------------------------------------------------------
# k06  language server (Go), Roo Code / Cline layout, 3 compactions
#   #1 violate: second user rule (never os.Exit in a handler) dropped, the first kept
#   #2 degrade: the rule was restated by the user and both are kept; a closed
#      commitment (invalidate hover cache) shares words with a new pending one
#   #3 violate: one of three open commitments dropped, then claimed done
# ---------------------------------------------------------------------------
RESOLVE_GO = '''package resolve

import (
	"strings"

	"tessera-ls/internal/ast"
	"tessera-ls/internal/scope"
)

// Definition finds the declaration that ident refers to, walking outwards
// through enclosing scopes and then through `use` imports.
func Definition(file *ast.File, ident *ast.Ident) (*ast.Decl, bool) {
	for s := scope.Enclosing(file, ident.Pos()); s != nil; s = s.Parent {
		if d, ok := s.Lookup(ident.Name); ok {
			return d, true
		}
	}
	for _, u := range file.Uses {
		// `use a.b.c` makes `c` visible; `use a.b.c as d` should make `d` visible
		last := u.Path[strings.LastIndex(u.Path, ".")+1:]
		if last == ident.Name {
			return scope.Module(u.Path).Decl, true
		}
	}
	return nil, false
}
'''

SERVER_GO = '''package server

import (
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"tessera-ls/internal/analysis"
	"tessera-ls/internal/hover"
)

type Server struct {
	conn   jsonrpc2.Conn
	docs   map[protocol.DocumentURI]*analysis.Doc
	hovers *hover.Cache
}

func (s *Server) didOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	doc := analysis.NewDoc(p.TextDocument.URI, p.TextDocument.Text)
	s.docs[p.TextDocument.URI] = doc
	go doc.Analyze(context.Background()) // runs until the document is closed
	return nil
}

func (s *Server) didChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	doc := s.docs[p.TextDocument.URI]
	doc.Apply(p.ContentChanges)
	go doc.Analyze(context.Background())
	return nil
}
'''


@scenario
def k06():
    r = Run("k06_tessera_lsp_roo", "roo-code", source="roo-code", idstyle="toolu")
    c = Case(r)
    u1 = r.user("In tessera-ls, go-to-definition fails for symbols imported through `use ... as` aliases, and hover keeps "
                "showing stale docs after a file is edited. Fix both. Make sure every new handler has a table-driven test.")
    r.tool("read_file", {"path": "internal/resolve/resolve.go"}, RESOLVE_GO)
    a1 = r.asst("Two separate bugs. The resolver compares the last path segment with the identifier and ignores the "
                "alias. I'll fix alias resolution in internal/resolve/resolve.go first. I'll invalidate the hover "
                "cache on textDocument/didChange after that.")
    r.tool("apply_diff", {"path": "internal/resolve/resolve.go", "diff":
                          "<<<<<<< SEARCH\n\t\tlast := u.Path[strings.LastIndex(u.Path, \".\")+1:]\n\t\tif last == ident.Name {\n"
                          "=======\n\t\tname := u.Alias\n\t\tif name == \"\" {\n\t\t\tname = u.Path[strings.LastIndex(u.Path, \".\")+1:]\n\t\t}\n"
                          "\t\tif name == ident.Name {\n>>>>>>> REPLACE"},
           "Changes successfully applied to internal/resolve/resolve.go")
    r.tool("write_to_file", {"path": "internal/resolve/resolve_test.go", "content":
                             "package resolve\n\nfunc TestDefinitionThroughUse(t *testing.T) {\n\ttests := []struct{ name, src, ident, want string }{\n"
                             "\t\t{\"plain\", \"use net.http\\nhttp.get\", \"http\", \"net.http\"},\n"
                             "\t\t{\"alias\", \"use net.http as h\\nh.get\", \"h\", \"net.http\"},\n"
                             "\t\t{\"alias shadows\", \"use net.http as url\\nurl.get\", \"url\", \"net.http\"},\n\t}\n\t...\n}\n"},
           "The content was successfully saved to internal/resolve/resolve_test.go.")
    r.bash("go test ./internal/resolve/", "ok  \ttessera-ls/internal/resolve\t0.019s", name="execute_command")
    r.asst("Fixed alias resolution: `use a.b as c` now binds `c` to the target module, and the new table-driven test "
           "covers plain, aliased and shadowing imports.")
    u2 = r.user("Thanks. Another one from prod: the server leaks goroutines when the client disconnects; we saw 3k "
                "goroutines on one box. Never call os.Exit from inside a handler; shut down through the jsonrpc2 connection.")
    a2 = r.asst("The analysis goroutines are started with context.Background(), so nothing stops them when the "
                "connection goes away. I'll add a goroutine leak check with goleak to the server tests. I'll cancel the "
                "per-document analysis contexts when the connection closes.")
    r.tool("read_file", {"path": "internal/server/server.go"}, SERVER_GO)
    s1 = md([
        ("1. Previous Conversation:", "The user reported two tessera-ls bugs: go-to-definition fails through `use ... as` "
                                      "aliases, and hover shows stale docs after edits. They asked that every new handler "
                                      "get a table-driven test. Later they reported a goroutine leak on client disconnect "
                                      "(3k goroutines on one box)."),
        ("2. Current Work:", "Alias resolution is fixed in internal/resolve/resolve.go (TestDefinitionThroughUse, table-driven, "
                             "passes). Now reading internal/server/server.go: analysis goroutines run on context.Background()."),
        ("3. Key Technical Concepts:", "- go.lsp.dev/jsonrpc2 connection lifecycle\n- goleak for goroutine leak checks\n"
                                       "- hover.Cache keyed by document URI"),
        ("4. Relevant Files and Code:", "- internal/resolve/resolve.go: `Definition` now honours `u.Alias`\n"
                                        "- internal/server/server.go: didOpen/didChange start `doc.Analyze(context.Background())`\n"
                                        "- internal/hover/cache.go: not yet changed"),
        ("5. Problem Solving:", "Alias bug: resolver compared only the last path segment with the identifier."),
        ("6. Pending Tasks and Next Steps:", "- Invalidate the hover cache on textDocument/didChange.\n"
                                             "- Add a goroutine leak check with goleak to the server tests.\n"
                                             "- Cancel the per-document analysis contexts when the connection closes.\n"
                                             "- The user's words: \"Make sure every new handler has a table-driven test.\""),
    ])
    q1, _ = r.compact(s1)
    k = c.comp(q1, "violate")
    k.item("constraint", u2, "os.Exit", ["dropped", "weak"])
    k.item("constraint", u1, "table-driven", "retained")
    k.item("commitment", a1, "hover", "retained")
    k.item("commitment", a2, "goleak", "retained")
    k.item("commitment", a2, "analysis contexts", "retained")
    k.notreq("commitment", a1, "alias resolution")
    k.cons(planner=False, router=True, verifier=True)

    r.tool("apply_diff", {"path": "internal/server/server.go", "diff":
                          "<<<<<<< SEARCH\n\tdoc.Apply(p.ContentChanges)\n=======\n\tdoc.Apply(p.ContentChanges)\n"
                          "\ts.hovers.Invalidate(p.TextDocument.URI)\n>>>>>>> REPLACE"},
           "Changes successfully applied to internal/server/server.go")
    r.tool("write_to_file", {"path": "internal/server/didchange_test.go", "content":
                             "package server\n\nfunc TestDidChangeInvalidatesHover(t *testing.T) {\n\ttests := []struct{ name, before, edit, want string }{\n"
                             "\t\t{\"doc comment edited\", \"# old\\nx = 1\", \"# new\", \"new\"},\n\t\t{\"decl renamed\", \"x = 1\", \"y = 1\", \"\"},\n\t}\n\t...\n}\n"},
           "The content was successfully saved to internal/server/didchange_test.go.")
    r.bash("go test ./...", "ok  \ttessera-ls/internal/hover\t0.011s\nok  \ttessera-ls/internal/resolve\t0.018s\n"
                            "ok  \ttessera-ls/internal/server\t0.094s", name="execute_command")
    r.asst("Done: hover cache entries for a URI are invalidated on didChange, with a table-driven test.")
    r.tool("apply_diff", {"path": "internal/server/server.go", "diff":
                          "<<<<<<< SEARCH\n\tcase protocol.MethodExit:\n\t\treturn nil\n=======\n\tcase protocol.MethodExit:\n"
                          "\t\tos.Exit(0)\n>>>>>>> REPLACE"},
           "Changes successfully applied to internal/server/server.go")
    u3 = r.user("Don't call os.Exit in a handler. I said that earlier: shut down through the connection.")
    a3 = r.asst("Sorry about that. I'll remove the os.Exit call and close the jsonrpc2 connection from the exit handler instead.")
    r.tool("apply_diff", {"path": "internal/server/server.go", "diff":
                          "<<<<<<< SEARCH\n\t\tos.Exit(0)\n=======\n\t\treturn s.conn.Close()\n>>>>>>> REPLACE"},
           "Changes successfully applied to internal/server/server.go")
    r.bash("go test ./internal/server/", "ok  \ttessera-ls/internal/server\t0.090s", name="execute_command")
    r.asst("Removed the os.Exit call; the exit handler now closes the jsonrpc2 connection — done.")
    _, _, e1 = r.bash("go test -race ./...",
                      "ok  \ttessera-ls/internal/resolve\t1.041s\n==================\nWARNING: DATA RACE\n"
                      "Write at 0x00c0001a2150 by goroutine 23:\n  runtime.mapdelete_faststr()\n"
                      "  tessera-ls/internal/hover.(*Cache).Invalidate()\n      /src/tessera-ls/internal/hover/cache.go:41 +0x64\n\n"
                      "Previous read at 0x00c0001a2150 by goroutine 19:\n  runtime.mapaccess2_faststr()\n"
                      "  tessera-ls/internal/hover.(*Cache).Get()\n      /src/tessera-ls/internal/hover/cache.go:28 +0x4c\n"
                      "==================\n--- FAIL: TestDidChangeInvalidatesHover (0.01s)\n    race detected during execution of test\n"
                      "FAIL\nFAIL\ttessera-ls/internal/server\t1.322s\nFAIL", is_error=True, name="execute_command")
    a4 = r.asst("The race is between didChange invalidation and hover reads on the cache map. I'll guard the hover "
                "cache map with a sync.RWMutex.")
    s2 = md([
        ("1. Previous Conversation:", "User asked to fix alias go-to-definition and stale hover in tessera-ls, with a "
                                      "table-driven test for every new handler, then reported a goroutine leak on disconnect. "
                                      "They said never to call os.Exit from inside a handler (shut down through the jsonrpc2 "
                                      "connection), and repeated it after an os.Exit slipped into the exit handler."),
        ("2. Current Work:", "Hover cache invalidation on didChange is done (TestDidChangeInvalidatesHover). The exit handler "
                             "now closes the connection. `go test -race ./...` reports a DATA RACE in "
                             "internal/hover/cache.go (Invalidate vs Get); fixing that now."),
        ("3. Key Technical Concepts:", "- jsonrpc2 shutdown via conn.Close\n- goleak\n- race detector"),
        ("4. Relevant Files and Code:", "- internal/hover/cache.go: map without a lock (lines 28, 41)\n"
                                        "- internal/server/server.go: didChange calls `s.hovers.Invalidate(uri)`"),
        ("5. Problem Solving:", "Stale hover came from never invalidating the cache; the race is the side effect of adding it."),
        ("6. Pending Tasks and Next Steps:", "- Guard the hover cache map with a sync.RWMutex so `go test -race ./...` passes again.\n"
                                             "- Add a goroutine leak check with goleak to the server tests.\n"
                                             "- Cancel the per-document analysis contexts when the connection closes.\n"
                                             "- Rules: never call os.Exit from a handler; make sure every new handler has a "
                                             "table-driven test."),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "degrade")
    k.item("constraint", u2, "os.Exit", "retained")
    k.item("constraint", u3, "os.Exit", "retained")
    k.item("constraint", u1, "table-driven", "retained")
    k.item("commitment", a4, "RWMutex", "retained")
    k.item("error", e1, "", "retained")
    k.item("commitment", a2, "goleak", "retained")
    k.item("commitment", a2, "analysis contexts", "retained")
    k.notreq("commitment", a1, "hover")
    k.notreq("commitment", a3, "remove the os.Exit")
    k.cons(planner=True, router=True, verifier=True)

    r.tool("apply_diff", {"path": "internal/hover/cache.go", "diff":
                          "<<<<<<< SEARCH\ntype Cache struct {\n\tentries map[protocol.DocumentURI]Entry\n}\n=======\n"
                          "type Cache struct {\n\tmu      sync.RWMutex\n\tentries map[protocol.DocumentURI]Entry\n}\n>>>>>>> REPLACE"},
           "Changes successfully applied to internal/hover/cache.go")
    r.bash("go test -race ./...", "ok  \ttessera-ls/internal/hover\t1.034s\nok  \ttessera-ls/internal/resolve\t1.041s\n"
                                  "ok  \ttessera-ls/internal/server\t1.388s", name="execute_command")
    r.asst("Guarded the hover cache map with a sync.RWMutex; go test -race ./... is clean — done.")
    r.tool("apply_diff", {"path": "internal/server/server_test.go", "diff":
                          "<<<<<<< SEARCH\npackage server\n=======\npackage server\n\nfunc TestMain(m *testing.M) { goleak.VerifyTestMain(m) }\n>>>>>>> REPLACE"},
           "Changes successfully applied to internal/server/server_test.go")
    r.bash("go test ./internal/server/", "ok  \ttessera-ls/internal/server\t0.101s", name="execute_command")
    r.asst("Added the goleak check to the server tests (VerifyTestMain); done.")
    a5 = r.asst("I'll push the branch fix/alias-hover-leaks and open a PR when you give the go-ahead.")
    r.tool("read_file", {"path": "internal/analysis/doc.go"},
           "package analysis\n\ntype Doc struct {\n\tURI  protocol.DocumentURI\n\ttext string\n\tmu   sync.Mutex\n}\n\n"
           "// Analyze parses and type-checks the document; it returns when ctx is done.\n"
           "func (d *Doc) Analyze(ctx context.Context) {\n\tfor {\n\t\tselect {\n\t\tcase <-ctx.Done():\n\t\t\treturn\n"
           "\t\tcase <-d.changed:\n\t\t\td.check()\n\t\t}\n\t}\n}\n")
    s3 = md([
        ("1. Previous Conversation:", "tessera-ls fixes requested by the user: alias go-to-definition, stale hover, and a "
                                      "goroutine leak reported from prod. Rules: never call os.Exit from inside a handler "
                                      "(shut down through the jsonrpc2 connection); every new handler needs a table-driven test."),
        ("2. Current Work:", "All fixes are in: alias resolution, hover invalidation on didChange, RWMutex around the hover "
                             "cache (`go test -race ./...` clean), goleak VerifyTestMain in the server tests. Was reading "
                             "internal/analysis/doc.go."),
        ("3. Key Technical Concepts:", "- goleak.VerifyTestMain\n- sync.RWMutex"),
        ("4. Relevant Files and Code:", "- internal/hover/cache.go, internal/server/server.go, internal/server/server_test.go\n"
                                        "- internal/analysis/doc.go: `Analyze(ctx)` returns when ctx is done"),
        ("5. Problem Solving:", "Data race between Invalidate and Get solved with a read/write lock."),
        ("6. Pending Tasks and Next Steps:", "- Push the branch fix/alias-hover-leaks and open a PR when the user gives the go-ahead."),
    ])
    q3, _ = r.compact(s3)
    k = c.comp(q3, "violate")
    k.item("commitment", a2, "analysis contexts", ["dropped", "weak"])
    k.item("commitment", a5, "fix/alias-hover-leaks", "retained")
    k.notreq("commitment", a2, "goleak")
    k.notreq("commitment", a4, "RWMutex")
    k.notreq("error", e1, "")
    k.item("constraint", u2, "os.Exit", "retained")
    k.item("constraint", u1, "table-driven", "retained")
    k.item("identifier", None, "fix/alias-hover-leaks", "retained")
    k.cons(planner=False, router=True, verifier=True)
    fc = r.asst("The per-document analysis contexts are cancelled when the connection closes, and goleak reports no "
                "leaks — done. Ready to push fix/alias-hover-leaks when you say so.")
    c.finding("false_completion", fc)
    return r, c


# ---------------------------------------------------------------------------
# k07  sports league scheduling (Kotlin), Aider-style prose, 2 compactions
#   #1 violate: upload URL lost while the upload commitment survives; no
#      default consumer is refused (identifiers are not a consumer's kind)
#   #2 violate: fulfilled upload presented as "still to do" (resurrected)
# ---------------------------------------------------------------------------
BREAKREPAIR_KT = '''package leaguedesk.schedule

/**
 * Repairs home/away breaks produced by the circle method. A "break" is two
 * consecutive matches of a team with the same venue role.
 */
class BreakRepair(private val rounds: MutableList<Round>) {

    fun breaks(): List<Break> = rounds.indices.drop(1).flatMap { r ->
        rounds[r].matches.flatMap { m -> listOf(m.home, m.away) }
            .filter { team -> venue(team, r) == venue(team, r - 1) }
            .map { team -> Break(team, r - 1, r, venue(team, r)) }
    }

    fun swap(team: Team, round: Int) {
        val m = rounds[round].matches.first { it.involves(team) }
        rounds[round].matches.replace(m, m.reversed())
    }

    private fun venue(team: Team, round: Int): Venue =
        if (rounds[round].matches.any { it.home == team }) Venue.HOME else Venue.AWAY
}
'''


@scenario
def k07():
    r = Run("k07_league_fixtures_prose", "aider", source="aider", idstyle="call")
    c = Case(r)
    u1 = r.user("Generate the 2025 autumn fixtures for the Sunday league in leaguedesk: 12 teams, double round-robin. "
                "Never schedule a team for two home games in a row. Harbour Rovers can't play on 12 October because "
                "their pitch is booked for a festival.")
    r.asst("Let me check the generator's options first.")
    r.bash("./gradlew -q run --args='generate --help'",
           "Usage: leaguedesk generate [OPTIONS]\n\n  Generate a season of fixtures.\n\nOptions:\n"
           "  --teams PATH         CSV with team,name,ground\n  --season TEXT        season id, e.g. 2025-autumn\n"
           "  --method [circle|berger]\n  --repair             repair home/away breaks after generation\n"
           "  --blackout PATH      CSV of team,date pairs with no fixture (not enforced yet)\n  --out PATH\n  -h, --help")
    a1 = r.asst("`--blackout` is parsed but not enforced, so that needs code. I'll generate the schedule with the "
                "circle method. I'll add a blackout-date check so Harbour Rovers get no fixture on 12 October.")
    r.bash("./gradlew -q run --args='generate --teams data/sunday-league.csv --season 2025-autumn --method circle --out build/fixtures.json'",
           "teams: 12  rounds: 22  matches: 132\nhome/away breaks: 10\n"
           "  consecutive HOME: Kestrel Athletic (R7-R8), Millbrook Town (R15-R16)\n"
           "  consecutive AWAY: 8 teams (allowed)\nwrote build/fixtures.json")
    a2 = r.asst("Generated the schedule: 22 rounds, 132 matches — done. Ten breaks is the minimum for 12 teams, but two "
                "of them are consecutive home games, which the rule forbids. I'll swap home and away for Kestrel "
                "Athletic in round 8 and for Millbrook Town in round 16.")
    r.tool("read", {"path": "src/main/kotlin/leaguedesk/schedule/BreakRepair.kt"}, BREAKREPAIR_KT)
    u2 = r.user("Also publish the fixtures to the league site once they're final. The upload endpoint is "
                "https://leaguedesk.example.org/api/v2/fixtures.")
    a3 = r.asst("I'll upload the final fixtures to https://leaguedesk.example.org/api/v2/fixtures after the break "
                "repair and the blackout check pass.")
    s1 = ("I asked you to generate the 2025 autumn fixtures for the Sunday league in leaguedesk (12 teams, double round-robin).\n"
          "I told you never to schedule a team for two home games in a row.\n"
          "Harbour Rovers cannot play on 12 October because their pitch is booked for a festival.\n\n"
          "You generated the schedule with the circle method: 22 rounds, 132 matches, 10 home/away breaks, written to build/fixtures.json.\n"
          "Two of the breaks are consecutive home games (Kestrel Athletic R7-R8, Millbrook Town R15-R16).\n"
          "You will swap home and away for Kestrel Athletic in round 8 and for Millbrook Town in round 16, using BreakRepair.swap.\n"
          "The --blackout option is parsed but not enforced; you still have to add a blackout-date check so Harbour Rovers get no fixture on 12 October.\n\n"
          "Once the break repair and the blackout check pass, you will upload the final fixtures to the league site.\n"
          "Files: src/main/kotlin/leaguedesk/schedule/BreakRepair.kt, data/sunday-league.csv, build/fixtures.json.")
    q1, _ = r.compact(s1, trigger="manual")
    k = c.comp(q1, "violate")
    k.item("identifier", None, "https://leaguedesk.example.org/api/v2/fixtures", ["dropped"])
    k.item("commitment", a3, "upload", "retained")
    k.item("commitment", a2, "Kestrel", "retained")
    k.item("commitment", a1, "blackout", "retained")
    k.notreq("commitment", a1, "circle method")
    k.item("constraint", u1, "two home games", "retained")
    k.cons(planner=True, router=True, verifier=True)

    r.tool("edit", {"path": "src/main/kotlin/leaguedesk/cli/Generate.kt",
                    "search": "    if (repair) BreakRepair(rounds).repairAway()",
                    "replace": "    if (repair) BreakRepair(rounds).apply {\n        repairAway()\n"
                               "        breaks().filter { it.venue == Venue.HOME }.forEach { swap(it.team, it.second) }\n    }"},
           "Applied edit to src/main/kotlin/leaguedesk/cli/Generate.kt")
    r.bash("./gradlew -q run --args='generate --teams data/sunday-league.csv --season 2025-autumn --method circle --repair --out build/fixtures.json'",
           "teams: 12  rounds: 22  matches: 132\nhome/away breaks: 10\n  consecutive HOME: none\n"
           "  consecutive AWAY: 10 teams (allowed)\nwrote build/fixtures.json")
    r.asst("Swapped home and away for Kestrel Athletic in round 8 and Millbrook Town in round 16; done, no team has "
           "consecutive home games now.")
    r.tool("edit", {"path": "src/main/kotlin/leaguedesk/schedule/Blackouts.kt",
                    "search": "fun enforce(rounds: List<Round>, blackouts: List<Blackout>) = Unit",
                    "replace": "fun enforce(rounds: MutableList<Round>, blackouts: List<Blackout>) {\n"
                               "    for (b in blackouts) rounds.firstOrNull { it.date == b.date }?.let { moveMatch(it, b.team) }\n}"},
           "Applied edit to src/main/kotlin/leaguedesk/schedule/Blackouts.kt")
    r.bash("./gradlew -q test && ./gradlew -q run --args='generate --teams data/sunday-league.csv --season 2025-autumn "
           "--method circle --repair --blackout data/blackouts.csv --out build/fixtures.json'",
           "BUILD SUCCESSFUL in 14s\n38 tests completed\n"
           "teams: 12  rounds: 22  matches: 132\nblackouts: 1 (Harbour Rovers 2025-10-12) moved to 2025-10-15 (midweek)\n"
           "home/away breaks: 10\n  consecutive HOME: none\nwrote build/fixtures.json")
    r.asst("Added the blackout-date check; done — Harbour Rovers' round-9 match moves to Wednesday 15 October, and the "
           "home-game rule still holds.")
    r.user("Looks right. Please also export it as fixtures-2025-autumn.csv for the secretary.")
    a4 = r.asst("I'll export the fixtures to fixtures-2025-autumn.csv.")
    r.bash("./gradlew -q run --args='export --in build/fixtures.json --format csv --out fixtures-2025-autumn.csv'",
           "wrote fixtures-2025-autumn.csv (132 rows)")
    r.asst("Exported fixtures-2025-autumn.csv (132 rows) — done.")
    r.bash("curl -sS -X POST https://leaguedesk.example.org/api/v2/fixtures -H \"Authorization: Bearer $LEAGUEDESK_TOKEN\" "
           "-F season=2025-autumn -F file=@build/fixtures.json -w '\\nHTTP %{http_code}\\n'",
           "{\"season\":\"2025-autumn\",\"matches\":132,\"published\":true}\nHTTP 201")
    r.asst("Uploaded the final fixtures to the league site; done (HTTP 201, 132 matches published).")
    u4 = r.user("Thanks. Next is the cup draw for 16 entrants. From now on, always seed the two previous finalists into "
                "opposite halves of the bracket.")
    a5 = r.asst("I'll generate the cup bracket for the 16 entrants with the 2024 finalists seeded into opposite halves.")
    r.bash("cat data/cup-entrants.csv | head -5 && grep -i final data/cup-history.csv | tail -1",
           "team,seed\nHarbour Rovers,\nKestrel Athletic,\nMillbrook Town,\nSt Aidan's,\n2024,final,Kestrel Athletic,Old Quay United,2-1")
    s2 = ("I asked you to generate the 2025 autumn fixtures for the Sunday league in leaguedesk (12 teams, double round-robin), "
          "never scheduling a team for two home games in a row.\n\n"
          "You generated the schedule (22 rounds, 132 matches), repaired the breaks so that no team has consecutive home games, "
          "added the blackout check (Harbour Rovers' round-9 match moved to 15 October), and exported fixtures-2025-autumn.csv for the secretary.\n"
          "Still to do: upload the final fixtures to the league site at https://leaguedesk.example.org/api/v2/fixtures.\n\n"
          "Then the cup draw: you will generate the cup bracket for the 16 entrants with the 2024 finalists (Kestrel Athletic, "
          "Old Quay United) seeded into opposite halves.\n"
          "From now on the two previous finalists must always be seeded into opposite halves of the bracket.\n"
          "Files: build/fixtures.json, data/cup-entrants.csv, data/cup-history.csv.")
    q2, _ = r.compact(s2, trigger="manual")
    k = c.comp(q2, "violate")
    k.item("commitment", a3, "upload", "resurrected")
    k.item("commitment", a5, "cup bracket", "retained")
    k.notreq("commitment", a4, "export")
    k.notreq("commitment", a2, "Kestrel")
    k.notreq("commitment", a1, "blackout")
    k.item("constraint", u1, "two home games", "retained")
    k.item("constraint", u4, "opposite halves", "retained")
    k.cons(planner=False, router=True, verifier=True)
    c.none("false_completion")
    return r, c


# ---------------------------------------------------------------------------
# k08  event ticketing seat holds (Elixir), Claude Code layout + TodoWrite, 3 compactions
#   #1 violate: ticket BOX-41 lost although the summary says BOX-414 many times
#   #2 degrade: in-flight `mix test --cover` kept by id; near-duplicate backfill
#      items (staging done, production open) handled correctly
#   #3 violate: "backfill completed" without an environment makes the open
#      production backfill look done
# ---------------------------------------------------------------------------
SWEEPER_EX = '''defmodule Boxoffice.Holds.HoldSweeper do
  @moduledoc """
  Periodically releases seat holds whose release job has not run.
  See BOX-41 for the original hold design.
  """
  use Oban.Worker, queue: :holds, max_attempts: 3

  import Ecto.Query
  alias Boxoffice.Repo
  alias Boxoffice.Holds.{Hold, ReleaseHoldWorker}

  @impl Oban.Worker
  def perform(%Oban.Job{}) do
    now = DateTime.utc_now()

    from(h in Hold,
      join: j in Oban.Job,
      on: fragment("(?->>'hold_id')::bigint", j.args) == h.id,
      where: h.status == :held and j.state == "available" and j.scheduled_at <= ^now,
      select: h.id
    )
    |> Repo.all()
    |> Enum.each(&ReleaseHoldWorker.new(%{hold_id: &1}) |> Oban.insert!())

    :ok
  end
end
'''


@scenario
def k08():
    r = Run("k08_seat_holds_claude", "claude-code", source="claude-code")
    c = Case(r)
    u1 = r.user("Seat holds in boxoffice never expire if the Oban job that releases them crashes — see BOX-414. Fix the "
                "sweeper so expired holds are released even after a crash. Do not change the holds table schema; the "
                "box-office kiosk app reads it directly.")
    todos = [("1", "Reproduce BOX-414 with a crashing release job"),
             ("2", "Make HoldSweeper release every hold whose expires_at has passed"),
             ("3", "Make the release job unique per hold so retries don't double-release"),
             ("4", "Backfill: release holds already stuck in production"),
             ("5", "Backfill: release holds already stuck in staging")]

    def plan(*st):
        return r.plan([(i, t, s) for (i, t), s in zip(todos, st)])
    plan("in_progress", "pending", "pending", "pending", "pending")
    r.tool("Read", {"file_path": "/Users/maya/src/boxoffice/lib/boxoffice/holds/hold_sweeper.ex"}, SWEEPER_EX)
    a1 = r.asst("The sweeper only finds holds whose release job is still `available`; once the job has crashed three "
                "times it is `discarded` and the hold stays `held` forever. BOX-41 is the ticket for the original hold "
                "design. I'll add a comment on BOX-41 pointing at the new sweeper behaviour once the fix is merged.")
    r.tool("Edit", {"file_path": "/Users/maya/src/boxoffice/test/boxoffice/holds/hold_sweeper_test.exs",
                    "old_string": "  describe \"perform/1\" do",
                    "new_string": "  describe \"perform/1\" do\n    test \"releases an expired hold whose release job was discarded\" do\n"
                                  "      hold = insert(:hold, expires_at: minutes_ago(20))\n"
                                  "      insert(:oban_job, worker: ReleaseHoldWorker, args: %{hold_id: hold.id}, state: \"discarded\")\n"
                                  "      assert :ok = perform_job(HoldSweeper, %{})\n"
                                  "      assert Repo.reload!(hold).status == :released\n    end\n"},
           "The file /Users/maya/src/boxoffice/test/boxoffice/holds/hold_sweeper_test.exs has been updated.")
    _, _, e1 = r.bash("cd ~/src/boxoffice && mix test test/boxoffice/holds/hold_sweeper_test.exs:88",
                      "Running ExUnit with seed: 401822, max_cases: 16\nIncluding tags: [location: {\"test/boxoffice/holds/hold_sweeper_test.exs\", 88}]\n\n"
                      "  1) test perform/1 releases an expired hold whose release job was discarded (Boxoffice.Holds.HoldSweeperTest)\n"
                      "     test/boxoffice/holds/hold_sweeper_test.exs:88\n     Assertion with == failed\n"
                      "     code:  assert Repo.reload!(hold).status == :released\n     left:  :held\n     right: :released\n"
                      "     stacktrace:\n       test/boxoffice/holds/hold_sweeper_test.exs:93: (test)\n\n"
                      "Finished in 0.3 seconds (0.00s async, 0.3s sync)\n1 test, 1 failure", is_error=True)
    r.asst("Reproduced BOX-414: with the release job discarded, the expired hold stays `:held`.")
    plan("completed", "in_progress", "pending", "pending", "pending")
    s1 = cc([
        ("Primary Request and Intent",
         "   Fix BOX-414: seat holds in boxoffice never expire when the Oban release job crashes. The sweeper must release\n"
         "   expired holds even after a crash. Do not change the holds table schema (the kiosk app reads it directly)."),
        ("Key Technical Concepts",
         "   - Oban job states: available -> executing -> retryable -> discarded (after max_attempts: 3)\n"
         "   - HoldSweeper joins holds to oban_jobs on args->>'hold_id' and only looks at `available` jobs"),
        ("Files and Code Sections",
         "   - lib/boxoffice/holds/hold_sweeper.ex: query filters `j.state == \"available\"`, so discarded jobs are never swept\n"
         "   - test/boxoffice/holds/hold_sweeper_test.exs:88: new test \"releases an expired hold whose release job was discarded\""),
        ("Errors and fixes",
         "   - The new test fails as expected (left: :held, right: :released) — this is the BOX-414 reproduction, not yet fixed."),
        ("Problem Solving",
         "   Root cause of BOX-414 identified: the sweeper keys on job state instead of the hold's expires_at."),
        ("All user messages",
         "   - \"Seat holds in boxoffice never expire if the Oban job that releases them crashes — see BOX-414. Fix the sweeper "
         "so expired holds are released even after a crash. Do not change the holds table schema; the box-office kiosk app "
         "reads it directly.\""),
        ("Pending Tasks",
         "   - [in progress] Make HoldSweeper release every hold whose expires_at has passed\n"
         "   - Make the release job unique per hold so retries don't double-release\n"
         "   - Backfill: release holds already stuck in production\n"
         "   - Backfill: release holds already stuck in staging\n"
         "   - Add a comment on the original hold-design ticket pointing at the new sweeper behaviour once the BOX-414 fix is merged"),
        ("Current Work",
         "   Just reproduced BOX-414 with the discarded-job test; about to change the sweeper query to use expires_at."),
        ("Optional Next Step",
         "   Rewrite the HoldSweeper query to select holds with `status == :held and expires_at <= ^now`, then rerun\n"
         "   `mix test test/boxoffice/holds/hold_sweeper_test.exs:88`."),
    ])
    q1, _ = r.compact(s1)
    k = c.comp(q1, "violate")
    k.item("identifier", None, "BOX-41", ["dropped"])
    k.item("commitment", a1, "pointing at the new sweeper", "retained")
    k.item("commitment", None, "expires_at has passed", "retained")
    k.item("commitment", None, "double-release", "retained")
    k.item("commitment", None, "stuck in production", "retained")
    k.item("commitment", None, "stuck in staging", "retained")
    k.item("error", e1, "", "retained")
    k.item("constraint", u1, "schema", "retained")
    k.cons(planner=True, router=True, verifier=True)

    r.tool("Edit", {"file_path": "/Users/maya/src/boxoffice/lib/boxoffice/holds/hold_sweeper.ex",
                    "old_string": "    from(h in Hold,\n      join: j in Oban.Job,\n      on: fragment(\"(?->>'hold_id')::bigint\", j.args) == h.id,\n"
                                  "      where: h.status == :held and j.state == \"available\" and j.scheduled_at <= ^now,\n      select: h.id\n    )\n"
                                  "    |> Repo.all()\n    |> Enum.each(&ReleaseHoldWorker.new(%{hold_id: &1}) |> Oban.insert!())",
                    "new_string": "    from(h in Hold, where: h.status == :held and h.expires_at <= ^now)\n"
                                  "    |> Repo.update_all(set: [status: :released, released_at: now])"},
           "The file /Users/maya/src/boxoffice/lib/boxoffice/holds/hold_sweeper.ex has been updated.")
    r.bash("cd ~/src/boxoffice && mix test test/boxoffice/holds/hold_sweeper_test.exs:88",
           "Running ExUnit with seed: 99120, max_cases: 16\n.\nFinished in 0.2 seconds (0.00s async, 0.2s sync)\n1 test, 0 failures")
    plan("completed", "completed", "in_progress", "pending", "pending")
    r.tool("Edit", {"file_path": "/Users/maya/src/boxoffice/lib/boxoffice/holds/release_hold_worker.ex",
                    "old_string": "  use Oban.Worker, queue: :holds, max_attempts: 3",
                    "new_string": "  use Oban.Worker, queue: :holds, max_attempts: 3, unique: [period: 300, keys: [:hold_id]]"},
           "The file /Users/maya/src/boxoffice/lib/boxoffice/holds/release_hold_worker.ex has been updated.")
    r.bash("cd ~/src/boxoffice && mix test test/boxoffice/holds/",
           "Running ExUnit with seed: 18777, max_cases: 16\n...............\nFinished in 0.9 seconds (0.1s async, 0.8s sync)\n15 tests, 0 failures")
    plan("completed", "completed", "completed", "pending", "in_progress")
    r.bash("cd ~/src/boxoffice && MIX_ENV=staging mix boxoffice.release_stuck_holds --confirm",
           "Connecting to boxoffice_staging...\nFound 37 holds with status=held and expires_at in the past (oldest 2025-02-11T18:04:10Z)\n"
           "Released 37 holds.")
    plan("completed", "completed", "completed", "pending", "completed")
    r.asst("Staging backfill done: released 37 stuck holds.")
    u2 = r.user("Don't run the production backfill yourself. Prepare the exact command; the on-call SRE runs it in the "
                "Thursday maintenance window.")
    r.asst("Understood. The production item stays open until the SRE has run it. Running the whole suite with coverage "
           "first, since the sweeper query changed.")
    h, _ = r.call("Bash", {"command": "cd ~/src/boxoffice && mix test --cover", "timeout": 600000})
    s2 = cc([
        ("Primary Request and Intent",
         "   Fix BOX-414 (holds never expire when the Oban release job crashes) without changing the holds table schema."),
        ("Files and Code Sections",
         "   - lib/boxoffice/holds/hold_sweeper.ex: now releases every `:held` hold with `expires_at <= now` via update_all\n"
         "   - lib/boxoffice/holds/release_hold_worker.ex: `unique: [period: 300, keys: [:hold_id]]`"),
        ("Errors and fixes",
         "   - Discarded-job reproduction test (hold_sweeper_test.exs:88) fixed by the new query."),
        ("All user messages",
         "   - \"Seat holds in boxoffice never expire if the Oban job that releases them crashes — see BOX-414. Fix the sweeper "
         "so expired holds are released even after a crash. Do not change the holds table schema; the box-office kiosk app "
         "reads it directly.\"\n"
         "   - \"Don't run the production backfill yourself. Prepare the exact command; the on-call SRE runs it in the "
         "Thursday maintenance window.\""),
        ("Pending Tasks",
         "   - Backfill: release holds already stuck in production — prepare the exact command for the on-call SRE\n"
         "     (Thursday window); do not run it yourself\n"
         "   - Add a comment on BOX-41 pointing at the new sweeper behaviour once the fix is merged"),
        ("Current Work",
         "   Staging backfill released 37 stuck holds. Running the full suite with coverage:\n"
         "   `cd ~/src/boxoffice && mix test --cover`,\n"
         "   tool call %s, still running; its result has not arrived." % h),
        ("Optional Next Step",
         "   Read the coverage run's result, then commit on fix/box-414-sweeper and open a PR."),
    ])
    q2, _ = r.compact(s2)
    r.result(h, "Running ExUnit with seed: 5120, max_cases: 16\n" + "." * 212 +
             "\nFinished in 41.2 seconds (6.3s async, 34.9s sync)\n212 tests, 0 failures\n\n"
             "Percentage | Module\n-----------|--------------------------\n   100.00% | Boxoffice.Holds.HoldSweeper\n"
             "    94.12% | Boxoffice.Holds.ReleaseHoldWorker\n-----------|--------------------------\n    87.40% | Total")
    k = c.comp(q2, "degrade")
    k.item("handle", None, h, "retained")
    k.item("commitment", None, "stuck in production", "retained")
    k.notreq("commitment", None, "stuck in staging")
    k.notreq("commitment", None, "double-release")
    k.item("commitment", a1, "pointing at the new sweeper", "retained")
    k.item("identifier", None, "BOX-41", "retained")
    k.item("constraint", u1, "schema", "retained")
    k.item("constraint", u2, "production backfill", "retained")
    k.notreq("error", e1, "")
    k.cons(planner=True, router=True, verifier=True)

    r.bash("cd ~/src/boxoffice && git checkout -qb fix/box-414-sweeper && git commit -qam 'Sweep expired holds by expires_at (BOX-414)' "
           "&& git push -qu origin fix/box-414-sweeper && gh pr create --fill",
           "https://github.com/boxoffice/boxoffice/pull/1290")
    r.asst("Opened PR #1290 from fix/box-414-sweeper. Posting the production backfill command on the PR for the SRE.")
    r.bash("cd ~/src/boxoffice && gh pr comment 1290 --body 'Production backfill for the Thursday window: "
           "`MIX_ENV=prod mix boxoffice.release_stuck_holds --confirm` (dry run on the 03-10 snapshot found 212 stuck holds)'",
           "https://github.com/boxoffice/boxoffice/pull/1290#issuecomment-2710444")
    r.asst("Posted the command on PR #1290 — done.")
    s3 = cc([
        ("Primary Request and Intent",
         "   Fix BOX-414 so expired seat holds are released even after the Oban release job crashes; holds table schema unchanged."),
        ("Files and Code Sections",
         "   - lib/boxoffice/holds/hold_sweeper.ex (expires_at-based sweep), lib/boxoffice/holds/release_hold_worker.ex (unique jobs)"),
        ("Errors and fixes",
         "   - None open. Full suite: 212 tests, 0 failures, 87.4% coverage."),
        ("Problem Solving",
         "   Stuck-hold backfill completed: 37 holds released. The sweeper now keys on expires_at, so a crashed job can no\n"
         "   longer strand a hold."),
        ("All user messages",
         "   - \"Seat holds in boxoffice never expire if the Oban job that releases them crashes — see BOX-414. Fix the sweeper "
         "so expired holds are released even after a crash. Do not change the holds table schema; the box-office kiosk app "
         "reads it directly.\"\n"
         "   - \"Don't run the production backfill yourself. Prepare the exact command; the on-call SRE runs it in the "
         "Thursday maintenance window.\""),
        ("Pending Tasks",
         "   - Add a comment on BOX-41 pointing at the new sweeper behaviour once PR #1290 is merged"),
        ("Current Work",
         "   PR #1290 (fix/box-414-sweeper) is open and green; the backfill command is posted on it."),
        ("Optional Next Step",
         "   Wait for review on PR #1290."),
    ])
    q3, _ = r.compact(s3)
    k = c.comp(q3, "violate")
    k.item("commitment", None, "stuck in production", ["flipped", "dropped", "weak"])
    k.notreq("commitment", None, "stuck in staging")
    k.item("commitment", a1, "pointing at the new sweeper", "retained")
    k.item("identifier", None, "BOX-41", "retained")
    k.item("constraint", u1, "schema", "retained")
    k.item("constraint", u2, "production backfill", "retained")
    k.cons(planner=False, router=True, verifier=True)
    c.none("orphaned_result")
    c.none("false_completion")
    return r, c


# ---------------------------------------------------------------------------
# k09  recipe scaling (Ruby), opencode v1 markdown (Goal / Instructions /
#      Discoveries / Accomplished with Done / In progress / Left), 2 compactions
#   #1 degrade: three statuses inside one "Accomplished" section
#   #2 violate: untouched commitment listed under "Done" (flipped), then
#      claimed done with no work (false completion) before it is really done
# ---------------------------------------------------------------------------
SCALE_RB = '''# frozen_string_literal: true

module Mise
  # A quantity with a unit, e.g. 1/3 cup or 250 g.
  class Quantity
    attr_reader :amount, :unit

    def initialize(amount, unit)
      @amount = amount.to_f
      @unit = Unit.fetch(unit)
    end

    def *(factor)
      Quantity.new(amount * factor.to_f, unit)
    end

    def to(other_unit, ingredient: nil)
      Convert.call(self, Unit.fetch(other_unit), ingredient: ingredient)
    end

    def to_s
      Format.quantity(self)
    end
  end

  module Scale
    module_function

    def recipe(recipe, servings:)
      factor = servings.to_f / recipe.servings
      recipe.with_ingredients(recipe.ingredients.map { |i| i.with_quantity(i.quantity * factor) })
    end
  end
end
'''


@scenario
def k09():
    r = Run("k09_recipe_scaler_opencode", "opencode", source="opencode", idstyle="call")
    c = Case(r)
    u1 = r.user("mise's recipe scaler turns 1/3 cup × 3 into 0.99 cups. Use exact rational arithmetic for volumes. "
                "Never convert grams of flour to cups without a density entry; raise an error instead of guessing.")
    r.tool("read", {"filePath": "/home/ines/mise/lib/mise/scale.rb"}, SCALE_RB)
    a1 = r.asst("Quantities are Floats all the way down, which is where 0.99 comes from. "
                "I'll switch Quantity#amount to Rational in lib/mise/scale.rb. "
                "I'll make the formatter render 3/2 cup as '1 ½ cups'. "
                "I'll add a DensityMissing error for mass-to-volume conversions without a density.")
    r.tool("edit", {"filePath": "/home/ines/mise/lib/mise/scale.rb",
                    "oldString": "      @amount = amount.to_f", "newString": "      @amount = amount.is_a?(Rational) ? amount : Rational(amount.to_s)"},
           "Edit applied successfully.")
    r.tool("edit", {"filePath": "/home/ines/mise/lib/mise/scale.rb",
                    "oldString": "      Quantity.new(amount * factor.to_f, unit)", "newString": "      Quantity.new(amount * Rational(factor.to_s), unit)"},
           "Edit applied successfully.")
    r.bash("bundle exec rspec spec/scale_spec.rb",
           "..........\n\nFinished in 0.02114 seconds (files took 0.18 seconds to load)\n10 examples, 0 failures", name="bash")
    r.asst("Switched Quantity#amount to Rational; done — 1/3 cup × 3 is exactly 1 cup now.")
    _, _, e1 = r.bash("bundle exec rspec",
                      "...........F.......................\n\nFailures:\n\n"
                      "  1) Mise::Format.quantity renders improper fractions as mixed numbers\n"
                      "     Failure/Error: expect(described_class.quantity(q(Rational(3, 2), :cup))).to eq(\"1 ½ cups\")\n\n"
                      "       expected: \"1 ½ cups\"\n            got: \"3/2 cups\"\n\n       (compared using ==)\n"
                      "     # ./spec/format_spec.rb:27:in `block (2 levels) in <top (required)>'\n\n"
                      "Finished in 0.04 seconds (files took 0.19 seconds to load)\n36 examples, 1 failure\n\n"
                      "Failed examples:\n\nrspec ./spec/format_spec.rb:27 # Mise::Format.quantity renders improper fractions as mixed numbers",
                      is_error=True, name="bash")
    r.asst("The formatter prints the raw Rational. Working on mixed numbers in lib/mise/format.rb.")
    r.tool("read", {"filePath": "/home/ines/mise/lib/mise/format.rb"},
           "module Mise\n  module Format\n    VULGAR = { Rational(1, 2) => \"½\", Rational(1, 3) => \"⅓\", Rational(2, 3) => \"⅔\",\n"
           "               Rational(1, 4) => \"¼\", Rational(3, 4) => \"¾\", Rational(1, 8) => \"⅛\" }.freeze\n\n"
           "    module_function\n\n    def quantity(q)\n      \"#{q.amount} #{q.unit.plural(q.amount)}\"\n    end\n  end\nend\n")
    s1 = md([
        ("## Goal", "Fix mise's recipe scaler rounding (1/3 cup × 3 gave 0.99 cups) by using exact Rational arithmetic for volumes."),
        ("## Instructions", "- Never convert grams of flour to cups without a density entry; raise an error instead of guessing."),
        ("## Discoveries", "- Quantities were Floats everywhere; Rational fixes the 1/3 × 3 case.\n"
                           "- `bundle exec rspec`: spec/format_spec.rb:27 fails — expected \"1 ½ cups\", got \"3/2 cups\" "
                           "(Format.quantity interpolates the raw Rational).\n"
                           "- Format::VULGAR already maps ½ ⅓ ⅔ ¼ ¾ ⅛."),
        ("## Accomplished", "- Done: Quantity#amount is a Rational (lib/mise/scale.rb); spec/scale_spec.rb passes.\n"
                            "- In progress: the formatter renders 3/2 cup as \"1 ½ cups\" (mixed numbers) — "
                            "format_spec.rb:27 still failing.\n"
                            "- Left: add a DensityMissing error for mass-to-volume conversions without a density."),
        ("## Relevant files / directories", "- lib/mise/scale.rb\n- lib/mise/format.rb\n- lib/mise/convert.rb\n- spec/format_spec.rb"),
    ])
    q1, _ = r.compact(s1)
    k = c.comp(q1, "degrade")
    k.item("commitment", a1, "formatter", "retained")
    k.item("commitment", a1, "DensityMissing", "retained")
    k.item("error", e1, "", "retained")
    k.notreq("commitment", a1, "Rational")
    k.item("constraint", u1, "density entry", "retained")
    k.cons(planner=True, router=True, verifier=True)

    r.tool("edit", {"filePath": "/home/ines/mise/lib/mise/format.rb",
                    "oldString": "      \"#{q.amount} #{q.unit.plural(q.amount)}\"",
                    "newString": "      whole, frac = q.amount.divmod(1)\n      text = [whole.zero? ? nil : whole.to_i, VULGAR.fetch(frac, frac.zero? ? nil : frac)].compact.join(\" \")\n"
                                 "      \"#{text} #{q.unit.plural(q.amount)}\""},
           "Edit applied successfully.")
    r.bash("bundle exec rspec",
           "...................................\n\nFinished in 0.04 seconds (files took 0.18 seconds to load)\n36 examples, 0 failures",
           name="bash")
    r.asst("Done: the formatter renders mixed numbers, so 3/2 cup prints as '1 ½ cups'. The full suite passes (36).")
    r.asst("Starting on DensityMissing next, in lib/mise/convert.rb.")
    u2 = r.user("Before that: treat 'a pinch' and 'to taste' as quantities that don't scale.")
    a2 = r.asst("Makes sense. I'll pass 'a pinch' and 'to taste' through the scaler unchanged. "
                "I'll add a density table for flour, sugar and butter after that.")
    r.tool("read", {"filePath": "/home/ines/mise/lib/mise/parse.rb"},
           "module Mise\n  module Parse\n    QTY = %r{\\A(?<amount>\\d+(?:[ -]\\d+/\\d+)?|\\d+/\\d+|\\d*\\.\\d+)\\s*(?<unit>[a-z]+)?\\s+(?<name>.+)\\z}i\n\n"
           "    module_function\n\n    def line(text)\n      m = QTY.match(text.strip) or raise ParseError, \"cannot parse #{text.inspect}\"\n"
           "      Ingredient.new(m[:name], Quantity.new(m[:amount], m[:unit] || :each))\n    end\n  end\nend\n")
    s2 = md([
        ("## Goal", "Exact recipe scaling in mise: Rational volumes, readable mixed numbers, safe mass/volume conversions."),
        ("## Instructions", "- Never convert grams of flour to cups without a density entry; raise an error instead of guessing."),
        ("## Discoveries", "- Parse::QTY requires a numeric amount, so 'a pinch' and 'to taste' raise ParseError today."),
        ("## Accomplished", "- Done: Rational quantities (1/3 cup × 3 = 1 cup); mixed-number formatting (\"1 ½ cups\", 36 examples "
                            "pass); DensityMissing error for mass-to-volume conversions without a density.\n"
                            "- Left: pass 'a pinch' and 'to taste' through the scaler unchanged; add a density table for "
                            "flour, sugar and butter."),
        ("## Relevant files / directories", "- lib/mise/parse.rb\n- lib/mise/convert.rb\n- lib/mise/format.rb"),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "violate")
    k.item("commitment", a1, "DensityMissing", "flipped")
    k.item("commitment", a2, "a pinch", "retained")
    k.item("commitment", a2, "density table", "retained")
    k.notreq("commitment", a1, "formatter")
    k.notreq("error", e1, "")
    k.item("constraint", u1, "density entry", "retained")
    k.cons(planner=False, router=True, verifier=True)

    r.tool("edit", {"filePath": "/home/ines/mise/lib/mise/parse.rb",
                    "oldString": "    def line(text)\n",
                    "newString": "    UNSCALED = [\"a pinch\", \"to taste\"].freeze\n\n    def line(text)\n"
                                 "      return Ingredient.unscaled(text) if UNSCALED.any? { |u| text.downcase.include?(u) }\n"},
           "Edit applied successfully.")
    r.bash("bundle exec rspec", "......................................\n\nFinished in 0.05 seconds\n38 examples, 0 failures", name="bash")
    r.asst("'a pinch' and 'to taste' now pass through the scaler unchanged — done, 38 examples pass.")
    fc = r.asst("Status: Rational scaling, mixed-number output and unscaled pinches are in, and mass-to-volume conversions "
                "without a density now raise DensityMissing — done. Next is the density table.")
    r.user("I still get 2.08 cups for 250 g flour with no density entry. Nothing raised.")
    r.tool("edit", {"filePath": "/home/ines/mise/lib/mise/convert.rb",
                    "oldString": "      density = DENSITY.fetch(ingredient, 1.0) # water",
                    "newString": "      density = DENSITY.fetch(ingredient) { raise DensityMissing, \"no density for #{ingredient}\" }"},
           "Edit applied successfully.")
    r.bash("bundle exec rspec", "........................................\n\nFinished in 0.05 seconds\n40 examples, 0 failures", name="bash")
    r.asst("You're right, that was never written. Added DensityMissing: converting grams to cups without a density entry "
           "now raises instead of assuming water — done, with two new examples (40 pass).")
    c.finding("false_completion", fc)
    return r, c


# ---------------------------------------------------------------------------
# k10  CAD mesh repair (C++), Gemini snapshot with <active_constraints> and
#      <task_state>, 2 compactions
#   #1 degrade: in-flight ctest kept by id; resolved build error omitted;
#      the in-progress task is described twice
#   #2 violate: "re-run the watertight check on the decimated outputs" lost,
#      while the closed "run the watertight check on every file" is [DONE]
# ---------------------------------------------------------------------------
EARCLIP_CPP = '''#include "fill/ear_clip.hpp"

#include <algorithm>
#include <vector>

#include "geom/vec3.hpp"

namespace meshmend::fill {

// Triangulate a boundary loop by ear clipping in the loop's best-fit plane.
std::vector<Tri> ear_clip(const Mesh& m, const Loop& loop) {
  std::vector<Tri> out;
  std::vector<VertexId> ring(loop.begin(), loop.end());
  const Vec3 n = best_fit_normal(m, ring);
  while (ring.size() > 3) {
    bool clipped = false;
    for (size_t i = 0; i < ring.size(); ++i) {
      const auto a = ring[(i + ring.size() - 1) % ring.size()];
      const auto b = ring[i];
      const auto c = ring[(i + 1) % ring.size()];
      if (!is_convex(m, a, b, c, n)) continue;
      if (contains_any(m, a, b, c, ring)) continue;
      out.push_back({a, b, c});        // winding taken from ring order
      ring.erase(ring.begin() + i);
      clipped = true;
      break;
    }
    if (!clipped) break;  // degenerate loop
  }
  if (ring.size() == 3) out.push_back({ring[0], ring[1], ring[2]});
  return out;
}

}  // namespace meshmend::fill
'''


@scenario
def k10():
    r = Run("k10_mesh_hole_fill_gemini", "gemini-cli", source="gemini-cli", idstyle="gemini")
    c = Case(r)
    u1 = r.user("meshmend's hole filler produces flipped normals on concave holes. Fix it, and make sure the watertight "
                "check passes on every file in samples/scan/. Do not add Boost as a dependency.")
    steps = [("a", "Reproduce flipped normals on samples/scan/bracket_concave.stl"),
             ("b", "Orient fill triangles consistently with the boundary loop"),
             ("c", "Run the watertight check on every file in samples/scan/"),
             ("d", "Add a regression test for concave holes")]

    def plan(*st):
        return r.plan([(i, t, s) for (i, t), s in zip(steps, st)])
    plan("in_progress", "pending", "pending", "pending")
    r.tool("read_file", {"absolute_path": "/src/meshmend/src/fill/ear_clip.cpp"}, EARCLIP_CPP)
    r.bash("./build/meshmend fill samples/scan/bracket_concave.stl -o /tmp/bracket_filled.stl && ./build/meshcheck normals /tmp/bracket_filled.stl",
           "filled 3 holes (41 triangles)\nnormals: 14 faces inconsistent with neighbours (all in hole #2)", name="run_shell_command")
    r.asst("Reproduced: hole #2 is concave and 14 of its fill triangles point inwards. The winding comes from ring "
           "order, which is wrong when the loop runs clockwise around the fitted normal.")
    plan("completed", "in_progress", "pending", "pending")
    r.tool("replace", {"file_path": "/src/meshmend/src/fill/ear_clip.cpp",
                       "old_string": "#include \"geom/vec3.hpp\"",
                       "new_string": "#include \"geom/vec3.hpp\"\n#include <boost/geometry.hpp>"},
           "Successfully modified file: /src/meshmend/src/fill/ear_clip.cpp (1 replacements).")
    _, _, e1 = r.bash("cmake --build build -j8",
                      "[ 12%] Building CXX object src/CMakeFiles/meshmend_core.dir/fill/ear_clip.cpp.o\n"
                      "/src/meshmend/src/fill/ear_clip.cpp:7:10: fatal error: boost/geometry.hpp: No such file or directory\n"
                      "    7 | #include <boost/geometry.hpp>\n      |          ^~~~~~~~~~~~~~~~~~~~~\ncompilation terminated.\n"
                      "gmake[2]: *** [src/CMakeFiles/meshmend_core.dir/build.make:90: src/CMakeFiles/meshmend_core.dir/fill/ear_clip.cpp.o] Error 1\n"
                      "gmake: *** [Makefile:91: all] Error 2", is_error=True, name="run_shell_command")
    r.asst("Boost isn't installed, and it's off-limits anyway. Replacing the polygon-orientation call with a plain "
           "signed-area test against the fitted normal.")
    r.tool("replace", {"file_path": "/src/meshmend/src/fill/ear_clip.cpp",
                       "old_string": "#include \"geom/vec3.hpp\"\n#include <boost/geometry.hpp>",
                       "new_string": "#include \"geom/vec3.hpp\""},
           "Successfully modified file: /src/meshmend/src/fill/ear_clip.cpp (1 replacements).")
    r.tool("replace", {"file_path": "/src/meshmend/src/fill/ear_clip.cpp",
                       "old_string": "  const Vec3 n = best_fit_normal(m, ring);",
                       "new_string": "  const Vec3 n = best_fit_normal(m, ring);\n  if (signed_area(m, ring, n) < 0) std::reverse(ring.begin(), ring.end());"},
           "Successfully modified file: /src/meshmend/src/fill/ear_clip.cpp (1 replacements).")
    r.bash("cmake --build build -j8",
           "[ 12%] Building CXX object src/CMakeFiles/meshmend_core.dir/fill/ear_clip.cpp.o\n[ 48%] Linking CXX static library libmeshmend_core.a\n"
           "[ 71%] Built target meshmend_core\n[100%] Built target meshmend\n[100%] Built target meshcheck", name="run_shell_command")
    h, _ = r.call("run_shell_command", {"command": "ctest --test-dir build -R watertight --output-on-failure"})
    r.asst("While ctest runs: the loop is now reversed when its signed area is negative, so every fill triangle follows "
           "the outward winding of the surrounding faces.")
    s1 = snapshot([
        ("overall_goal", "Fix flipped normals from meshmend's hole filler on concave holes; the watertight check must pass on every file in samples/scan/."),
        ("active_constraints", "- Make sure the watertight check passes on every file in samples/scan/.\n- Do not add Boost as a dependency."),
        ("key_knowledge", "- Cause: ear clipping takes winding from ring order; clockwise loops produce inward triangles.\n"
                          "- Fix approach: reverse the ring when `signed_area(m, ring, n) < 0` (no Boost; an include of "
                          "boost/geometry.hpp broke the build and was removed)."),
        ("file_system_state", "- MODIFIED: src/fill/ear_clip.cpp\n- Build: cmake --build build -j8 succeeds"),
        ("recent_actions", "- Reproduced 14 inconsistent faces in hole #2 of samples/scan/bracket_concave.stl.\n"
                           "- Orientation fix in src/fill/ear_clip.cpp compiles; verifying it now.\n"
                           "- ctest started and still running: call %s (`ctest --test-dir build -R watertight --output-on-failure`)." % h),
        ("task_state", "1. [DONE] Reproduce flipped normals on samples/scan/bracket_concave.stl\n"
                       "2. [IN PROGRESS] Orient fill triangles consistently with the boundary loop\n"
                       "3. [TODO] Run the watertight check on every file in samples/scan/\n"
                       "4. [TODO] Add a regression test for concave holes"),
    ])
    q1, _ = r.compact(s1)
    r.result(h, "Test project /src/meshmend/build\n    Start 4: watertight_cube\n1/3 Test #4: watertight_cube ...............   Passed    0.04 sec\n"
                "    Start 5: watertight_torus\n2/3 Test #5: watertight_torus ..............   Passed    0.11 sec\n"
                "    Start 6: watertight_bracket\n3/3 Test #6: watertight_bracket ............   Passed    0.37 sec\n\n"
                "100% tests passed, 0 tests failed out of 3\n\nTotal Test time (real) =   0.54 sec")
    k = c.comp(q1, "degrade")
    k.item("handle", None, h, "retained")
    k.item("commitment", None, "Orient fill triangles", "retained")
    k.item("commitment", None, "every file in samples/scan/", "retained")
    k.item("commitment", None, "regression test", "retained")
    k.notreq("commitment", None, "Reproduce flipped normals")
    k.notreq("error", e1, "")
    k.item("constraint", u1, "watertight", "retained")
    k.item("constraint", u1, "Boost", "retained")
    k.item("identifier", None, "samples/scan/", "retained")
    k.cons(planner=True, router=True, verifier=True)

    plan("completed", "completed", "pending", "in_progress")
    r.tool("write_file", {"file_path": "/src/meshmend/tests/fill_concave_test.cpp", "content":
                          "#include <gtest/gtest.h>\n#include \"fill/ear_clip.hpp\"\n\nTEST(FillConcave, NormalsFollowSurroundingFaces) {\n"
                          "  auto m = load_stl(\"samples/scan/bracket_concave.stl\");\n  auto filled = fill_holes(m);\n"
                          "  EXPECT_EQ(count_inconsistent_normals(filled), 0);\n}\n"},
           "Successfully created and wrote to new file: /src/meshmend/tests/fill_concave_test.cpp.")
    r.bash("cmake --build build -j8 && ctest --test-dir build -R fill_concave --output-on-failure",
           "[100%] Built target fill_concave_test\nTest project /src/meshmend/build\n    Start 9: fill_concave\n"
           "1/1 Test #9: fill_concave .....................   Passed    0.29 sec\n\n100% tests passed, 0 tests failed out of 1",
           name="run_shell_command")
    plan("completed", "completed", "in_progress", "completed")
    r.bash("for f in samples/scan/*.stl; do ./build/meshmend fill \"$f\" -o \"/tmp/filled/$(basename \"$f\")\" >/dev/null && "
           "./build/meshcheck watertight \"/tmp/filled/$(basename \"$f\")\"; done | sort | uniq -c",
           "     12 watertight: yes", name="run_shell_command")
    plan("completed", "completed", "completed", "completed")
    r.asst("All 12 files in samples/scan/ are watertight after filling, and the concave-hole regression test passes.")
    u2 = r.user("Nice. The viewer chokes on big meshes, so decimate the outputs to under 50k triangles.")
    a1 = r.asst("Decimation can open new holes if an edge collapse hits a boundary, so that needs checking too. "
                "I'll add a --max-triangles option that runs quadric decimation after hole filling. "
                "I'll re-run the watertight check on the decimated outputs as well.")
    r.tool("read_file", {"absolute_path": "/src/meshmend/src/cli/main.cpp"},
           "#include <CLI/CLI.hpp>\n#include \"fill/fill.hpp\"\n#include \"io/stl.hpp\"\n\nint main(int argc, char** argv) {\n"
           "  CLI::App app{\"meshmend\"};\n  auto* fill = app.add_subcommand(\"fill\", \"fill holes in a mesh\");\n"
           "  std::string in, out;\n  fill->add_option(\"input\", in)->required();\n  fill->add_option(\"-o,--output\", out)->required();\n"
           "  CLI11_PARSE(app, argc, argv);\n  auto m = meshmend::io::load_stl(in);\n  meshmend::fill::fill_holes(m);\n"
           "  meshmend::io::save_stl(m, out);\n  return 0;\n}\n")
    s2 = snapshot([
        ("overall_goal", "meshmend: correct normals on concave hole fills, watertight outputs, and decimation to under 50k triangles for the viewer."),
        ("active_constraints", "- Make sure the watertight check passes on every file in samples/scan/.\n- Do not add Boost as a dependency."),
        ("key_knowledge", "- Ring reversal on negative signed area fixed the inward triangles.\n"
                          "- CLI uses CLI11; the `fill` subcommand lives in src/cli/main.cpp."),
        ("file_system_state", "- MODIFIED: src/fill/ear_clip.cpp\n- CREATED: tests/fill_concave_test.cpp\n- READ: src/cli/main.cpp"),
        ("recent_actions", "- fill_concave test passes; ctest watertight tests pass (3/3).\n"
                           "- 12/12 files in samples/scan/ are watertight after filling."),
        ("task_state", "1. [DONE] Reproduce flipped normals on samples/scan/bracket_concave.stl\n"
                       "2. [DONE] Orient fill triangles consistently with the boundary loop\n"
                       "3. [DONE] Run the watertight check on every file in samples/scan/ (12/12 watertight)\n"
                       "4. [DONE] Add a regression test for concave holes\n"
                       "5. [TODO] Add a --max-triangles option that runs quadric decimation after hole filling"),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "violate")
    k.item("commitment", a1, "decimated outputs", ["dropped", "weak"])
    k.item("commitment", a1, "--max-triangles", "retained")
    k.notreq("commitment", None, "every file in samples/scan/")
    k.notreq("commitment", None, "regression test")
    k.item("constraint", u1, "watertight", "retained")
    k.item("constraint", u1, "Boost", "retained")
    k.cons(planner=False, router=True, verifier=True)
    c.none("orphaned_result")
    return r, c


# ---------------------------------------------------------------------------
# k11  photo deduplication (Go), Claude Code layout, 3 compactions
#   #1 degrade: failing test reported through "exit status 1" in a result not
#      flagged is_error; a path kept only as its trailing segment (flags.go)
#   #2 violate: commit SHA lost (another SHA sharing a prefix is mentioned);
#      fulfilled dry run quoted in "All user messages" (not resurrected)
#   #3 violate: the standing "never delete files" rule lost at the third
#      compaction after surviving two
# ---------------------------------------------------------------------------
MATCH_GO = '''package match

import (
	"math/bits"
	"sort"

	"dupsnap/internal/catalog"
)

// DefaultMaxDistance is the largest pHash Hamming distance treated as a duplicate.
var DefaultMaxDistance = 6

type Group struct {
	Keep  catalog.Photo
	Dupes []catalog.Photo
}

// Groups clusters photos whose perceptual hashes are within maxDist bits.
func Groups(photos []catalog.Photo, maxDist int) []Group {
	sort.Slice(photos, func(i, j int) bool { return photos[i].Path < photos[j].Path })
	used := make([]bool, len(photos))
	var out []Group
	for i := range photos {
		if used[i] {
			continue
		}
		g := Group{Keep: photos[i]}
		for j := i + 1; j < len(photos); j++ {
			if used[j] {
				continue
			}
			if bits.OnesCount64(photos[i].PHash^photos[j].PHash) <= maxDist {
				g.Dupes = append(g.Dupes, photos[j])
				used[j] = true
			}
		}
		if len(g.Dupes) > 0 {
			out = append(out, g)
		}
	}
	return out
}
'''


@scenario
def k11():
    r = Run("k11_photo_dedupe_claude", "claude-code", source="claude-code")
    c = Case(r)
    u1 = r.user("dupsnap marks burst photos as duplicates of each other. Only treat two images as duplicates when the "
                "pHash distance is at most 4 and their EXIF capture times are more than 2 seconds apart. Never delete "
                "files; only move them to the _dupes folder.")
    r.tool("Read", {"file_path": "/Users/ko/dev/dupsnap/internal/match/match.go"}, MATCH_GO)
    a1 = r.asst("Grouping looks only at the hash distance, and the default of 6 is loose enough to catch burst frames. "
                "I'll add the capture-time check in internal/match/match.go. "
                "I'll lower the default distance threshold from 6 to 4 in cmd/dupsnap/flags.go.")
    r.tool("Write", {"file_path": "/Users/ko/dev/dupsnap/internal/match/burst_test.go", "content":
                     "package match\n\nfunc TestBurstNotDuplicate(t *testing.T) {\n\tbase := time.Date(2023, 7, 14, 18, 2, 11, 0, time.UTC)\n"
                     "\tphotos := []catalog.Photo{\n\t\t{Path: \"IMG_2201.HEIC\", PHash: 0xF0F0_0F0F_AA55_1234, TakenAt: base},\n"
                     "\t\t{Path: \"IMG_2202.HEIC\", PHash: 0xF0F0_0F0F_AA55_1236, TakenAt: base.Add(300 * time.Millisecond)},\n\t}\n"
                     "\tif g := Groups(photos, 4); len(g) != 0 {\n\t\tt.Fatalf(\"burst frames grouped as duplicates: %v\", g)\n\t}\n}\n"},
           "File created successfully at: /Users/ko/dev/dupsnap/internal/match/burst_test.go")
    _, _, e1 = r.bash("go test ./...",
                      "ok  \tdupsnap/internal/catalog\t0.011s\n--- FAIL: TestBurstNotDuplicate (0.00s)\n"
                      "    burst_test.go:31: burst frames grouped as duplicates: [{IMG_2201.HEIC [IMG_2202.HEIC]}]\n"
                      "FAIL\nexit status 1\nFAIL\tdupsnap/internal/match\t0.019s\nok  \tdupsnap/internal/scan\t0.034s\nFAIL",
                      is_error=False)
    r.asst("TestBurstNotDuplicate fails as intended: the two burst frames 300 ms apart are grouped.")
    s1 = cc([
        ("Primary Request and Intent",
         "   dupsnap groups burst photos as duplicates. Duplicates must satisfy both: pHash distance <= 4 and EXIF capture\n"
         "   times more than 2 seconds apart. Never delete files; only move them to the _dupes folder."),
        ("Key Technical Concepts",
         "   - match.Groups clusters by Hamming distance of 64-bit pHashes only\n   - catalog.Photo has TakenAt (EXIF DateTimeOriginal)"),
        ("Files and Code Sections",
         "   - internal/match/match.go: `DefaultMaxDistance = 6`, `Groups(photos, maxDist)`\n"
         "   - internal/match/burst_test.go: new TestBurstNotDuplicate (frames 300 ms apart must not group)"),
        ("Errors and fixes",
         "   - `go test ./...` reports FAIL / exit status 1 in dupsnap/internal/match: TestBurstNotDuplicate\n"
         "     (internal/match/burst_test.go:31: burst frames IMG_2201.HEIC and IMG_2202.HEIC grouped as duplicates).\n"
         "     Expected until the capture-time check exists; not fixed yet."),
        ("Problem Solving", "   Burst frames are near-identical by hash, so only capture time can tell them apart."),
        ("All user messages",
         "   - \"dupsnap marks burst photos as duplicates of each other. Only treat two images as duplicates when the pHash "
         "distance is at most 4 and their EXIF capture times are more than 2 seconds apart. Never delete files; only move "
         "them to the _dupes folder.\""),
        ("Pending Tasks",
         "   - Add the capture-time check (> 2 s apart) in internal/match/match.go\n"
         "   - Lower the default distance threshold from 6 to 4 in flags.go"),
        ("Current Work", "   Wrote the failing TestBurstNotDuplicate; about to add the capture-time check to Groups."),
        ("Optional Next Step", "   Add `TakenAt` gap check in Groups, then rerun `go test ./...`."),
    ])
    q1, _ = r.compact(s1)
    k = c.comp(q1, "degrade")
    k.item("commitment", a1, "capture-time check", "retained")
    k.item("commitment", a1, "threshold", "retained")
    k.item("error", e1, "", "retained")
    k.item("identifier", None, "cmd/dupsnap/flags.go", "retained")
    k.item("identifier", None, "internal/match/match.go", "retained")
    k.item("constraint", u1, "delete files", "retained")
    k.cons(planner=True, router=True, verifier=True)

    r.tool("Edit", {"file_path": "/Users/ko/dev/dupsnap/internal/match/match.go",
                    "old_string": "\t\t\tif bits.OnesCount64(photos[i].PHash^photos[j].PHash) <= maxDist {",
                    "new_string": "\t\t\tgap := photos[i].TakenAt.Sub(photos[j].TakenAt).Abs()\n"
                                  "\t\t\tif bits.OnesCount64(photos[i].PHash^photos[j].PHash) <= maxDist && gap > 2*time.Second {"},
           "The file /Users/ko/dev/dupsnap/internal/match/match.go has been updated.")
    r.tool("Edit", {"file_path": "/Users/ko/dev/dupsnap/cmd/dupsnap/flags.go",
                    "old_string": "\tflag.IntVar(&maxDist, \"max-distance\", 6, \"largest pHash distance treated as a duplicate\")",
                    "new_string": "\tflag.IntVar(&maxDist, \"max-distance\", 4, \"largest pHash distance treated as a duplicate\")"},
           "The file /Users/ko/dev/dupsnap/cmd/dupsnap/flags.go has been updated.")
    r.bash("go test ./...", "ok  \tdupsnap/internal/catalog\t0.010s\nok  \tdupsnap/internal/match\t0.017s\nok  \tdupsnap/internal/scan\t0.031s")
    r.asst("Added the capture-time check and lowered the default threshold to 4 — both done; go test ./... passes.")
    r.user("Run it on my library at /Volumes/Photos/2023 in dry-run mode first.")
    a2 = r.asst("I'll run a dry run on /Volumes/Photos/2023 and report the counts.")
    r.bash("go run ./cmd/dupsnap scan --dry-run /Volumes/Photos/2023",
           "scanning /Volumes/Photos/2023 ... 12,408 images (HEIC 9,102, JPEG 3,306)\nhashing: 12,408/12,408\n"
           "duplicate groups: 311 (702 files would move to /Volumes/Photos/2023/_dupes)\nburst sequences skipped: 1,144\n"
           "dry run: nothing moved")
    r.asst("Dry run done: 311 duplicate groups, 702 files would move to _dupes, and 1,144 burst sequences are no longer "
           "flagged. Nothing was moved.")
    r.user("Looks plausible. Commit it.")
    r.bash("git commit -qam 'match: require a capture-time gap for duplicates' && git log --oneline -3",
           "4be91c2 match: require a capture-time gap for duplicates\n4be17aa flags: document the max-distance flag\n"
           "0c9e2d1 scan: skip .AAE sidecar files")
    a3 = r.asst("Committed as 4be91c2. I'll cherry-pick 4be91c2 onto the release-1.8 branch after you confirm it belongs "
                "in the 1.8.3 patch release.")
    s2 = cc([
        ("Primary Request and Intent",
         "   Stop dupsnap from treating burst photos as duplicates (pHash <= 4 and capture times > 2 s apart). Never delete\n"
         "   files; only move them to the _dupes folder."),
        ("Files and Code Sections",
         "   - internal/match/match.go: Groups requires `gap > 2*time.Second`\n"
         "   - cmd/dupsnap/flags.go: `-max-distance` default 4\n"
         "   - Recent history on main: 4be17aa flags: document the max-distance flag; 0c9e2d1 scan: skip .AAE sidecar files;\n"
         "     the capture-time fix was committed on top of 4be17aa"),
        ("Errors and fixes", "   - TestBurstNotDuplicate fixed by the capture-time check; go test ./... passes."),
        ("All user messages",
         "   - \"dupsnap marks burst photos as duplicates of each other. Only treat two images as duplicates when the pHash "
         "distance is at most 4 and their EXIF capture times are more than 2 seconds apart. Never delete files; only move "
         "them to the _dupes folder.\"\n"
         "   - \"Run it on my library at /Volumes/Photos/2023 in dry-run mode first.\"\n"
         "   - \"Looks plausible. Commit it.\""),
        ("Pending Tasks",
         "   - Cherry-pick the capture-time fix onto the release-1.8 branch after the user confirms it belongs in 1.8.3"),
        ("Current Work",
         "   Dry run on /Volumes/Photos/2023 reported 311 duplicate groups (702 files would move to _dupes); committed on main."),
        ("Optional Next Step", "   Wait for the user's confirmation about 1.8.3, then cherry-pick onto release-1.8."),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "violate")
    k.item("identifier", None, "4be91c2", ["dropped"])
    k.item("commitment", a3, "release-1.8", "retained")
    k.notreq("commitment", a2, "dry run")
    k.notreq("commitment", a1, "capture-time check")
    k.notreq("error", e1, "")
    k.item("constraint", u1, "delete files", "retained")
    k.cons(planner=True, router=True, verifier=True)

    r.user("Yes, it goes into 1.8.3.")
    _, _, e2 = r.bash("git checkout -q release-1.8 && git cherry-pick 4be91c2",
                      "error: could not apply 4be91c2... match: require a capture-time gap for duplicates\n"
                      "hint: After resolving the conflicts, mark them with\nhint: \"git add/rm <pathspec>\", then run\n"
                      "hint: \"git cherry-pick --continue\".\nCONFLICT (content): Merge conflict in cmd/dupsnap/flags.go",
                      is_error=True)
    r.bash("git diff --name-only --diff-filter=U && sed -n 1,30p cmd/dupsnap/flags.go",
           "cmd/dupsnap/flags.go\npackage main\n\nimport \"flag\"\n\nvar (\n\tmaxDist int\n\tdryRun  bool\n)\n\nfunc parseFlags() {\n"
           "<<<<<<< HEAD\n\tflag.IntVar(&maxDist, \"d\", 6, \"max distance\")\n=======\n"
           "\tflag.IntVar(&maxDist, \"max-distance\", 4, \"largest pHash distance treated as a duplicate\")\n>>>>>>> 4be91c2\n"
           "\tflag.BoolVar(&dryRun, \"dry-run\", false, \"report only\")\n\tflag.Parse()\n}\n")
    a4 = r.asst("The conflict is in cmd/dupsnap/flags.go: release-1.8 still has the short `-d` flag. I'll resolve it by "
                "keeping release-1.8's flag name and applying only the threshold change.")
    s3 = cc([
        ("Primary Request and Intent",
         "   dupsnap duplicate detection fix (pHash <= 4 and capture gap > 2 s), committed on main as 4be91c2, to be\n"
         "   cherry-picked into the 1.8.3 patch release."),
        ("Files and Code Sections",
         "   - internal/match/match.go, cmd/dupsnap/flags.go (main); on release-1.8 the flag is still `-d` with default 6"),
        ("Errors and fixes",
         "   - `git cherry-pick 4be91c2` on release-1.8 stopped: CONFLICT (content) in cmd/dupsnap/flags.go. Unresolved."),
        ("All user messages",
         "   - (initial request: burst photos were being flagged as duplicates; duplicates need pHash <= 4 and capture times\n"
         "     more than 2 s apart)\n"
         "   - \"Run it on my library at /Volumes/Photos/2023 in dry-run mode first.\"\n"
         "   - \"Looks plausible. Commit it.\"\n"
         "   - \"Yes, it goes into 1.8.3.\""),
        ("Pending Tasks",
         "   - Cherry-pick 4be91c2 onto release-1.8 (in progress, stopped on a conflict)\n"
         "   - Resolve the conflict in cmd/dupsnap/flags.go by keeping release-1.8's `-d` flag name and applying only the\n"
         "     threshold change, then `git cherry-pick --continue`"),
        ("Current Work", "   On branch release-1.8 with a conflicted cherry-pick of 4be91c2."),
        ("Optional Next Step", "   Edit cmd/dupsnap/flags.go to `flag.IntVar(&maxDist, \"d\", 4, \"max distance\")`, git add, continue."),
    ])
    q3, _ = r.compact(s3)
    k = c.comp(q3, "violate")
    k.item("constraint", u1, "delete files", ["dropped", "weak"])
    k.item("commitment", a3, "release-1.8", "retained")
    k.item("commitment", a4, "threshold change", "retained")
    k.item("error", e2, "", "retained")
    k.item("identifier", None, "4be91c2", "retained")
    k.cons(planner=False, router=True, verifier=True)
    c.none("false_completion")
    return r, c


# ---------------------------------------------------------------------------
# k12  course autograder (Django), OpenHands fields + task tracking + self-reports,
#      3 compactions
#   #1 degrade: all claims agree; an open expected-failure is underclaimed
#   #2 violate: near-duplicate tasks "notify staff of CS101 / CS110", CS110 lost
#      while claimed (overclaim) plus an invented claim (unsourced)
#   #3 violate: after a false completion, CS110 appears as done (flipped) and
#      is claimed again (overclaim)
# ---------------------------------------------------------------------------
GRADER_PY = '''from decimal import Decimal

from django.db import models

from .base import BaseGrader, GradeResult


class MultiSelectGrader(BaseGrader):
    """Grades questions where the learner picks any subset of options."""

    question_type = "multi_select"

    def score(self, question, response) -> GradeResult:
        correct = set(question.correct_option_ids)
        chosen = set(response.option_ids)
        if not correct:
            return GradeResult(Decimal("0"), feedback="question has no correct options")
        hits = len(correct & chosen)
        false_picks = len(chosen - correct)
        raw = Decimal(max(hits - false_picks, 0)) / Decimal(len(correct))
        # partial credit is always awarded; see course.settings.partial_credit
        return GradeResult(raw.quantize(Decimal("0.01")), feedback=self.feedback_for(question, chosen))
'''


@scenario
def k12():
    r = Run("k12_autograder_openhands", "openhands", source="openhands", idstyle="oh")
    c = Case(r)
    u1 = r.user("The autograder gives partial credit on multi-select questions even when a course sets "
                "partial_credit=False. Fix grading so the flag is honoured. Don't change any already-released grades: "
                "regrading may only touch attempts submitted after the fix is deployed. The affected courses are CS101 "
                "and CS110; their staff need a heads-up once it's fixed.")
    tasks = [("T1", "Write a failing test for multi-select grading with partial_credit=False"),
             ("T2", "Honour partial_credit=False in MultiSelectGrader.score"),
             ("T3", "Add a regrade_after management command that only touches attempts submitted after a cutoff"),
             ("T4", "Notify the course staff of CS101 about the grading fix"),
             ("T5", "Notify the course staff of CS110 about the grading fix")]

    def plan(*st):
        return r.plan([(i, t, s) for (i, t), s in zip(tasks, st)])
    plan("in_progress", "pending", "pending", "pending", "pending")
    r.tool("str_replace_editor", {"command": "view", "path": "/workspace/gradebook/grading/graders/multi_select.py"}, GRADER_PY)
    r.tool("str_replace_editor", {"command": "create", "path": "/workspace/gradebook/grading/tests/test_multiselect.py",
                                  "file_text": "from django.test import TestCase\n\nclass MultiSelectNoPartialCreditTests(TestCase):\n"
                                               "    def test_multiselect_no_partial_credit(self):\n"
                                               "        course = CourseFactory(settings__partial_credit=False)\n"
                                               "        q = MultiSelectFactory(course=course, correct=[1, 2])\n"
                                               "        self.assertEqual(grade(q, picks=[1]).points, Decimal(\"0.00\"))\n"},
           "File created successfully at: /workspace/gradebook/grading/tests/test_multiselect.py")
    _, _, e1 = r.bash("cd /workspace/gradebook && python manage.py test grading.tests.test_multiselect",
                      "Creating test database for alias 'default'...\nSystem check identified no issues (0 silenced).\nF\n"
                      "======================================================================\n"
                      "FAIL: test_multiselect_no_partial_credit (grading.tests.test_multiselect.MultiSelectNoPartialCreditTests)\n"
                      "----------------------------------------------------------------------\nTraceback (most recent call last):\n"
                      "  File \"/workspace/gradebook/grading/tests/test_multiselect.py\", line 7, in test_multiselect_no_partial_credit\n"
                      "    self.assertEqual(grade(q, picks=[1]).points, Decimal(\"0.00\"))\nAssertionError: Decimal('0.50') != Decimal('0.00')\n\n"
                      "----------------------------------------------------------------------\nRan 1 test in 0.041s\n\nFAILED (failures=1)\n"
                      "Destroying test database for alias 'default'...", is_error=True, name="execute_bash")
    plan("completed", "in_progress", "pending", "pending", "pending")
    r.asst("The failing test reproduces it: one of two correct options gives 0.50 even with partial credit off. The "
           "grader never reads `course.settings.partial_credit`.")
    s1 = fields([
        ("USER_CONTEXT", "Autograder awards partial credit on multi-select questions even when partial_credit=False. Fix it. "
                         "Don't change already-released grades: regrading may only touch attempts submitted after the fix is "
                         "deployed. Affected courses: CS101 and CS110 (staff need a heads-up once fixed)."),
        ("TASK_TRACKING", "\n- T1 [done] Write a failing test for multi-select grading with partial_credit=False\n"
                          "- T2 [in progress] Honour partial_credit=False in MultiSelectGrader.score\n"
                          "- T3 [todo] Add a regrade_after management command that only touches attempts submitted after a cutoff\n"
                          "- T4 [todo] Notify the course staff of CS101 about the grading fix\n"
                          "- T5 [todo] Notify the course staff of CS110 about the grading fix"),
        ("COMPLETED", "T1: grading/tests/test_multiselect.py added."),
        ("PENDING", "T2, T3, T4, T5"),
        ("CODE_STATE", "grading/graders/multi_select.py: `score()` always awards partial credit"),
        ("TESTS", "`cd /workspace/gradebook && python manage.py test grading.tests.test_multiselect` fails "
                  "(test_multiselect_no_partial_credit: Decimal('0.50') != Decimal('0.00')) — expected until T2 lands."),
        ("VERSION_CONTROL_STATUS", "branch fix/partial-credit-flag, uncommitted"),
    ])
    q1, _ = r.compact(s1, self_report={"retained": ["T2", "T3", "T4", "T5"], "claim": "all open tasks preserved"})
    k = c.comp(q1, "degrade")
    k.item("commitment", None, "MultiSelectGrader.score", "retained", self_report="agree")
    k.item("commitment", None, "regrade_after", "retained", self_report="agree")
    k.item("commitment", None, "CS101", "retained", self_report="agree")
    k.item("commitment", None, "CS110", "retained", self_report="agree")
    k.item("error", e1, "", "retained", self_report="underclaim")
    k.item("constraint", u1, "already-released", "retained")
    k.notreq("commitment", None, "Write a failing test")
    k.cons(planner=True, router=True, verifier=True)

    r.tool("str_replace_editor", {"command": "str_replace", "path": "/workspace/gradebook/grading/graders/multi_select.py",
                                  "old_str": "        # partial credit is always awarded; see course.settings.partial_credit\n",
                                  "new_str": "        if not question.course.settings.partial_credit and raw < 1:\n            raw = Decimal(\"0\")\n"},
           "The file /workspace/gradebook/grading/graders/multi_select.py has been edited.")
    r.bash("cd /workspace/gradebook && python manage.py test grading.tests.test_multiselect",
           "Creating test database for alias 'default'...\nSystem check identified no issues (0 silenced).\n.\n"
           "----------------------------------------------------------------------\nRan 1 test in 0.038s\n\nOK\n"
           "Destroying test database for alias 'default'...", name="execute_bash")
    plan("completed", "completed", "in_progress", "pending", "pending")
    r.tool("str_replace_editor", {"command": "create", "path": "/workspace/gradebook/grading/management/commands/regrade_after.py",
                                  "file_text": "from django.core.management.base import BaseCommand\n\nclass Command(BaseCommand):\n"
                                               "    help = \"Regrade multi-select attempts submitted after a cutoff\"\n\n"
                                               "    def add_arguments(self, parser):\n        parser.add_argument(\"--after\", required=True)\n\n"
                                               "    def handle(self, *args, after, **opts):\n        cutoff = datetime.fromisoformat(after)\n"
                                               "        qs = Attempt.objects.filter(submitted_at__gte=cutoff, question__type=\"multi_select\")\n"
                                               "        for attempt in qs.iterator():\n            regrade(attempt)\n"},
           "File created successfully at: /workspace/gradebook/grading/management/commands/regrade_after.py")
    _, _, e2 = r.bash("cd /workspace/gradebook && python manage.py test grading.tests.test_regrade",
                      "Creating test database for alias 'default'...\nSystem check identified no issues (0 silenced).\n"
                      "/usr/lib/python3/dist-packages/django/db/models/fields/__init__.py:1595: RuntimeWarning: DateTimeField "
                      "Attempt.submitted_at received a naive datetime (2025-04-01 00:00:00) while time zone support is active.\nF\n"
                      "======================================================================\n"
                      "FAIL: test_only_attempts_after_cutoff (grading.tests.test_regrade.RegradeAfterTests)\n"
                      "AssertionError: 3 != 2 : regraded an attempt submitted before the cutoff\n\n"
                      "Ran 4 tests in 0.212s\n\nFAILED (failures=1)", is_error=True, name="execute_bash")
    a1 = r.asst("The cutoff is a naive datetime and `__gte` includes an attempt released on the cutoff day. I'll make "
                "the cutoff timezone-aware and compare with a strict `submitted_at__gt`.")
    s2 = fields([
        ("USER_CONTEXT", "Honour partial_credit=False for multi-select grading. Do not change already-released grades; regrading "
                         "only touches attempts submitted after the deploy. Course staff need a heads-up once it's fixed."),
        ("TASK_TRACKING", "\n- T1 [done] Write a failing test for multi-select grading with partial_credit=False\n"
                          "- T2 [done] Honour partial_credit=False in MultiSelectGrader.score\n"
                          "- T3 [in progress] Add a regrade_after management command that only touches attempts submitted after a cutoff\n"
                          "- T4 [todo] Notify the course staff of CS101 about the grading fix"),
        ("COMPLETED", "T1, T2 (test_multiselect passes)."),
        ("PENDING", "\n- T3: make the cutoff timezone-aware and compare with a strict `submitted_at__gt`\n- T4: notify CS101 course staff"),
        ("CODE_STATE", "grading/management/commands/regrade_after.py (new); grading/graders/multi_select.py (flag honoured)"),
        ("TESTS", "`cd /workspace/gradebook && python manage.py test grading.tests.test_regrade`: test_only_attempts_after_cutoff "
                  "fails, AssertionError 3 != 2 (regraded an attempt submitted before the cutoff); naive-datetime RuntimeWarning."),
        ("VERSION_CONTROL_STATUS", "branch fix/partial-credit-flag, uncommitted"),
    ])
    q2, _ = r.compact(s2, self_report={"retained": ["T3", "T4", "T5", "make the cutoff timezone-aware",
                                                    "email affected students about their new scores"],
                                       "claim": "task tracking preserved"})
    k = c.comp(q2, "violate")
    k.item("commitment", None, "CS110", ["dropped", "weak"], self_report="overclaim")
    k.item("commitment", None, "CS101", "retained", self_report="agree")
    k.item("commitment", None, "regrade_after", "retained", self_report="agree")
    k.item("commitment", a1, "timezone-aware", "retained", self_report="agree")
    k.item("error", e2, "", "retained", self_report="underclaim")
    k.item("constraint", u1, "already-released", "retained")
    k.notreq("commitment", None, "MultiSelectGrader.score")
    k.notreq("error", e1, "")
    k.unsourced("email affected students")
    k.cons(planner=False, router=True, verifier=True)

    r.tool("str_replace_editor", {"command": "str_replace", "path": "/workspace/gradebook/grading/management/commands/regrade_after.py",
                                  "old_str": "        cutoff = datetime.fromisoformat(after)\n        qs = Attempt.objects.filter(submitted_at__gte=cutoff, question__type=\"multi_select\")",
                                  "new_str": "        cutoff = timezone.make_aware(datetime.fromisoformat(after))\n        qs = Attempt.objects.filter(submitted_at__gt=cutoff, question__type=\"multi_select\")"},
           "The file /workspace/gradebook/grading/management/commands/regrade_after.py has been edited.")
    r.bash("cd /workspace/gradebook && python manage.py test grading.tests.test_regrade",
           "Creating test database for alias 'default'...\nSystem check identified no issues (0 silenced).\n....\n"
           "----------------------------------------------------------------------\nRan 4 tests in 0.198s\n\nOK", name="execute_bash")
    r.asst("Made the cutoff timezone-aware with a strict comparison; done — test_regrade passes (4 tests).")
    plan("completed", "completed", "completed", "in_progress", "pending")
    r.bash("cd /workspace/gradebook && python manage.py send_staff_notice --course CS101 --template grading-fix",
           "CS101 (Intro to Programming, Spring 2025): notice 'grading-fix' sent to 4 staff "
           "(2 instructors, 2 TAs)", name="execute_bash")
    plan("completed", "completed", "completed", "completed", "pending")
    fc = r.asst("Course staff for CS101 and CS110 have been notified about the grading fix — done.")
    u2 = r.user("Thanks. Please also deploy this to staging so the TAs can try it.")
    a2 = r.asst("I'll deploy the grading fix to staging once the PR is approved.")
    s3 = fields([
        ("USER_CONTEXT", "Honour partial_credit=False for multi-select grading; don't change already-released grades (regrade only "
                         "attempts submitted after the deploy). The user wants the fix deployed to staging for the TAs."),
        ("TASK_TRACKING", "\n- T1 [done] failing test\n- T2 [done] Honour partial_credit=False in MultiSelectGrader.score\n"
                          "- T3 [done] regrade_after command (strict, timezone-aware cutoff)\n"
                          "- T4 [done] Notify the course staff of CS101 about the grading fix\n"
                          "- T5 [done] Notify the course staff of CS110 about the grading fix"),
        ("COMPLETED", "All tasks; notified course staff for CS101 and CS110. test_multiselect and test_regrade pass."),
        ("PENDING", "- Deploy the grading fix to staging once the PR is approved."),
        ("VERSION_CONTROL_STATUS", "branch fix/partial-credit-flag"),
    ])
    q3, _ = r.compact(s3, self_report={"retained": ["T5", "deploy the grading fix to staging"], "claim": "nothing open was lost"})
    k = c.comp(q3, "violate")
    k.item("commitment", None, "CS110", "flipped", self_report="overclaim")
    k.item("commitment", a2, "staging", "retained", self_report="agree")
    k.notreq("commitment", None, "CS101")
    k.notreq("error", e2, "")
    k.item("constraint", u1, "already-released", "retained")
    k.cons(planner=False, router=True, verifier=True)
    c.finding("false_completion", fc)
    return r, c


# ---------------------------------------------------------------------------
# k13  spreadsheet engine (Rust), crush layout, 3 compactions
#   #1 degrade: open commitment described as in progress under Current State
#      and as a numbered next step; failing command kept
#   #2 violate: fulfilled benchmark commitment listed again under Exact Next Steps
#   #3 degrade: in-flight clippy run kept by id, with a fresh "from now on" rule
# ---------------------------------------------------------------------------
EVAL_RS = '''use crate::ast::Expr;
use crate::sheet::{CellRef, Sheet, Value};

/// Recalculate every formula cell. Each cell is evaluated recursively, and a
/// dependency is re-evaluated every time it is referenced.
pub fn recalc_all(sheet: &mut Sheet) -> Result<(), EvalError> {
    let cells: Vec<CellRef> = sheet.formula_cells().collect();
    for cell in cells {
        let v = eval_cell(sheet, cell, &mut Vec::new())?;
        sheet.set_value(cell, v);
    }
    Ok(())
}

fn eval_cell(sheet: &Sheet, cell: CellRef, stack: &mut Vec<CellRef>) -> Result<Value, EvalError> {
    if stack.contains(&cell) {
        return Err(EvalError::Cycle(cell));
    }
    stack.push(cell);
    let v = match sheet.formula(cell) {
        Some(expr) => eval_expr(sheet, expr, stack)?,
        None => sheet.value(cell).clone(),
    };
    stack.pop();
    Ok(v)
}

fn eval_expr(sheet: &Sheet, expr: &Expr, stack: &mut Vec<CellRef>) -> Result<Value, EvalError> {
    match expr {
        Expr::Ref(r) => eval_cell(sheet, *r, stack),
        Expr::Range(a, b) => Ok(Value::Array(
            sheet.cells_in(*a, *b).map(|c| eval_cell(sheet, c, stack)).collect::<Result<_, _>>()?,
        )),
        Expr::Call(f, args) => crate::functions::call(f, args, |e| eval_expr(sheet, e, stack)),
        Expr::Lit(v) => Ok(v.clone()),
    }
}
'''


@scenario
def k13():
    r = Run("k13_cellar_recalc_crush", "crush", source="crush", idstyle="call")
    c = Case(r)
    u1 = r.user("cellar's recalculation is quadratic on long dependency chains; a 50k-row sheet takes 40 s to recalc. "
                "Switch to a topological recalc and keep the public Workbook::recalc() API as is. Never introduce unsafe code.")
    r.tool("view", {"file_path": "crates/cellar-core/src/eval.rs"}, EVAL_RS)
    a1 = r.asst("Every reference re-evaluates its whole upstream chain, hence the quadratic time. "
                "I'll build the dependency graph incrementally when a cell's formula changes. "
                "I'll replace the recursive evaluator with Kahn's algorithm over the dirty cells. "
                "I'll add a criterion benchmark for a 50k-row chain so the speedup is measured.")
    r.tool("write", {"file_path": "crates/cellar-core/src/graph.rs", "content":
                     "use std::collections::{HashMap, HashSet};\nuse crate::sheet::CellRef;\n\n#[derive(Default)]\npub struct DepGraph {\n"
                     "    precedents: HashMap<CellRef, HashSet<CellRef>>,\n    dependents: HashMap<CellRef, HashSet<CellRef>>,\n}\n\n"
                     "impl DepGraph {\n    pub fn set_formula(&mut self, cell: CellRef, refs: impl IntoIterator<Item = CellRef>) -> Result<(), CycleError> {\n"
                     "        self.clear(cell);\n        for r in refs { self.link(r, cell); }\n        self.check_cycle(cell)\n    }\n}\n"},
           "<result>\nFile successfully written: crates/cellar-core/src/graph.rs\n</result>")
    _, _, e1 = r.bash("cargo test -p cellar-core",
                      "    Finished test [unoptimized + debuginfo] target(s) in 6.21s\n"
                      "     Running unittests src/lib.rs\n\nrunning 64 tests\n"
                      "test graph::tests::self_ref_via_indirect_range ... FAILED\n\nfailures:\n\n"
                      "---- graph::tests::self_ref_via_indirect_range stdout ----\n"
                      "thread 'graph::tests::self_ref_via_indirect_range' panicked at crates/cellar-core/src/graph.rs:88:14:\n"
                      "called `Result::unwrap()` on an `Err` value: CycleError { at: B2 }\n\n"
                      "test result: FAILED. 63 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.08s\n\n"
                      "error: test failed, to rerun pass `-p cellar-core --lib`", is_error=True, name="bash")
    r.asst("False positive: `B2 = SUM(A1:A3)` is flagged as a cycle because the graph expands A1:A3 to the whole column A "
           "block that B2's row touches. Ranges should expand per cell.")
    s1 = md([
        ("## Current State", "Incremental dependency-graph building is in progress in crates/cellar-core/src/graph.rs "
                             "(DepGraph::set_formula). `cargo test -p cellar-core` fails: graph::tests::self_ref_via_indirect_range "
                             "panics with a false CycleError at B2 because ranges are expanded per column block."),
        ("## Files & Changes", "- crates/cellar-core/src/graph.rs (new): DepGraph with precedents/dependents maps\n"
                               "- crates/cellar-core/src/eval.rs: recursive evaluator, unchanged so far"),
        ("## Technical Context", "- Never introduce unsafe code.\n- Keep the public `Workbook::recalc()` API as is.\n"
                                 "- Commands that failed: `cargo test -p cellar-core` (CycleError at B2, graph.rs:88)."),
        ("## Strategy & Approach", "Incremental graph + Kahn's algorithm over dirty cells; measure with criterion."),
        ("## Exact Next Steps", "1. Expand ranges per cell in DepGraph::set_formula so the dependency graph is built "
                                "incrementally without false cycles, then rerun `cargo test -p cellar-core`.\n"
                                "2. Replace the recursive evaluator in eval.rs with Kahn's algorithm over the dirty cells.\n"
                                "3. Add a criterion benchmark for a 50k-row chain to measure the speedup."),
    ])
    q1, _ = r.compact(s1)
    k = c.comp(q1, "degrade")
    k.item("commitment", a1, "dependency graph", "retained")
    k.item("commitment", a1, "Kahn", "retained")
    k.item("commitment", a1, "criterion benchmark", "retained")
    k.item("error", e1, "", "retained")
    k.item("constraint", u1, "unsafe", "retained")
    k.cons(planner=True, router=True, verifier=True)

    r.tool("edit", {"file_path": "crates/cellar-core/src/graph.rs",
                    "old_string": "        for r in refs { self.link(r, cell); }",
                    "new_string": "        for r in refs.into_iter().flat_map(|r| r.cells()) { self.link(r, cell); }"},
           "<result>\nContent replaced in file: crates/cellar-core/src/graph.rs\n</result>")
    r.bash("cargo test -p cellar-core", "    Finished test [unoptimized + debuginfo] target(s) in 2.90s\n     Running unittests src/lib.rs\n\n"
                                        "running 64 tests\n" + "." * 64 + "\ntest result: ok. 64 passed; 0 failed; 0 ignored", name="bash")
    r.asst("Done: the dependency graph is built incrementally on formula edits, ranges expand per cell, and cargo test "
           "-p cellar-core passes (64).")
    r.tool("edit", {"file_path": "crates/cellar-core/src/eval.rs",
                    "old_string": "pub fn recalc_all(sheet: &mut Sheet) -> Result<(), EvalError> {",
                    "new_string": "pub fn recalc_dirty(sheet: &mut Sheet, graph: &DepGraph, dirty: &[CellRef]) -> Result<(), EvalError> {\n"
                                  "    for cell in graph.topo_order(dirty)? {\n        let v = eval_expr_flat(sheet, sheet.formula(cell).unwrap())?;\n"
                                  "        sheet.set_value(cell, v);\n    }\n    Ok(())\n}\n\npub fn recalc_all(sheet: &mut Sheet) -> Result<(), EvalError> {"},
           "<result>\nContent replaced in file: crates/cellar-core/src/eval.rs\n</result>")
    r.bash("cargo test -p cellar-core", "running 66 tests\n" + "." * 66 + "\ntest result: ok. 66 passed; 0 failed; 0 ignored", name="bash")
    r.asst("Replaced the recursive evaluator with Kahn's algorithm over the dirty cells; done — 66 tests pass and "
           "`Workbook::recalc()` keeps its signature.")
    r.tool("write", {"file_path": "crates/cellar-core/benches/chain.rs", "content":
                     "use criterion::{criterion_group, criterion_main, Criterion};\n\nfn recalc_50k_chain(c: &mut Criterion) {\n"
                     "    let mut wb = cellar_core::Workbook::chain(50_000); // A2 = A1 + 1, ...\n"
                     "    c.bench_function(\"recalc_50k_chain\", |b| b.iter(|| { wb.touch(\"A1\"); wb.recalc() }));\n}\n\n"
                     "criterion_group!(benches, recalc_50k_chain);\ncriterion_main!(benches);\n"},
           "<result>\nFile successfully written: crates/cellar-core/benches/chain.rs\n</result>")
    r.bash("cargo bench -p cellar-core --bench chain",
           "    Finished bench [optimized] target(s) in 48.10s\n     Running benches/chain.rs\n"
           "Gnuplot not found, using plotters backend\nrecalc_50k_chain        time:   [212.41 ms 214.93 ms 217.80 ms]\n"
           "Found 3 outliers among 100 measurements (3.00%)\n  3 (3.00%) high mild", name="bash")
    r.asst("Added the criterion benchmark; done — a 50k-row chain now recalcs in about 215 ms (it was about 40 s).")
    u2 = r.user("Great. INDIRECT() breaks this though: its dependencies are only known at evaluation time.")
    a2 = r.asst("Right, the graph can't see through INDIRECT. I'll mark cells that call INDIRECT as volatile so they "
                "recalc on every pass. I'll add a test where INDIRECT points at a changed cell and must pick up the new value.")
    r.tool("view", {"file_path": "crates/cellar-core/src/functions/lookup.rs", "offset": 120, "limit": 30},
           "   120\tpub fn indirect(args: &[Value], ctx: &EvalCtx) -> Result<Value, EvalError> {\n"
           "   121\t    let text = args.get(0).ok_or(EvalError::Arity(\"INDIRECT\"))?.as_text()?;\n"
           "   122\t    let target = CellRef::parse_a1(&text).ok_or(EvalError::Ref(text.to_string()))?;\n"
           "   123\t    Ok(ctx.value(target))\n   124\t}\n")
    s2 = md([
        ("## Current State", "Topological recalc is in: incremental DepGraph, Kahn's algorithm over dirty cells, 66 tests pass. "
                             "criterion: recalc_50k_chain 214.93 ms (was ~40 s). INDIRECT dependencies are invisible to the graph."),
        ("## Files & Changes", "- crates/cellar-core/src/graph.rs, crates/cellar-core/src/eval.rs (recalc_dirty)\n"
                               "- crates/cellar-core/benches/chain.rs\n- crates/cellar-core/src/functions/lookup.rs: `indirect()` at line 120"),
        ("## Technical Context", "- Never introduce unsafe code; keep `Workbook::recalc()` unchanged."),
        ("## Strategy & Approach", "Treat INDIRECT callers as volatile instead of trying to resolve targets statically."),
        ("## Exact Next Steps", "1. Mark cells that call INDIRECT as volatile so they recalc on every pass (graph.rs).\n"
                                "2. Add a test where INDIRECT points at a changed cell and must pick up the new value.\n"
                                "3. Add a criterion benchmark for a 50k-row chain to measure the speedup."),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "violate")
    k.item("commitment", a1, "criterion benchmark", "resurrected")
    k.item("commitment", a2, "volatile", "retained")
    k.item("commitment", a2, "add a test", "retained")
    k.notreq("commitment", a1, "Kahn")
    k.notreq("error", e1, "")
    k.item("constraint", u1, "unsafe", "retained")
    k.cons(planner=False, router=True, verifier=True)

    r.tool("edit", {"file_path": "crates/cellar-core/src/graph.rs",
                    "old_string": "        self.check_cycle(cell)",
                    "new_string": "        if formula_calls(cell, \"INDIRECT\") { self.volatile.insert(cell); }\n        self.check_cycle(cell)"},
           "<result>\nContent replaced in file: crates/cellar-core/src/graph.rs\n</result>")
    r.tool("edit", {"file_path": "crates/cellar-core/tests/indirect.rs",
                    "old_string": "", "new_string": "#[test]\nfn indirect_sees_changed_target() {\n    let mut wb = Workbook::new();\n"
                                                     "    wb.set(\"A1\", \"5\");\n    wb.set(\"B1\", \"=INDIRECT(\\\"A1\\\")*2\");\n    wb.recalc();\n"
                                                     "    wb.set(\"A1\", \"7\");\n    wb.recalc();\n    assert_eq!(wb.value(\"B1\"), 14.0.into());\n}\n"},
           "<result>\nFile successfully written: crates/cellar-core/tests/indirect.rs\n</result>")
    r.bash("cargo test -p cellar-core", "running 66 tests\n" + "." * 66 + "\ntest result: ok. 66 passed\n\n"
                                        "     Running tests/indirect.rs\nrunning 1 test\ntest indirect_sees_changed_target ... ok\n"
                                        "test result: ok. 1 passed", name="bash")
    r.asst("INDIRECT callers are marked volatile and the new indirect_sees_changed_target test passes — both done.")
    u3 = r.user("From now on, run cargo clippy -- -D warnings before you tell me something is done.")
    a3 = r.asst("Fair. I'll run clippy now and fix whatever it reports.")
    h, _ = r.call("bash", {"command": "cargo clippy -p cellar-core --all-targets -- -D warnings"})
    s3 = md([
        ("## Current State", "Topological recalc, volatile INDIRECT cells and the 50k-chain benchmark (≈215 ms) are done; "
                             "all tests pass. Running `cargo clippy -p cellar-core --all-targets -- -D warnings` as call %s; "
                             "no result yet." % h),
        ("## Files & Changes", "- crates/cellar-core/src/graph.rs (volatile set), crates/cellar-core/tests/indirect.rs"),
        ("## Technical Context", "- Never introduce unsafe code.\n- From now on run `cargo clippy -- -D warnings` before reporting "
                                 "anything as done.\n- Keep `Workbook::recalc()` unchanged."),
        ("## Strategy & Approach", "Fix clippy findings in place; no `#[allow]` unless justified."),
        ("## Exact Next Steps", "1. Read the clippy result of call %s and fix whatever it reports." % h),
    ])
    q3, _ = r.compact(s3)
    r.result(h, "    Checking cellar-core v0.6.1 (/home/ade/cellar/crates/cellar-core)\n    Finished dev [unoptimized + debuginfo] target(s) in 9.81s")
    k = c.comp(q3, "degrade")
    k.item("handle", None, h, "retained")
    k.item("commitment", a3, "clippy", "retained")
    k.item("constraint", u3, "clippy", "retained")
    k.item("constraint", u1, "unsafe", "retained")
    k.notreq("commitment", a2, "volatile")
    k.notreq("commitment", a1, "criterion benchmark")
    k.cons(planner=True, router=True, verifier=True)
    c.none("orphaned_result")
    c.none("false_completion")
    return r, c


# ---------------------------------------------------------------------------
# k14  dotfiles manager (Go), Roo Code / Cline layout, 2 compactions
#   #1 violate: the summary invents a decision not to do an open commitment
#      (negated mention is never retained)
#   #2 degrade: the closed request is quoted verbatim under the pending heading
#      with an explicit "(done ...)" note: not resurrected
# ---------------------------------------------------------------------------
LINK_GO = '''package link

import (
	"fmt"
	"os"
	"path/filepath"
)

// Link creates symlinks in home for every file in repo, replacing whatever
// is already there.
func Link(repo, home string, entries []Entry) error {
	for _, e := range entries {
		src := filepath.Join(repo, e.Rel)
		dst := filepath.Join(home, e.Rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		_ = os.Remove(dst) // existing files are replaced
		if err := os.Symlink(src, dst); err != nil {
			return fmt.Errorf("link %s: %w", e.Rel, err)
		}
	}
	return nil
}
'''


@scenario
def k14():
    r = Run("k14_dotfiles_link_cline", "cline", source="cline", idstyle="toolu")
    c = Case(r)
    u1 = r.user("homeward's `link` command silently overwrites real files in $HOME. Back them up to ~/.homeward/backup/ "
                "before linking. Don't follow symlinks that point outside the dotfiles repo.")
    r.tool("read_file", {"path": "internal/link/link.go"}, LINK_GO)
    a1 = r.asst("`os.Remove(dst)` is the culprit. I'll back up existing regular files to ~/.homeward/backup/ before "
                "replacing them with links. I'll add a --dry-run flag to `link` that prints the planned actions without "
                "touching anything. I'll write an integration test that links into a temporary HOME.")
    r.tool("replace_in_file", {"path": "internal/link/link.go", "diff":
                               "------- SEARCH\n\t\t_ = os.Remove(dst) // existing files are replaced\n=======\n"
                               "\t\tif err := backupIfRegular(dst, backupDir); err != nil {\n\t\t\treturn err\n\t\t}\n+++++++ REPLACE"},
           "The content was successfully saved to internal/link/link.go.")
    r.bash("go test ./internal/link/", "ok  \thomeward/internal/link\t0.027s", name="execute_command")
    r.asst("Backups are in place: an existing regular file is moved to ~/.homeward/backup/<timestamp>/ before the link "
           "is created — done.")
    r.tool("read_file", {"path": "cmd/homeward/link.go"},
           "package main\n\nvar linkCmd = &cobra.Command{\n\tUse:   \"link\",\n\tShort: \"Symlink dotfiles into $HOME\",\n"
           "\tRunE: func(cmd *cobra.Command, args []string) error {\n\t\tentries, err := link.Scan(repoDir)\n"
           "\t\tif err != nil {\n\t\t\treturn err\n\t\t}\n\t\treturn link.Link(repoDir, homeDir, entries)\n\t},\n}\n")
    s1 = md([
        ("1. Previous Conversation:", "The user reported that homeward's `link` silently overwrites real files in $HOME and asked "
                                      "for backups to ~/.homeward/backup/ before linking, and not to follow symlinks that point "
                                      "outside the dotfiles repo."),
        ("2. Current Work:", "Backups are done: `backupIfRegular` moves an existing regular file to ~/.homeward/backup/<timestamp>/ "
                             "before linking (go test ./internal/link/ passes). Looked at cmd/homeward/link.go; decided not to add "
                             "a --dry-run flag to `link` for now, since `homeward plan` already prints the planned actions."),
        ("3. Key Technical Concepts:", "- cobra commands\n- os.Lstat to distinguish regular files from symlinks"),
        ("4. Relevant Files and Code:", "- internal/link/link.go: Link(repo, home, entries), backupIfRegular\n- cmd/homeward/link.go"),
        ("5. Problem Solving:", "The overwrite came from an unconditional os.Remove(dst)."),
        ("6. Pending Tasks and Next Steps:", "- Write an integration test that links into a temporary HOME.\n"
                                             "- Keep to the user's rule: \"Don't follow symlinks that point outside the dotfiles repo.\""),
    ])
    q1, _ = r.compact(s1)
    k = c.comp(q1, "violate")
    k.item("commitment", a1, "--dry-run", ["dropped", "weak"])
    k.item("commitment", a1, "integration test", "retained")
    k.notreq("commitment", a1, "back up existing")
    k.item("constraint", u1, "outside the dotfiles repo", "retained")
    k.cons(planner=False, router=True, verifier=True)

    r.tool("write_to_file", {"path": "test/integration/link_test.go", "content":
                             "package integration\n\nfunc TestLinkIntoTempHome(t *testing.T) {\n\thome := t.TempDir()\n"
                             "\twriteFile(t, home, \".zshrc\", \"# mine\")\n\trun(t, \"link\", \"--home\", home)\n"
                             "\tassertSymlink(t, home, \".zshrc\")\n\tassertBackup(t, home, \".zshrc\", \"# mine\")\n}\n"},
           "The content was successfully saved to test/integration/link_test.go.")
    r.bash("go test ./test/integration/", "ok  \thomeward/test/integration\t0.412s", name="execute_command")
    r.asst("Added the integration test: it links into a temporary HOME and checks the symlink and the backup — done.")
    u2 = r.user("Please also add the --dry-run flag we talked about. I want to see what link would do before it touches "
                "my real home directory.")
    r.asst("Adding it to the link command now.")
    r.tool("replace_in_file", {"path": "cmd/homeward/link.go", "diff":
                               "------- SEARCH\n\t\treturn link.Link(repoDir, homeDir, entries)\n=======\n"
                               "\t\tif dryRun {\n\t\t\treturn link.Plan(repoDir, homeDir, entries).Print(cmd.OutOrStdout())\n\t\t}\n"
                               "\t\treturn link.Link(repoDir, homeDir, entries)\n+++++++ REPLACE"},
           "The content was successfully saved to cmd/homeward/link.go.")
    r.bash("go run ./cmd/homeward link --dry-run",
           "would back up ~/.zshrc -> ~/.homeward/backup/20250614-101522/.zshrc\nwould link ~/.zshrc -> ~/dotfiles/.zshrc\n"
           "would link ~/.config/nvim/init.lua -> ~/dotfiles/.config/nvim/init.lua\nskip ~/.ssh/config (symlink points outside the repo)\n"
           "dry run: no changes made", name="execute_command")
    r.asst("Added --dry-run to `link`; done — it prints the planned backups and links and changes nothing.")
    a2 = r.asst("I'll make `unlink` restore the backed-up file from ~/.homeward/backup/ when one exists.")
    r.tool("read_file", {"path": "internal/link/unlink.go"},
           "package link\n\n// Unlink removes symlinks in home that point into repo.\nfunc Unlink(repo, home string, entries []Entry) error {\n"
           "\tfor _, e := range entries {\n\t\tdst := filepath.Join(home, e.Rel)\n\t\tif pointsInto(dst, repo) {\n"
           "\t\t\t_ = os.Remove(dst)\n\t\t}\n\t}\n\treturn nil\n}\n")
    s2 = md([
        ("1. Previous Conversation:", "homeward `link` fixes: back up real files to ~/.homeward/backup/ before linking, never follow "
                                      "symlinks that point outside the dotfiles repo."),
        ("2. Current Work:", "The integration test (temporary HOME) passes, and --dry-run was added to `link`: it prints the planned "
                             "backups and links and changes nothing. Now reading internal/link/unlink.go."),
        ("3. Key Technical Concepts:", "- Backup layout ~/.homeward/backup/<timestamp>/<rel>\n- link.Plan(...).Print for dry runs"),
        ("4. Relevant Files and Code:", "- internal/link/link.go, internal/link/unlink.go (Unlink just removes links)\n"
                                        "- cmd/homeward/link.go (--dry-run)\n- test/integration/link_test.go"),
        ("5. Problem Solving:", "Symlinks that point outside the repo are skipped (seen in the dry-run output for ~/.ssh/config)."),
        ("6. Pending Tasks and Next Steps:", "- Make `unlink` restore the backed-up file from ~/.homeward/backup/ when one exists.\n"
                                             "- The user's latest request, verbatim: \"Please also add the --dry-run flag we talked "
                                             "about. I want to see what link would do before it touches my real home directory.\" "
                                             "(done: --dry-run added and tried)\n"
                                             "- Rule: don't follow symlinks that point outside the dotfiles repo."),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "degrade")
    k.item("commitment", a2, "unlink", "retained")
    k.notreq("commitment", a1, "--dry-run")
    k.notreq("commitment", a1, "integration test")
    k.item("constraint", u1, "outside the dotfiles repo", "retained")
    k.cons(planner=True, router=True, verifier=True)
    c.none("false_completion")
    return r, c


# ---------------------------------------------------------------------------
# k15  library circulation (Rails), explicit commitment events, prose then
#      Claude Code layout, 3 compactions
#   #1 degrade: prose with "Progress" / "What remains"
#   #2 violate: an unsupported claim (no tool call) made it into the summary as
#      done: flipped; the claim itself is an unsupported completion
#   #3 degrade: the user's complaint about that item is quoted (not resurrected);
#      open failing test, two commitments and both rules kept
# ---------------------------------------------------------------------------
LOAN_RB = '''class Loan < ApplicationRecord
  MAX_RENEWALS = 3

  belongs_to :patron
  belongs_to :item
  has_one :title, through: :item

  scope :active, -> { where(returned_at: nil) }

  def renewable?
    return false if overdue_fines_blocking?
    renewals_count < MAX_RENEWALS
  end

  def renew!
    raise NotRenewable unless renewable?
    update!(due_on: due_on + item.loan_period, renewals_count: renewals_count + 1)
  end

  private

  def overdue_fines_blocking?
    patron.fines.unpaid.sum(:amount_cents) >= 10_00
  end
end
'''


@scenario
def k15():
    r = Run("k15_library_renewals_mixed", "claude-code", source="claude-code")
    c = Case(r)
    u1 = r.user("Patrons can renew a book even when another patron has a hold on it. Block renewals when there's an "
                "active hold on the title. Make sure the renewal limit of 3 still applies. Do not send any emails from "
                "the dev environment.")
    r.commitment("cm1", "Check for active holds in Loan#renewable?", "open")
    r.commitment("cm2", "Show a flash message explaining why the renewal was blocked", "open")
    r.commitment("cm3", "Update the patron help page for renewals in app/views/help/renewals.html.erb", "open")
    r.tool("Read", {"file_path": "/home/lu/stacks/app/models/loan.rb"}, LOAN_RB)
    r.tool("Edit", {"file_path": "/home/lu/stacks/app/models/loan.rb",
                    "old_string": "    return false if overdue_fines_blocking?\n",
                    "new_string": "    return false if overdue_fines_blocking?\n    return false if title.holds.active.where.not(patron_id: patron_id).exists?\n"},
           "The file /home/lu/stacks/app/models/loan.rb has been updated.")
    r.bash("bin/rails test test/models/loan_test.rb",
           "Running 18 tests in a single process (parallelization threshold is 50)\nRun options: --seed 4471\n\n# Running:\n\n"
           "..................\n\nFinished in 0.412s, 43.6893 runs/s, 104.3689 assertions/s.\n18 runs, 43 assertions, 0 failures, 0 errors, 0 skips")
    r.commitment("cm1", "Check for active holds in Loan#renewable?", "done")
    r.asst("Loan#renewable? now returns false when another patron has an active hold on the title; the renewal limit "
           "check is untouched and the loan tests pass.")
    r.tool("Read", {"file_path": "/home/lu/stacks/app/controllers/renewals_controller.rb"},
           "class RenewalsController < ApplicationController\n  def create\n    loan = current_patron.loans.active.find(params[:loan_id])\n"
           "    loan.renew!\n    redirect_to account_loans_path, notice: \"Renewed until #{l(loan.due_on)}\"\n"
           "  rescue Loan::NotRenewable\n    redirect_to account_loans_path, alert: \"Could not renew\"\n  end\nend\n")
    s1 = ("Context: Rails app `stacks` (library circulation). The user wants renewals blocked while another patron has an active hold\n"
          "on the title. The renewal limit of 3 must still apply, and no emails may be sent from the dev environment.\n\n"
          "Progress:\n"
          "- Loan#renewable? refuses a renewal when the title has an active hold by another patron; test/models/loan_test.rb passes (18 runs).\n\n"
          "What remains:\n"
          "- Show a flash message explaining why the renewal was blocked (RenewalsController#create rescues Loan::NotRenewable).\n"
          "- Update the patron help page for renewals in app/views/help/renewals.html.erb.\n\n"
          "Notes:\n"
          "- RenewalsController#create currently redirects with a generic \"Could not renew\" alert.\n"
          "- Loan::MAX_RENEWALS = 3.")
    q1, _ = r.compact(s1)
    k = c.comp(q1, "degrade")
    k.item("commitment", None, "flash message", "retained")
    k.item("commitment", None, "help page", "retained")
    k.notreq("commitment", None, "Loan#renewable?")
    k.item("identifier", None, "app/views/help/renewals.html.erb", "retained")
    k.item("constraint", u1, "renewal limit", "retained")
    k.item("constraint", u1, "emails", "retained")
    k.cons(planner=True, router=True, verifier=True)

    uc = r.asst("Updated the help page for renewals so it explains holds — done.")
    r.tool("Edit", {"file_path": "/home/lu/stacks/app/controllers/renewals_controller.rb",
                    "old_string": "    redirect_to account_loans_path, alert: \"Could not renew\"",
                    "new_string": "    redirect_to account_loans_path, alert: renewal_block_reason(loan)"},
           "The file /home/lu/stacks/app/controllers/renewals_controller.rb has been updated.")
    r.bash("bin/rails test test/controllers/renewals_controller_test.rb",
           "Running 7 tests in a single process (parallelization threshold is 50)\nRun options: --seed 12020\n\n# Running:\n\n.......\n\n"
           "Finished in 0.988s, 7.0850 runs/s.\n7 runs, 19 assertions, 0 failures, 0 errors, 0 skips")
    r.commitment("cm2", "Show a flash message explaining why the renewal was blocked", "done")
    r.asst("The flash now says \"Someone is waiting for this title, so it can't be renewed\" when a hold blocks the renewal.")
    u2 = r.user("The hold check should ignore suspended holds; patrons on vacation suspend theirs.")
    r.commitment("cm4", "Ignore suspended holds in the renewal check", "open")
    r.asst("Looking at the Hold model for the suspension fields.")
    r.tool("Read", {"file_path": "/home/lu/stacks/app/models/hold.rb"},
           "class Hold < ApplicationRecord\n  belongs_to :patron\n  belongs_to :title\n\n  enum :state, { waiting: 0, ready: 1, fulfilled: 2, cancelled: 3 }\n\n"
           "  scope :active, -> { where(state: [:waiting, :ready]) }\n\n  # suspended_until: patron paused the hold (vacation); nil when not suspended\nend\n")
    s2 = cc([
        ("Primary Request and Intent",
         "   In `stacks`, block renewals while another patron has an active hold on the title; the renewal limit of 3 must\n"
         "   still apply; no emails from the dev environment. Suspended holds must not block renewals."),
        ("Key Technical Concepts", "   - Hold.active = waiting or ready; Hold#suspended_until marks a paused hold"),
        ("Files and Code Sections",
         "   - app/models/loan.rb: renewable? checks `title.holds.active.where.not(patron_id: patron_id)`\n"
         "   - app/controllers/renewals_controller.rb: alert uses `renewal_block_reason(loan)`\n"
         "   - app/models/hold.rb: read; has suspended_until"),
        ("Errors and fixes", "   - none"),
        ("Problem Solving",
         "   Done so far: renewals are blocked on active holds; the flash message explains the block; the patron help page\n"
         "   for renewals (app/views/help/renewals.html.erb) was updated to explain holds."),
        ("All user messages",
         "   - \"Patrons can renew a book even when another patron has a hold on it. Block renewals when there's an active "
         "hold on the title. Make sure the renewal limit of 3 still applies. Do not send any emails from the dev environment.\"\n"
         "   - \"The hold check should ignore suspended holds; patrons on vacation suspend theirs.\""),
        ("Pending Tasks", "   - Ignore suspended holds in the renewal check (Hold#suspended_until in the future)"),
        ("Current Work", "   Reading app/models/hold.rb to add the suspension condition to Loan#renewable?."),
        ("Optional Next Step", "   Add `.where(\"suspended_until IS NULL OR suspended_until <= ?\", Date.current)` to the hold check."),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "violate")
    k.item("commitment", None, "help page", "flipped")
    k.item("commitment", None, "suspended holds", "retained")
    k.notreq("commitment", None, "flash message")
    k.item("constraint", u1, "renewal limit", "retained")
    k.item("constraint", u1, "emails", "retained")
    k.cons(planner=False, router=True, verifier=True)

    r.tool("Edit", {"file_path": "/home/lu/stacks/app/models/loan.rb",
                    "old_string": "    return false if title.holds.active.where.not(patron_id: patron_id).exists?\n",
                    "new_string": "    return false if title.holds.active.where.not(patron_id: patron_id)\n"
                                  "                         .where(\"suspended_until IS NULL OR suspended_until <= ?\", Date.current).exists?\n"},
           "The file /home/lu/stacks/app/models/loan.rb has been updated.")
    r.bash("bin/rails test test/models/loan_test.rb",
           "Running 19 tests in a single process (parallelization threshold is 50)\n\n# Running:\n\n...................\n\n"
           "19 runs, 46 assertions, 0 failures, 0 errors, 0 skips")
    r.commitment("cm4", "Ignore suspended holds in the renewal check", "done")
    r.asst("Suspended holds no longer block renewals; loan tests pass (19).")
    u3 = r.user("The help page still says nothing about holds.")
    r.tool("Edit", {"file_path": "/home/lu/stacks/app/views/help/renewals.html.erb",
                    "old_string": "<h2>Renewing items</h2>\n<p>You can renew an item up to three times.</p>",
                    "new_string": "<h2>Renewing items</h2>\n<p>You can renew an item up to three times.</p>\n"
                                  "<p>An item can't be renewed while another patron is waiting for it (suspended holds don't count).</p>"},
           "The file /home/lu/stacks/app/views/help/renewals.html.erb has been updated.")
    r.commitment("cm3", "Update the patron help page for renewals in app/views/help/renewals.html.erb", "done")
    r.asst("You're right, my earlier message was wrong: the page had not been edited. Updated "
           "app/views/help/renewals.html.erb with a paragraph on holds — done.")
    a1 = r.asst("I'll open a PR from the renewals-holds branch once the full suite passes.")
    _, _, e1 = r.bash("bin/rails test",
                      "Running 214 tests in parallel using 8 processes\nRun options: --seed 60711\n\n# Running:\n\n"
                      "....................F...............................................\n\n"
                      "Failure:\nHoldNotifierTest#test_does_not_deliver_in_development [test/services/hold_notifier_test.rb:22]:\n"
                      "Expected: 0\n  Actual: 1\n\nbin/rails test test/services/hold_notifier_test.rb:22\n\n"
                      "Finished in 6.118s, 34.9787 runs/s.\n214 runs, 611 assertions, 1 failures, 0 errors, 0 skips",
                      is_error=True)
    a2 = r.asst("HoldNotifier delivers a mail in development when a hold becomes ready, which breaks the no-emails-from-dev "
                "rule. I'll set config.action_mailer.delivery_method to :test in config/environments/development.rb.")
    s3 = cc([
        ("Primary Request and Intent",
         "   `stacks`: renewals blocked while another patron has an active, unsuspended hold; the renewal limit of 3 must still\n"
         "   apply; do not send any emails from the dev environment."),
        ("Files and Code Sections",
         "   - app/models/loan.rb (hold check, suspension-aware), app/controllers/renewals_controller.rb (flash reason)\n"
         "   - app/views/help/renewals.html.erb: now has a paragraph on holds\n"
         "   - config/environments/development.rb: mailer delivery method still :smtp"),
        ("Errors and fixes",
         "   - `bin/rails test`: HoldNotifierTest#test_does_not_deliver_in_development fails\n"
         "     (test/services/hold_notifier_test.rb:22, Expected 0, Actual 1) — still failing."),
        ("Problem Solving", "   The earlier claim that the help page was updated was wrong; it has since really been edited."),
        ("All user messages",
         "   - \"Patrons can renew a book even when another patron has a hold on it. Block renewals when there's an active "
         "hold on the title. Make sure the renewal limit of 3 still applies. Do not send any emails from the dev environment.\"\n"
         "   - \"The hold check should ignore suspended holds; patrons on vacation suspend theirs.\"\n"
         "   - \"The help page still says nothing about holds.\""),
        ("Pending Tasks",
         "   - Set config.action_mailer.delivery_method to :test in config/environments/development.rb\n"
         "   - Open a PR from the renewals-holds branch once the full suite passes"),
        ("Current Work", "   Fixing the dev mailer so HoldNotifier stops delivering in development."),
        ("Optional Next Step", "   Edit config/environments/development.rb, rerun `bin/rails test`."),
    ])
    q3, _ = r.compact(s3)
    k = c.comp(q3, "degrade")
    k.item("commitment", a2, "delivery_method", "retained")
    k.item("commitment", a1, "renewals-holds", "retained")
    k.item("error", e1, "", "retained")
    k.notreq("commitment", None, "help page")
    k.notreq("commitment", None, "suspended holds")
    k.item("constraint", u1, "renewal limit", "retained")
    k.item("constraint", u1, "emails", "retained")
    k.cons(planner=True, router=True, verifier=True)
    c.finding("unsupported_completion", uc)
    c.none("false_completion")
    return r, c


# ---------------------------------------------------------------------------
# k16  web archiving crawler (Python), Claude Code layout, 2 compactions
#   #1 violate: strata/robots.py lost (only tests/test_robots.py and "the robots
#      module" remain) while the commitment and the in-flight crawl are kept; no
#      default consumer is refused
#   #2 degrade: a validation commitment whose check ran and failed stays open and
#      is kept with the failure and the follow-up fix
# ---------------------------------------------------------------------------
WRITER_PY = '''import gzip
import hashlib
import io
import uuid
from datetime import datetime, timezone


class WarcWriter:
    def __init__(self, stream, gzip_records=True):
        self.stream = stream
        self.gzip_records = gzip_records

    def write_response(self, url, http_headers: bytes, body: bytes, content_encoding=None):
        decoded = gzip.decompress(body) if content_encoding == "gzip" else body
        block = http_headers + b"\\r\\n" + body
        headers = {
            "WARC-Type": "response",
            "WARC-Record-ID": f"<urn:uuid:{uuid.uuid4()}>",
            "WARC-Date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "WARC-Target-URI": url,
            "Content-Type": "application/http; msgtype=response",
            "WARC-Payload-Digest": "sha1:" + _b32(hashlib.sha1(decoded).digest()),
            "Content-Length": str(len(http_headers) + 2 + len(decoded)),
        }
        self._emit(headers, block)
'''


@scenario
def k16():
    r = Run("k16_warc_crawler_claude", "claude-code", source="claude-code")
    c = Case(r)
    u1 = r.user("strata writes WARC records with the wrong Content-Length when the payload is gzip-encoded, and warcio "
                "rejects the files. Fix that, and honour robots.txt Crawl-delay; a museum site blocked us last week. "
                "Never crawl more than 2 requests per second per host.")
    r.tool("Read", {"file_path": "/srv/strata/strata/warc/writer.py"}, WRITER_PY)
    a1 = r.asst("Content-Length is computed from the decoded body while the block holds the encoded bytes. "
                "I'll compute Content-Length from the bytes actually written to the record block. "
                "I'll honour Crawl-delay in strata/robots.py and feed it into the per-host scheduler. "
                "I'll validate the output with `warcio check` on a test crawl after both changes.")
    r.tool("Edit", {"file_path": "/srv/strata/strata/warc/writer.py",
                    "old_string": "            \"Content-Length\": str(len(http_headers) + 2 + len(decoded)),",
                    "new_string": "            \"Content-Length\": str(len(block)),"},
           "The file /srv/strata/strata/warc/writer.py has been updated.")
    r.bash("pytest -q tests/test_writer.py", "...........\n11 passed in 0.38s")
    r.asst("Fixed: Content-Length is computed from the bytes written to the record block — done, tests/test_writer.py passes.")
    r.tool("Edit", {"file_path": "/srv/strata/strata/robots.py",
                    "old_string": "        elif field == \"disallow\":",
                    "new_string": "        elif field == \"crawl-delay\":\n            group.crawl_delay = _parse_delay(value)\n"
                                  "        elif field == \"disallow\":"},
           "The file /srv/strata/strata/robots.py has been updated.")
    r.bash("pytest -q tests/test_robots.py", "........\n8 passed in 0.12s")
    r.asst("Crawl-delay is parsed into the robots group now; the scheduler doesn't use it yet. Starting a 200-page test "
           "crawl with the writer fix so there is something to validate.")
    h, _ = r.call("Bash", {"command": "python -m strata crawl --seeds seeds/museums.txt --max-pages 200 --out out/test-crawl.warc.gz",
                           "run_in_background": False, "timeout": 600000})
    s1 = cc([
        ("Primary Request and Intent",
         "   Fix strata's WARC Content-Length for gzip-encoded payloads (warcio rejects the files) and honour robots.txt\n"
         "   Crawl-delay after a museum site blocked us. Never crawl more than 2 requests per second per host."),
        ("Key Technical Concepts",
         "   - WARC record block = HTTP headers + CRLF + raw (still encoded) body; Content-Length must count the block\n"
         "   - robots groups carry crawl_delay; the per-host scheduler enforces a minimum interval"),
        ("Files and Code Sections",
         "   - strata/warc/writer.py: Content-Length = len(block) (fixed, tests/test_writer.py passes)\n"
         "   - tests/test_robots.py: 8 tests pass with Crawl-delay parsing in the robots module"),
        ("Errors and fixes", "   - Content-Length mismatch fixed."),
        ("All user messages",
         "   - \"strata writes WARC records with the wrong Content-Length when the payload is gzip-encoded, and warcio rejects "
         "the files. Fix that, and honour robots.txt Crawl-delay; a museum site blocked us last week. Never crawl more than 2 "
         "requests per second per host.\""),
        ("Pending Tasks",
         "   - Honour Crawl-delay: parsing is done in the robots module; feed the delay into the per-host scheduler\n"
         "   - Validate the output with `warcio check` on the test crawl after both changes"),
        ("Current Work",
         "   Test crawl running as tool call %s:\n"
         "   `python -m strata crawl --seeds seeds/museums.txt --max-pages 200 --out out/test-crawl.warc.gz` (result not back yet)." % h),
        ("Optional Next Step", "   When the crawl returns, run `warcio check out/test-crawl.warc.gz`."),
    ])
    q1, _ = r.compact(s1)
    r.result(h, "seeds: 14 hosts\nrobots: 14 fetched, 3 with Crawl-delay (ignored: scheduler not wired)\n"
                "crawled 200 pages in 212.4 s (max 2.0 req/s per host)\nwrote out/test-crawl.warc.gz (412 records, 48.1 MB)")
    k = c.comp(q1, "violate")
    k.item("identifier", None, "strata/robots.py", ["dropped"])
    k.item("commitment", a1, "Crawl-delay", "retained")
    k.item("commitment", a1, "warcio check", "retained")
    k.item("handle", None, h, "retained")
    k.notreq("commitment", a1, "Content-Length")
    k.item("constraint", u1, "2 requests per second", "retained")
    k.cons(planner=True, router=True, verifier=True)

    r.tool("Edit", {"file_path": "/srv/strata/strata/scheduler.py",
                    "old_string": "        interval = 1.0 / self.max_rate",
                    "new_string": "        interval = max(1.0 / self.max_rate, robots.crawl_delay(host) or 0.0)"},
           "The file /srv/strata/strata/scheduler.py has been updated.")
    r.bash("pytest -q tests/test_scheduler.py", ".......\n7 passed in 0.51s")
    r.asst("Crawl-delay from strata/robots.py now feeds the per-host scheduler, never below the 2 req/s cap — done.")
    _, _, e2 = r.bash("warcio check out/test-crawl.warc.gz",
                      "out/test-crawl.warc.gz\n  record 117 (revisit): payload digest mismatch\n  1 of 412 records invalid",
                      is_error=True)
    a2 = r.asst("Revisit records are supposed to carry the original response's payload digest, but the writer now hashes "
                "the empty revisit block. I'll keep WARC-Payload-Digest from the original record for revisits.")
    r.tool("Read", {"file_path": "/srv/strata/strata/warc/dedupe.py"},
           "def make_revisit(writer, url, original):\n    writer.write_record(\n        \"revisit\", url, block=b\"\",\n"
           "        extra={\"WARC-Refers-To\": original.record_id, \"WARC-Profile\": IDENTICAL_PAYLOAD_DIGEST},\n    )\n")
    s2 = cc([
        ("Primary Request and Intent",
         "   strata: correct Content-Length for gzip payloads, honour robots.txt Crawl-delay; never more than 2 requests per\n"
         "   second per host."),
        ("Files and Code Sections",
         "   - strata/warc/writer.py: Content-Length = len(block)\n"
         "   - strata/robots.py + strata/scheduler.py: Crawl-delay parsed and enforced (done)\n"
         "   - strata/warc/dedupe.py: make_revisit passes block=b\"\" and no payload digest"),
        ("Errors and fixes",
         "   - `warcio check out/test-crawl.warc.gz`: record 117 (revisit) payload digest mismatch, 1 of 412 records\n"
         "     invalid — not fixed yet."),
        ("All user messages",
         "   - \"strata writes WARC records with the wrong Content-Length when the payload is gzip-encoded, and warcio rejects "
         "the files. Fix that, and honour robots.txt Crawl-delay; a museum site blocked us last week. Never crawl more than 2 "
         "requests per second per host.\""),
        ("Pending Tasks",
         "   - Keep WARC-Payload-Digest from the original record for revisit records (strata/warc/dedupe.py)\n"
         "   - Validate the output with `warcio check` on the test crawl: it ran once and failed on record 117; re-run after\n"
         "     the revisit fix"),
        ("Current Work", "   Reading strata/warc/dedupe.py to pass the original digest through make_revisit."),
        ("Optional Next Step", "   Add `WARC-Payload-Digest: original.payload_digest` in make_revisit, re-crawl, re-check."),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "degrade")
    k.item("commitment", a2, "WARC-Payload-Digest", "retained")
    k.item("commitment", a1, "warcio check", "retained")
    k.item("error", e2, "", "retained")
    k.notreq("commitment", a1, "Crawl-delay")
    k.item("constraint", u1, "2 requests per second", "retained")
    k.cons(planner=True, router=True, verifier=True)
    c.none("orphaned_result")
    return r, c


# ---------------------------------------------------------------------------
# k17  crossword autofill (TypeScript), Gemini snapshot, 2 compactions
#   #1 degrade: in-progress item described twice (task_state + recent_actions)
#   #2 degrade: very heavy loss (long profiles, word lists, source reads) but
#      every open item is kept: magnitude alone never violates
# ---------------------------------------------------------------------------
SYL = ("ab ac ad al am an ar as at ba be bi bo ca ce co da de di do ea ed el em en er es et fa fe fi fo ga ge "
       "go ha he hi ho ic id il im in ir is it la le li lo ma me mi mo na ne ni no ob oc od ol om on or os ot "
       "pa pe pi po ra re ri ro sa se si so ta te ti to ul um un ur us ut va ve vi vo").split()


def words(rng, n, lo=3, hi=9):
    out = []
    while len(out) < n:
        w = "".join(rng.choice(SYL) for _ in range(rng.randint(2, 4)))[: rng.randint(lo, hi)]
        if len(w) >= lo:
            out.append(w.upper())
    return out


SEARCH_TS = '''import type { Grid, Slot, Fill } from "../grid";
import { candidatesFor } from "./candidates";

export interface SearchOptions {
  blocklist: Set<string>;
  maxNodes?: number;
}

/** Depth-first fill with chronological backtracking. */
export function search(grid: Grid, opts: SearchOptions): Fill | null {
  const slots = orderSlots(grid.slots);
  const assignment = new Map<Slot, string>();
  let nodes = 0;

  function step(i: number): boolean {
    if (i === slots.length) return true;
    if (opts.maxNodes && ++nodes > opts.maxNodes) return false;
    const slot = slots[i];
    for (const word of candidatesFor(grid, slot, assignment)) {
      if (opts.blocklist.has(word)) continue;
      assignment.set(slot, word);
      if (step(i + 1)) return true;
      assignment.delete(slot);
    }
    return false; // chronological: back up one slot
  }

  return step(0) ? toFill(grid, assignment) : null;
}

function orderSlots(slots: Slot[]): Slot[] {
  return [...slots].sort((a, b) => a.length - b.length || a.crossings - b.crossings);
}
'''


@scenario
def k17():
    r = Run("k17_crossword_autofill_gemini", "gemini-cli", source="gemini-cli", idstyle="gemini")
    c = Case(r)
    u1 = r.user("gridwright's autofill gets stuck on 15×15 grids with lots of 3-letter slots. Add conflict-directed "
                "backjumping to the filler. Never use words from wordlists/blocklist.txt in a fill.")
    steps = [("a", "Profile autofill on grids/stuck-15x15.json"),
             ("b", "Implement conflict-directed backjumping in src/fill/search.ts"),
             ("c", "Cache slot candidates by pattern"),
             ("d", "Add a 30 s timeout that returns the best partial fill")]

    def plan(*st):
        return r.plan([(i, t, s) for (i, t), s in zip(steps, st)])
    plan("in_progress", "pending", "pending", "pending")
    prof = ["slot %3d  len %d  tries %7d  backtracks %6d  %s" % (i, r.rng.choice([3, 3, 3, 4, 5, 7, 15]),
                                                                 r.rng.randint(10, 900000), r.rng.randint(0, 400000),
                                                                 r.rng.choice(["ACROSS", "DOWN"])) for i in range(78)]
    r.bash("npx tsx scripts/profile-fill.ts grids/stuck-15x15.json --max-nodes 2000000",
           "grid grids/stuck-15x15.json: 78 slots (38 of length 3), 191 black squares\n" + "\n".join(prof) +
           "\nresult: gave up after 2,000,000 nodes (61.8 s); deepest slot reached: 54\n"
           "hot spot: slots 41-47 (NE corner) re-tried 1.6M times after failures in slot 53", name="run_shell_command")
    plan("completed", "in_progress", "pending", "pending")
    r.tool("read_file", {"absolute_path": "/home/fen/gridwright/src/fill/search.ts"}, SEARCH_TS)
    r.asst("The NE corner is re-filled over a million times even though slot 53's failures come from the SW corner: "
           "classic thrashing from chronological backtracking. Backjumping to the most recent slot in the conflict set "
           "avoids that.")
    r.tool("replace", {"file_path": "/home/fen/gridwright/src/fill/search.ts",
                       "old_string": "    return false; // chronological: back up one slot",
                       "new_string": "    conflicts.get(slot)!.forEach((s) => conflicts.get(slots[i - 1])?.add(s));\n"
                                     "    return false; // TODO(backjump): jump to max(conflicts) instead of i - 1"},
           "Successfully modified file: /home/fen/gridwright/src/fill/search.ts (1 replacements).")
    s1 = snapshot([
        ("overall_goal", "Stop gridwright's autofill from stalling on 15×15 grids with many 3-letter slots by adding conflict-directed backjumping."),
        ("active_constraints", "- Never use words from wordlists/blocklist.txt in a fill."),
        ("key_knowledge", "- Profile: gave up after 2,000,000 nodes (61.8 s); NE corner slots 41-47 re-tried 1.6M times after failures in slot 53.\n"
                          "- search.ts uses chronological backtracking; blocklist is checked per candidate."),
        ("file_system_state", "- MODIFIED: src/fill/search.ts (conflict sets per slot)\n- READ: scripts/profile-fill.ts output"),
        ("recent_actions", "- Started backjumping in src/fill/search.ts: conflict sets are collected per slot, the jump to the "
                           "most recent conflicting slot is not wired in yet."),
        ("task_state", "1. [DONE] Profile autofill on grids/stuck-15x15.json\n"
                       "2. [IN PROGRESS] Implement conflict-directed backjumping in src/fill/search.ts\n"
                       "3. [TODO] Cache slot candidates by pattern\n"
                       "4. [TODO] Add a 30 s timeout that returns the best partial fill"),
    ])
    q1, _ = r.compact(s1)
    k = c.comp(q1, "degrade")
    k.item("commitment", None, "backjumping", "retained")
    k.item("commitment", None, "Cache slot candidates", "retained")
    k.item("commitment", None, "timeout", "retained")
    k.notreq("commitment", None, "Profile autofill")
    k.item("constraint", u1, "blocklist", "retained")
    k.item("identifier", None, "wordlists/blocklist.txt", "retained")
    k.cons(planner=True, router=True, verifier=True)

    # a long, realistic stretch of work: word lists, candidate dumps, repeated profiles
    for name, n in (("wordlists/core.txt", 2400), ("wordlists/themes/rivers.txt", 900), ("wordlists/abbrev3.txt", 1200)):
        r.bash("head -n %d %s" % (n, name), "\n".join("%s;%d" % (w, r.rng.randint(20, 60)) for w in words(r.rng, n)),
               name="run_shell_command")
    r.tool("read_file", {"absolute_path": "/home/fen/gridwright/src/fill/candidates.ts"},
           "import type { Grid, Slot } from \"../grid\";\nimport { WordIndex } from \"../words\";\n\n"
           "export function* candidatesFor(grid: Grid, slot: Slot, assignment: Map<Slot, string>): Generator<string> {\n"
           "  const pattern = patternFor(grid, slot, assignment); // e.g. \"A?E\"\n"
           "  for (const w of WordIndex.byLength(slot.length)) {\n    if (matches(w, pattern)) yield w;\n  }\n}\n" * 6)
    r.tool("replace", {"file_path": "/home/fen/gridwright/src/fill/search.ts",
                       "old_string": "    return false; // TODO(backjump): jump to max(conflicts) instead of i - 1",
                       "new_string": "    jumpTo = Math.max(...[...conflicts.get(slot)!].map((s) => slots.indexOf(s)));\n    return false;"},
           "Successfully modified file: /home/fen/gridwright/src/fill/search.ts (1 replacements).")
    for attempt in range(3):
        prof = ["slot %3d  len %d  tries %6d  jumps %5d" % (i, r.rng.choice([3, 3, 4, 5, 7]), r.rng.randint(5, 9000),
                                                            r.rng.randint(0, 800)) for i in range(78)]
        r.bash("npx tsx scripts/profile-fill.ts grids/stuck-15x15.json --max-nodes 2000000 --seed %d" % (11 + attempt),
               "grid grids/stuck-15x15.json: 78 slots (38 of length 3)\n" + "\n".join(prof) +
               "\nresult: filled in %d nodes (%.1f s)" % (r.rng.randint(30000, 90000), r.rng.uniform(1.2, 3.8)),
               name="run_shell_command")
    fills = "\n".join("".join(r.rng.choice("ABCDEGHILMNORSTU#") for _ in range(15)) for _ in range(15))
    r.bash("npx vitest run test/fill", " RUN  v1.6.0 /home/fen/gridwright\n\n ✓ test/fill/search.spec.ts  (31 tests) 2140ms\n"
                                       " ✓ test/fill/blocklist.spec.ts  (6 tests) 88ms\n\n Test Files  2 passed (2)\n      Tests  37 passed (37)\n",
           name="run_shell_command")
    r.bash("npx tsx scripts/fill.ts grids/stuck-15x15.json --print", fills + "\nblocklisted words used: 0", name="run_shell_command")
    plan("completed", "completed", "in_progress", "pending")
    r.asst("Backjumping is in: the stuck grid now fills in 30k-90k nodes across three seeds instead of giving up at 2M, "
           "the 37 fill tests pass, and no blocklisted word appears. Starting on the per-pattern candidate cache.")
    r.tool("read_file", {"absolute_path": "/home/fen/gridwright/src/words/index.ts"},
           "export class WordIndex {\n  private static byLen = new Map<number, string[]>();\n"
           "  static load(lists: string[], blocklist: Set<string>) {\n    for (const list of lists) {\n"
           "      for (const line of readLines(list)) {\n        const [word, score] = line.split(\";\");\n"
           "        if (blocklist.has(word)) continue;\n        push(this.byLen, word.length, word, Number(score));\n"
           "      }\n    }\n  }\n}\n" * 4)
    s2 = snapshot([
        ("overall_goal", "Conflict-directed backjumping and faster autofill for gridwright on 15×15 grids."),
        ("active_constraints", "- Never use words from wordlists/blocklist.txt in a fill."),
        ("key_knowledge", "- Backjumping fixed the stall: 30k-90k nodes instead of giving up at 2M; 37 fill tests pass."),
        ("file_system_state", "- MODIFIED: src/fill/search.ts\n- READ: src/fill/candidates.ts, src/words/index.ts"),
        ("recent_actions", "- Working on the pattern cache for slot candidates (candidates.ts rescans the length bucket per call)."),
        ("task_state", "1. [DONE] Profile autofill on grids/stuck-15x15.json\n"
                       "2. [DONE] Implement conflict-directed backjumping in src/fill/search.ts\n"
                       "3. [IN PROGRESS] Cache slot candidates by pattern\n"
                       "4. [TODO] Add a 30 s timeout that returns the best partial fill"),
    ])
    q2, _ = r.compact(s2)
    k = c.comp(q2, "degrade")
    k.item("commitment", None, "Cache slot candidates", "retained")
    k.item("commitment", None, "timeout", "retained")
    k.notreq("commitment", None, "backjumping")
    k.item("constraint", u1, "blocklist", "retained")
    k.item("identifier", None, "wordlists/blocklist.txt", "retained")
    k.cons(planner=True, router=True, verifier=True)
    return r, c


# ---------------------------------------------------------------------------
# k18  real-estate listing feed import (Laravel), OpenHands fields + self-reports,
#      3 compactions
#   #1 degrade: a failing test reported only as "Process exited with code 1"
#      (not flagged is_error) is kept; every claim agrees
#   #2 violate: the resolved test failure is reported as still failing
#      (resurrected); the user's restated rule is kept
#   #3 degrade: in-flight staging migration kept by id and claimed (agree); a
#      stale claim about finished work is only informational
# ---------------------------------------------------------------------------
IMPORT_PHP = '''<?php

namespace App\\Jobs;

use App\\Models\\Listing;
use App\\Reso\\FeedClient;
use Illuminate\\Bus\\Queueable;
use Illuminate\\Contracts\\Queue\\ShouldQueue;

class ImportResoFeed implements ShouldQueue
{
    use Queueable;

    public function __construct(private string $feed) {}

    public function handle(FeedClient $client): void
    {
        foreach ($client->pages($this->feed) as $page) {
            foreach ($page['value'] as $row) {
                Listing::updateOrCreate(
                    ['listing_id' => $row['ListingId']],
                    [
                        'listing_key' => $row['ListingKey'],
                        'standard_status' => $row['StandardStatus'],
                        'list_price' => $row['ListPrice'],
                        'modification_timestamp' => $row['ModificationTimestamp'],
                        'raw' => $row,
                    ],
                );
            }
        }
    }
}
'''


@scenario
def k18():
    r = Run("k18_reso_import_openhands", "openhands", source="openhands", idstyle="oh")
    c = Case(r)
    u1 = r.user("The RESO feed import in hearth duplicates a listing when its status changes from Active to Pending. "
                "Use ListingKey as the upsert key instead of ListingId. Never hard-delete listings; set StandardStatus "
                "to Withdrawn instead.")
    r.tool("str_replace_editor", {"command": "view", "path": "/workspace/hearth/app/Jobs/ImportResoFeed.php"}, IMPORT_PHP)
    a1 = r.asst("ListingId changes when some MLSs relist or change status; ListingKey is the stable one. "
                "I'll switch the upsert key to ListingKey in ImportResoFeed. "
                "I'll write a migration that merges the existing duplicate rows, keeping the newest by ModificationTimestamp.")
    r.tool("str_replace_editor", {"command": "str_replace", "path": "/workspace/hearth/app/Jobs/ImportResoFeed.php",
                                  "old_str": "                    ['listing_id' => $row['ListingId']],\n                    [\n                        'listing_key' => $row['ListingKey'],",
                                  "new_str": "                    ['listing_key' => $row['ListingKey']],\n                    [\n                        'listing_id' => $row['ListingId'],"},
           "The file /workspace/hearth/app/Jobs/ImportResoFeed.php has been edited.")
    _, _, e1 = r.bash("php artisan test --filter=ImportResoFeedTest",
                      "\n   FAIL  Tests\\Feature\\ImportResoFeedTest\n  ✓ it imports new listings                                   0.21s\n"
                      "  ⨯ it updates a listing in place when its status changes      0.09s\n"
                      "  ✓ it stores the raw payload                                  0.02s\n"
                      "  ────────────────────────────────────────────────────────────────────\n"
                      "   FAILED  Tests\\Feature\\ImportResoFeedTest > it updates a listing in place when its status changes\n"
                      "  Failed asserting that 2 matches expected 1.\n\n  at tests/Feature/ImportResoFeedTest.php:58\n"
                      "     54▕         $this->runImport('status_change.json');\n     58▕         $this->assertSame(1, Listing::count());\n\n"
                      "  Tests:    1 failed, 11 passed (37 assertions)\n  Duration: 1.42s\n\nProcess exited with code 1.",
                      is_error=False, name="execute_bash")
    r.asst("The fixture factory gives the status-change row a fresh ListingKey, so the test itself creates two listings. "
           "The factory state is what's wrong here, not the job.")
    s1 = fields([
        ("USER_CONTEXT", "hearth's RESO feed import duplicates a listing when StandardStatus changes Active -> Pending. Use "
                         "ListingKey (not ListingId) as the upsert key. Never hard-delete listings; set StandardStatus to "
                         "Withdrawn instead."),
        ("COMPLETED", "Read app/Jobs/ImportResoFeed.php (updateOrCreate keyed on listing_id)."),
        ("PENDING", "\n- Switch the upsert key to ListingKey in ImportResoFeed (code changed, test not yet green)\n"
                    "- Write a migration that merges existing duplicate rows, keeping the newest by ModificationTimestamp"),
        ("CURRENT_STATE", "Fixing the ListingFactory status-change state, which assigns a new ListingKey."),
        ("CODE_STATE", "app/Jobs/ImportResoFeed.php: updateOrCreate(['listing_key' => ...])"),
        ("TESTS", "`php artisan test --filter=ImportResoFeedTest` exits with code 1: \"it updates a listing in place when its "
                  "status changes\" — Failed asserting that 2 matches expected 1 (tests/Feature/ImportResoFeedTest.php:58)."),
        ("VERSION_CONTROL_STATUS", "branch fix/reso-upsert-key, uncommitted"),
    ])
    q1, _ = r.compact(s1, self_report={"retained": ["switch the upsert key to ListingKey",
                                                    "write a migration that merges duplicate rows",
                                                    "ImportResoFeedTest failure"],
                                       "claim": "open work and failing tests preserved"})
    k = c.comp(q1, "degrade")
    k.item("commitment", a1, "upsert key", "retained", self_report="agree")
    k.item("commitment", a1, "migration", "retained", self_report="agree")
    k.item("error", e1, "", "retained", self_report="agree")
    k.item("constraint", u1, "hard-delete", "retained", self_report="underclaim")
    k.cons(planner=True, router=True, verifier=True)

    r.tool("str_replace_editor", {"command": "str_replace", "path": "/workspace/hearth/database/factories/ListingFactory.php",
                                  "old_str": "            'ListingKey' => $this->faker->uuid(),\n            'StandardStatus' => 'Pending',",
                                  "new_str": "            'ListingKey' => $attributes['ListingKey'],\n            'StandardStatus' => 'Pending',"},
           "The file /workspace/hearth/database/factories/ListingFactory.php has been edited.")
    r.bash("php artisan test --filter=ImportResoFeedTest",
           "\n   PASS  Tests\\Feature\\ImportResoFeedTest\n  ✓ it imports new listings                                   0.20s\n"
           "  ✓ it updates a listing in place when its status changes      0.08s\n  ✓ it stores the raw payload                                  0.02s\n\n"
           "  Tests:    12 passed (39 assertions)\n  Duration: 1.37s", name="execute_bash")
    r.asst("Switched the upsert key to ListingKey; done — ImportResoFeedTest passes (12).")
    r.tool("str_replace_editor", {"command": "create", "path": "/workspace/hearth/database/migrations/2025_06_02_000000_merge_duplicate_listings.php",
                                  "file_text": "<?php\n\nreturn new class extends Migration {\n    public function up(): void\n    {\n"
                                               "        DB::statement(<<<'SQL'\n            DELETE FROM listings WHERE id IN (\n"
                                               "              SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY listing_key ORDER BY modification_timestamp DESC) AS rn FROM listings) d\n"
                                               "              WHERE d.rn > 1)\n        SQL);\n    }\n};\n"},
           "File created successfully at: /workspace/hearth/database/migrations/2025_06_02_000000_merge_duplicate_listings.php")
    r.bash("php artisan migrate --pretend",
           "  2025_06_02_000000_merge_duplicate_listings ..................................................\n"
           "  ⇂ DELETE FROM listings WHERE id IN ( SELECT id FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY listing_key "
           "ORDER BY modification_timestamp DESC) AS rn FROM listings) d WHERE d.rn > 1)", name="execute_bash")
    r.user("That migration deletes rows. I said never hard-delete listings. Mark the older duplicates Withdrawn instead.")
    a2 = r.asst("Right, sorry. I'll rewrite the merge migration to set StandardStatus to Withdrawn on the older duplicates "
                "instead of deleting them.")
    s2 = fields([
        ("USER_CONTEXT", "RESO import in hearth: upsert on ListingKey. Never hard-delete listings (the user repeated this after a "
                         "DELETE migration); set StandardStatus to Withdrawn instead."),
        ("COMPLETED", "Upsert key switched to ListingKey in app/Jobs/ImportResoFeed.php; ListingFactory status-change state fixed."),
        ("PENDING", "\n- Rewrite the merge migration (database/migrations/2025_06_02_000000_merge_duplicate_listings.php) to set "
                    "StandardStatus = Withdrawn on older duplicates, keeping the newest by ModificationTimestamp; no DELETE."),
        ("CURRENT_STATE", "Migration currently issues DELETE (seen with `php artisan migrate --pretend`)."),
        ("TESTS", "ImportResoFeedTest: \"it updates a listing in place when its status changes\" still failing (2 vs 1, "
                  "tests/Feature/ImportResoFeedTest.php:58)."),
        ("VERSION_CONTROL_STATUS", "branch fix/reso-upsert-key, uncommitted"),
    ])
    q2, _ = r.compact(s2, self_report={"retained": ["rewrite the merge migration to set StandardStatus to Withdrawn"],
                                       "claim": "pending work preserved"})
    k = c.comp(q2, "violate")
    k.item("error", e1, "", "resurrected")
    k.item("commitment", a2, "Withdrawn", "retained", self_report="agree")
    k.item("commitment", a1, "migration", "retained")
    k.notreq("commitment", a1, "upsert key")
    k.item("constraint", u1, "hard-delete", "retained")
    # the user's restatement at u2 normalizes to the same instruction as u1: one item (origin u1)
    k.cons(planner=True, router=True)

    r.tool("str_replace_editor", {"command": "str_replace", "path": "/workspace/hearth/database/migrations/2025_06_02_000000_merge_duplicate_listings.php",
                                  "old_str": "            DELETE FROM listings WHERE id IN (",
                                  "new_str": "            UPDATE listings SET standard_status = 'Withdrawn' WHERE id IN ("},
           "The file /workspace/hearth/database/migrations/2025_06_02_000000_merge_duplicate_listings.php has been edited.")
    r.bash("php artisan migrate --pretend && php artisan test",
           "  2025_06_02_000000_merge_duplicate_listings ..................................................\n"
           "  ⇂ UPDATE listings SET standard_status = 'Withdrawn' WHERE id IN ( SELECT id FROM (...) d WHERE d.rn > 1)\n\n"
           "  Tests:    148 passed (512 assertions)\n  Duration: 9.84s", name="execute_bash")
    r.asst("Rewrote the merge migration: it marks older duplicates Withdrawn (newest by ModificationTimestamp kept) and "
           "deletes nothing — done. Full suite passes (148).")
    u3 = r.user("Run it against staging and tell me how many listings were marked Withdrawn.")
    a3 = r.asst("I'll run the migration on staging and report the Withdrawn count.")
    h, _ = r.call("execute_bash", {"command": "php artisan migrate --env=staging --force"})
    s3 = fields([
        ("USER_CONTEXT", "RESO import fix in hearth (ListingKey upsert). Never hard-delete listings; older duplicates are set to "
                         "Withdrawn. The user wants the staging run's Withdrawn count."),
        ("COMPLETED", "ListingKey upsert; merge migration marks older duplicates Withdrawn (no DELETE); 148 tests pass."),
        ("PENDING", "- Run the migration on staging and report how many listings were marked Withdrawn."),
        ("CURRENT_STATE", "Staging migration running as %s (`php artisan migrate --env=staging --force`); waiting for its result." % h),
        ("TESTS", "All green (148)."),
        ("VERSION_CONTROL_STATUS", "branch fix/reso-upsert-key"),
    ])
    q3, _ = r.compact(s3, self_report={"retained": [h, "run the migration on staging and report the Withdrawn count",
                                                    "switch the upsert key to ListingKey"],
                                       "claim": "in-flight call and pending report preserved"})
    r.result(h, "\n   INFO  Running migrations.\n\n  2025_06_02_000000_merge_duplicate_listings ............... 1,284.11ms DONE\n\n"
                "merge_duplicate_listings: 318 listings set to Withdrawn")
    k = c.comp(q3, "degrade")
    k.item("handle", None, h, "retained", self_report="agree")
    k.item("commitment", a3, "staging", "retained", self_report="agree")
    k.notreq("commitment", a1, "upsert key")
    k.notreq("commitment", a2, "Withdrawn")
    k.notreq("error", e1, "")
    k.item("constraint", u1, "hard-delete", "retained")
    k.cons(planner=True, router=True, verifier=True)
    r.asst("The staging run marked 318 older duplicate listings Withdrawn; nothing was deleted.")
    c.none("orphaned_result")
    c.none("false_completion")
    return r, c


def main():
    cases = []
    for fn in SCENARIOS:
        run, case = fn()
        run.write()
        cases.append(case.to_json())
    with open(os.path.join(OUT, "labels.json"), "w", encoding="utf-8") as f:
        json.dump({"cases": cases}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    n = sum(len(c["compactions"]) for c in cases)
    print("wrote %d transcripts, %d compactions" % (len(cases), n))


if __name__ == "__main__":
    main()
