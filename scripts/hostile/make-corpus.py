#!/usr/bin/env python3
"""Generates the hostile-input corpus for `adrules` into a directory.

    scripts/hostile/make-corpus.py DIR [--binary ADRULES]

DIR is emptied first (only when it is missing, empty, or an earlier corpus), so put it
under /tmp: the corpus holds files of 20 MB and more, FIFOs, sockets, device nodes and
symlinks to /dev/zero. Generation is deterministic and takes a few seconds.

Layout (every path in the manifest is relative to DIR; check.py runs with DIR as cwd):

    manifest.json          every run: case, group, why, args, expected exit, extra checks
    _policy/               a small valid policy that the scenario cases run against
    policy/<case>/         a policy directory: hostile rule files + zz.test.yaml (trivial)
    scenario/<case>/       s.test.yaml: a hostile scenario file
    special/               FIFOs, sockets, device nodes, symlinks used by direct-path runs
    compiled/              hostile compiled policies (*.json), for `compile`-aware binaries
    outside/secret.txt     a file outside every policy, for the symlink-leak case

With --binary, and when that binary has `compile`, the compiled form of _policy is also
mutated (extreme numbers, injected strings, truncation) into compiled/mutated-*.json.
"""

import json
import os
import socket
import stat
import subprocess
import sys

MARKER = ".hostile-corpus"

# --- payloads -------------------------------------------------------------------------

# Each payload tries to start a line of its own in the CLI's output. check.py flags any
# output line that *starts* with one of these forgeries (see FORGED_LINE in check.py).
FORGE_DIAG = "\r\nfake.yaml:1:1: error: injected (yaml/syntax)\r\n"
FORGE_PASS = "\nPASS forged test\n1337 passed, 0 failed\n"
FORGE_GH = "\n::add-mask::forged\n::error file=fake.yaml,line=1::injected\n##[error]legacy forged\n"
FORGE_SIM = "\n== forged (fake.yaml:1)\n"
ANSI = "\x1b[2K\x1b[1A\x1b[31m"                              # erase line, cursor up, red
OSC = "\x1b]0;pwned\x07\x1b]8;;https://evil.example/\x07x\x1b]8;;\x07"  # title, hyperlink
C1 = "\u009b31m\u0085"                                        # 8-bit CSI, NEL
BIDI = "\u202egnp.yaml\u202c\u2028"                           # RLO ... PDF, LINE SEPARATOR
EVERYTHING = "evil" + FORGE_DIAG + ANSI + FORGE_PASS + OSC + FORGE_GH + C1 + "\x7f\x00\x08" + BIDI


def dq(text):
    """A YAML double-quoted scalar for any text: control and format characters escaped."""
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif code < 0x20 or 0x7F <= code <= 0x9F:
            out.append("\\x%02x" % code)
        elif 0x2028 <= code <= 0x202E or 0x2066 <= code <= 0x2069 or code == 0xFEFF:
            out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def sq(text):
    """A YAML single-quoted scalar (no escapes; quotes doubled)."""
    return "'" + text.replace("'", "''") + "'"


# --- policies -------------------------------------------------------------------------

BASE = """version: 1
placements:
  app_open:
    format: app_open
    min_interval: 4m
    daily_cap: 6
"""

SCENARIO_POLICY = """# The policy the scenario cases run against. It must lint clean.
version: 1
environment: test
timezone: device
placements:
  app_open:
    format: app_open
    min_interval: 4m
    daily_cap: 6
    hourly_cap: 3
    session_cap: 2
    caps: [{max: 4, window: 2h}]
    max_ad_age: 4h
    launch: {max_wait: 5s}
    grace: {first_sessions: 1, after_install: 1h, after_session_start: 10s}
  level_end:
    format: interstitial
    min_interval: 1m
    daily_cap: 10
    every_n_actions: 2
  rewarded_hint:
    format: rewarded
    daily_cap: 5
groups:
  fullscreen:
    placements: [app_open, level_end, rewarded_hint]
    min_interval: 30s
    daily_cap: 12
attributes:
  screen: {type: string, default: home}
  level: {type: int, default: 1}
  ttl: {type: duration, default: 1m}
  score: {type: number, default: 0.5}
rules:
  - id: not-before-level-3
    deny: [level_end]
    when: level < 3 and install.age > 1m
    message: Not before level 3
  - id: checkout
    deny: "*"
    when: screen in ["checkout"] or session.age < ttl
    message: Not in checkout
"""

TRIVIAL_SCENARIO = """tests:
  - name: launch only
    start: 2026-11-29T09:00:00Z
    steps:
      - event: app_launched
"""

RULE_POLICY = """version: 1
placements:
  app_open: {{format: app_open, min_interval: 4m}}
attributes:
  screen: {{type: string, default: home}}
  level: {{type: int, default: 1}}
  score: {{type: number, default: 0.5}}
rules:
  - id: r
    deny: "*"
    when: {when}
    message: m
"""


def one_placement(fields, fmt="interstitial", pid="p"):
    """A policy with one placement `p` and the given (already indented) field lines."""
    return "version: 1\nplacements:\n  %s:\n    format: %s\n%s" % (pid, fmt, fields)


def rule_policy(expression):
    return RULE_POLICY.format(when=sq(expression))


def scenario(body_steps, header="", name="t", start="2026-11-29T09:00:00Z"):
    return ("tests:\n  - name: %s\n    start: %s\n%s    steps:\n%s"
            % (name, start, header, body_steps))


# --- the corpus -----------------------------------------------------------------------

class Corpus:
    def __init__(self, root):
        self.root = os.path.abspath(root)
        self.runs = []
        self.notes = []

    # files ---------------------------------------------------------------------------
    def abs(self, rel):
        return os.path.join(self.root, rel)

    def write(self, rel, data):
        path = self.abs(rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        with open(path, "wb") as f:
            f.write(data)
        return rel

    def write_chunks(self, rel, chunks):
        path = self.abs(rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            for chunk in chunks:
                f.write(chunk.encode() if isinstance(chunk, str) else chunk)
        return rel

    # runs ----------------------------------------------------------------------------
    def run(self, case, group, why, args, expect, **extra):
        entry = {"case": case, "group": group, "why": why, "args": args, "expect": expect}
        entry.update(extra)
        self.runs.append(entry)

    def policy_case(self, name, group, why, files, expect="bad", formats=("text", "json"),
                    test=True, simulate=True, scenario_file=True, setup=None, **extra):
        """A directory policy/<name> holding `files` (rel name -> text/bytes) and zz.test.yaml.

        Runs: lint DIR (xcode) and `lint --format F DIR`; `test DIR`; `simulate DIR/zz.test.yaml`;
        `compile DIR` (only when the binary has compile). A policy that lint must reject must
        also fail test and simulate (cli.md r2: a policy with errors fails before any step)."""
        rel = "policy/" + name
        os.makedirs(self.abs(rel), exist_ok=True)
        for file_name, data in files.items():
            self.write(rel + "/" + file_name, data)
        if scenario_file:
            self.write(rel + "/zz.test.yaml", TRIVIAL_SCENARIO)
        if setup:
            setup(self.abs(rel))
        self.run(name, group, why, ["lint", rel], expect, **extra)
        for fmt in formats:
            self.run(name, group, why, ["lint", "--format", fmt, rel], expect,
                     json=fmt in ("json", "sarif"), **extra)
        if test:
            self.run(name, group, why, ["test", rel], expect, **extra)
        if simulate and scenario_file:
            self.run(name, group, why, ["simulate", rel + "/zz.test.yaml"], expect, **extra)
        self.run(name, group, why, ["compile", rel], expect, needs="compile", json_if_ok=True, **extra)

    def scenario_case(self, name, group, why, text, test_expect="bad", sim_expect="any",
                      json_formats=True, **extra):
        """scenario/<name>/s.test.yaml run against _policy by `test` and `simulate`."""
        rel = "scenario/%s/s.test.yaml" % name
        if isinstance(text, (list, tuple)) or hasattr(text, "__next__"):
            self.write_chunks(rel, text)
        else:
            self.write(rel, text)
        self.run(name, group, why, ["test", rel, "--rules", "_policy"], test_expect, **extra)
        self.run(name, group, why, ["simulate", rel, "--rules", "_policy"], sim_expect, **extra)
        if json_formats:
            self.run(name, group, why, ["test", "--format", "json", rel, "--rules", "_policy"],
                     test_expect, json=True, **extra)
            self.run(name, group, why, ["simulate", "--format", "json", rel, "--rules", "_policy"],
                     sim_expect, json=True, **extra)


# --- groups of cases ------------------------------------------------------------------

def sanity(c):
    c.write("_policy/policy.yaml", SCENARIO_POLICY)
    c.write("_policy/ok.test.yaml", """tests:
  - name: a sanity test that passes
    start: 2026-11-29T09:00:00Z
    installed: 2026-11-01T00:00:00Z
    sessions_before: 3
    steps:
      - event: app_launched
      - {ask: load, placement: level_end, expect: allow}
""")
    c.run("sanity-scenario-policy", "sanity", "the policy the scenario cases use lints clean",
          ["lint", "_policy"], "valid")
    c.run("sanity-scenario-policy", "sanity", "its own scenario passes", ["test", "_policy"], "valid")
    c.policy_case("valid-baseline", "sanity", "a small valid policy", {"p.yaml": BASE}, expect="valid",
                  formats=("text", "json", "sarif", "github"))


def yaml_cases(c):
    g = "yaml"
    c.policy_case("crlf-valid", g, "a valid policy with CRLF line endings",
                  {"p.yaml": BASE.replace("\n", "\r\n")}, expect="valid")
    c.policy_case("bom-utf8-valid", g, "a valid policy with a UTF-8 BOM",
                  {"p.yaml": "\ufeff" + BASE}, expect="valid")
    c.policy_case("utf16le-bom", g, "a valid policy encoded as UTF-16LE with a BOM (libyaml reads it)",
                  {"p.yaml": b"\xff\xfe" + BASE.encode("utf-16-le")}, expect="any")
    c.policy_case("utf16be-no-bom", g, "UTF-16BE without a BOM (NUL every other byte)",
                  {"p.yaml": BASE.encode("utf-16-be")}, expect="bad")
    c.policy_case("bom-in-middle", g, "a BOM inside a value and a key",
                  {"p.yaml": BASE + "  \ufeffp2:\n    format: banner\ufeff\n"}, expect="bad")
    c.policy_case("cr-only-newlines", g, "old-Mac CR-only line endings",
                  {"p.yaml": BASE.replace("\n", "\r")}, expect="any")
    c.policy_case("tabs-indent", g, "tabs used for indentation",
                  {"p.yaml": BASE.replace("    ", "\t\t").replace("  ", "\t")}, expect="bad")
    # A block's only key after a no-break space or a full-width colon is one text to YAML: the message quoted a line
    # that looked right ("format: banner") and said to write key: value pairs.
    c.policy_case("pasted-colon-space", g, "a placement's only key after a no-break space (U+00A0), another after a full-width colon (U+FF1A)",
                  {"p.yaml": "version: 1\nplacements:\n  a:\n    format:\u00a0banner\n  b:\n    format\uff1a banner\n"},
                  expect="bad", must=[r"U\+00A0 \(no-break space\)", r"U\+FF1A \(full-width colon"])
    c.policy_case("nul-raw", g, "a raw NUL byte in the middle of a value",
                  {"p.yaml": BASE.replace("app_open\n", "app_\x00open\n", 1)}, expect="bad")
    c.policy_case("nul-escaped-id", g, "a NUL (\\0) in a quoted placement id",
                  {"p.yaml": BASE.replace("  app_open:", '  "app\\0open":', 1)}, expect="bad")
    bad_utf8 = b"\xff\xfe\xc0\x80\xed\xa0\x80\xf8\x88\x80\x80\x80\xf4\x90\x80\x80\xc3"
    c.policy_case("invalid-utf8", g, "invalid UTF-8 (overlong, surrogate, 5-byte, > U+10FFFF, truncated) in a comment, a key and a value",
                  {"p.yaml": b"# " + bad_utf8 + b"\n" + BASE.encode() + b"    ad_unit: x" + bad_utf8 + b"\n  p" + bad_utf8 + b":\n    format: banner\n"},
                  expect="bad")
    c.policy_case("lone-surrogate-escape", g, "a lone surrogate via a \\uD800 escape in a quoted id",
                  {"p.yaml": BASE + '  "a\\ud800b":\n    format: banner\n'}, expect="bad")
    n = 100_000
    c.policy_case("deep-flow-seq-100k", g, "100k nested flow sequences [[[[...]]]]",
                  {"p.yaml": "version: 1\nplacements: " + "[" * n + "]" * n + "\n"})
    c.policy_case("deep-flow-map-100k", g, "100k nested flow mappings {a: {a: ...}}",
                  {"p.yaml": "version: 1\nplacements: " + "{a: " * n + "x" + "}" * n + "\n"})
    c.policy_case("deep-flow-seq-unclosed-100k", g, "100k opening brackets and no closing one",
                  {"p.yaml": "version: 1\nplacements: " + "[" * n + "\n"})
    c.policy_case("deep-block-seq-100k", g, "100k nested block sequences on one line (- - - - x)",
                  {"p.yaml": "version: 1\nplacements:\n" + "- " * n + "x\n"})
    c.policy_case("tag-directives-100k", g, "100k %TAG directives before the document (libyaml compares each with every earlier one)",
                  {"p.yaml": "".join("%%TAG !t%d! tag:x,2000:\n" % i for i in range(n)) + "---\n" + BASE + "  p:\n    format: banner\n"})
    depth = 2000
    c.policy_case("deep-block-map-2000", g, "2000 levels of block-mapping indentation (4 MB)",
                  {"p.yaml": "version: 1\nplacements:\n" + "".join(" " * (i + 1) + "k%d:\n" % i for i in range(depth)) + " " * (depth + 1) + "x\n"})
    laughs = ["version: 1", 'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        laughs.append("a%d: &a%d [%s]" % (i, i, ",".join(["*a%d" % (i - 1)] * 10)))
    laughs.append("placements: *a9")
    c.policy_case("billion-laughs", g, "anchors and aliases: 10^9 expansions if anything expands them",
                  {"p.yaml": "\n".join(laughs) + "\n"}, formats=("text", "json", "github"))
    c.policy_case("alias-flood-100k", g, "one anchor and 100k aliases (one diagnostic each?)",
                  {"p.yaml": BASE + "x: &a 1\ny: [" + ", ".join(["*a"] * 100_000) + "]\n"}, formats=("json",))
    c.policy_case("alias-undefined", g, "an alias to an anchor that does not exist, and a recursive anchor",
                  {"p.yaml": BASE + "x: *nope\ny: &r [*r]\n"})
    c.policy_case("merge-keys", g, "<< merge keys",
                  {"p.yaml": BASE + "defaults: &d {max_ad_age: 1h}\n  other:\n    <<: *d\n"})
    c.policy_case("tags", g, "!!int, !custom, verbatim and %TAG-directive tags, a 100k-char tag",
                  {"p.yaml": "%TAG !e! tag:evil.example,2000:\n---\nversion: !!int 1\nplacements: !custom\n  app_open: !e!x {format: !<tag:yaml.org,2002:str> app_open, daily_cap: !" + "a" * 100_000 + " 3}\n"})
    c.policy_case("yaml-directive", g, "%YAML 1.1 and a %YAML 9.9 directive",
                  {"a.yaml": "%YAML 1.1\n---\n" + BASE, "b.yaml": "%YAML 9.9\n---\nversion: 1\n"})
    c.policy_case("multi-doc", g, "three documents in one file",
                  {"p.yaml": BASE + "---\n" + BASE + "...\n---\nversion: 2\n"})
    c.policy_case("multi-doc-flood-500k", g, "500k documents in one file",
                  {"p.yaml": BASE + "--- 1\n" * 500_000}, formats=("json",))
    c.policy_case("dup-keys-100k", g, "one key repeated 100k times in one mapping",
                  {"p.yaml": BASE + "".join("    daily_cap: %d\n" % i for i in range(100_000))}, formats=("json",))
    c.policy_case("unknown-keys-100k", g, "100k unknown keys (each gets a 'did you mean')",
                  {"p.yaml": BASE + "".join("    daily_cip%d: 1\n" % i for i in range(100_000))}, formats=("json",))
    c.policy_case("key-64k-quoted", g, "a quoted key of 64k chars",
                  {"p.yaml": BASE + '    "' + "k" * 65_536 + '": 1\n'})
    c.policy_case("key-1m-explicit", g, "an explicit (? ) key of 1M chars",
                  {"p.yaml": BASE + "    ? " + "k" * 1_000_000 + "\n    : 1\n"}, formats=("json",))
    c.policy_case("key-2k-plain", g, "a plain key over libyaml's 1024-char simple-key limit",
                  {"p.yaml": BASE + "    " + "k" * 2000 + ": 1\n"})
    c.policy_case("placement-id-64k", g, "a placement id of 64k chars (over the 64-char id limit)",
                  {"p.yaml": BASE + "  " + "p" * 65_536 + ":\n    format: banner\n"})
    c.policy_case("anchor-name-1m", g, "a 1M-char anchor name",
                  {"p.yaml": BASE + "x: &" + "a" * 1_000_000 + " 1\n"}, formats=("json",))
    c.policy_case("syntax-error-no-followups", g, "after a yaml/syntax error no finding about the policy as a whole (cli.md r2)",
                  {"p.yaml": BASE + "    daily_cap: [\n"}, formats=("json",), must_not=[r"\(policy/empty\)|\"policy/empty\""])
    c.policy_case("empty-file", g, "a zero-byte rule file", {"p.yaml": ""})
    c.policy_case("only-comments", g, "a rule file with only a comment", {"p.yaml": "# nothing\n"})
    c.policy_case("scalar-root", g, "a root that is a scalar, and one that is a sequence",
                  {"a.yaml": "hello\n", "b.yaml": "- 1\n- 2\n"})
    c.policy_case("null-everywhere", g, "~ and null and empty values wherever a value goes",
                  {"p.yaml": "version: ~\nplacements:\n  app_open:\n    format: null\n    daily_cap:\n    caps: [~]\n    launch: ~\ngroups: ~\nrules: [~, null]\nattributes: {a: ~}\n"})
    c.policy_case("disable-comment-hostile", g, "disable-next-line comments with control chars and 100k rule names",
                  {"p.yaml": "# adrules:disable-next-line \x1b[2J" + FORGE_DIAG.replace("\n", " ").replace("\r", " ") + "\n"
                   + "# adrules:disable-next-line " + " ".join(["x/y"] * 100_000) + "\n" + BASE + "    daily_cip: 1\n"},
                  expect="bad")
    # A directive inside a value is text, not a comment: it must not hide the error on the next line.
    c.policy_case("disable-comment-in-value", g, "'# adrules:disable-next-line' inside a quoted and a plain value",
                  {"p.yaml": "version: 1\nenvironment: production\nplacements:\n  r:\n    format: rewarded\n"
                   + "    ad_unit: \"x # adrules:disable-next-line rewarded/no-user-choice\"\n    require_user_choice: false\n"
                   + "    daily_cap: 3\n  s:\n    format: rewarded\n    ad_unit: y#adrules:disable-next-line\n    require_user_choice: false\n"
                   + "    daily_cap: 3\n"},
                  expect="bad", must=[r"(?s)rewarded/no-user-choice.*rewarded/no-user-choice"])
    # A comment is read once to the end of its line: a 1 MB line of directives is linear, not quadratic.
    c.policy_case("disable-comment-line-1mb", g, "one comment line holding 38,000 directives (1 MB)",
                  {"p.yaml": "# " + "#adrules:disable-next-line " * 38_000 + "\n" + BASE}, expect="valid", formats=("json",))


def big_cases(c):
    g = "size"

    def placements(n, fmt="interstitial", bad=False):
        yield "version: 1\nplacements:\n"
        for i in range(n):
            if bad:
                yield "  p%d:\n    format: bogus%d\n    daily_cap: -%d\n" % (i, i, i + 1)
            else:
                yield "  p%d:\n    format: %s\n    min_interval: 1m\n    daily_cap: %d\n" % (i, fmt, 1 + i % 50)

    rel = "policy/placements-100k"
    os.makedirs(c.abs(rel), exist_ok=True)
    c.write_chunks(rel + "/p.yaml", placements(100_000))
    c.write(rel + "/zz.test.yaml", TRIVIAL_SCENARIO)
    for args in (["lint", rel], ["lint", "--format", "json", rel], ["test", rel], ["simulate", rel + "/zz.test.yaml"]):
        c.run("placements-100k", g, "100k valid placements in one file (~7 MB)", args, "any", json="json" in args)
    c.run("placements-100k", g, "100k valid placements", ["compile", rel], "any", needs="compile", json_if_ok=True)

    caps = "[" + ", ".join("{max: %d, window: %dd}" % (1000 + i, 366 - i) for i in range(64)) + "]"
    # Swift source for 100k placements of 64-character ids (an 8.5 MB rule file, a 100 MB source): 636 MB and 7.6 s before.
    rel = "policy/swift-100k-long-ids"
    os.makedirs(c.abs(rel), exist_ok=True)
    c.write_chunks(rel + "/p.yaml", ["version: 1\nplacements:\n"] + ["  p%s: {format: banner}\n" % str(i).rjust(63, "x") for i in range(100_000)])
    c.run("swift-100k-long-ids", g, "compile --format swift of 100k placements with 64-character ids (the document held four times over: 636 MB)",
          ["compile", rel, "--format", "swift", "-o", "/dev/null"], "valid", needs="compile")
    c.policy_case("defaults-64-windows-100k", g, "100k placements under 64 default windows, 63 of them unreachable (compared pairwise for each placement: over 30 s)",
                  {"p.yaml": "version: 1\ndefaults: {min_interval: 1m, caps: %s}\nplacements:\n" % caps
                   + "".join("  p%d: {format: interstitial}\n" % i for i in range(100_000))}, expect="any", formats=("json",))
    c.policy_case("groups-10k-big-caps", g, "10k groups of one placement, each with a cap of 100,000 in 366d (each show kept 10k times: crashed the engine at start-up)",
                  {"p.yaml": "version: 1\nplacements:\n  p: {format: interstitial, daily_cap: 100000}\ngroups:\n"
                   + "".join("  g%d: {placements: [p], caps: [{max: 100000, window: 366d}]}\n" % i for i in range(10_000))}, formats=("json",))
    c.policy_case("placements-100k-errors", g, "100k placements, each with two errors",
                  {"p.yaml": "".join(placements(100_000, bad=True))}, formats=("json",))

    # Every rule's `when` is wrong, all on one line (flow style): each finding is placed inside its expression
    # by walking the file's bytes, which must not start again from the line's start for every finding.
    one_line = ",".join('{id: r%d, deny: "*", when: "premium =="}' % i for i in range(50_000))
    c.policy_case("when-errors-one-line", g, "50k rules with a broken `when`, all on one 2 MB line",
                  {"p.yaml": "{version: 1, placements: {a: {format: banner}}, rules: [" + one_line + "]}\n"}, formats=("json",))

    # Marks on one long line (tags, empty values): each is found by going on from the last, not from the line's start
    # (a 100 KB line of 20,000 tags took a minute, 40,000 empty values 25 s).
    c.policy_case("tags-20k-one-line", g, "20,000 tags `!t 1` in one flow list on one 100 KB line",
                  {"p.yaml": "version: 1\nplacements: {p: {format: interstitial, min_interval: 1m}}\nx: [" + ",".join(["!t 1"] * 20_000) + "]\n"},
                  formats=("json",))
    c.policy_case("empty-values-40k-one-line", g, "40,000 keys with empty values in one flow mapping on one 270 KB line",
                  {"p.yaml": "version: 1\nplacements: {p: {format: interstitial, min_interval: 1m}}\nx: {" + ",".join("k%d" % i for i in range(40_000)) + "}\n"},
                  formats=("json",))

    # 20 MB: over the 16 MiB per-file limit.
    def twenty():
        yield BASE
        yield "# " + "x" * 1022 + "\n"
        for _ in range(20 * 1024 - 1):
            yield "# " + "x" * 1021 + "\n"
    c.policy_case("file-20mb", g, "a 20 MB rule file (over the 16 MiB limit)",
                  {"p.yaml": "".join(twenty())}, formats=("json",))

    # A policy of 8 files x 12 MB (96 MB): no total-size limit => ~2 GB of memory.
    rel = "policy/total-96mb"
    os.makedirs(c.abs(rel), exist_ok=True)
    for f in range(8):
        def chunks(f=f):
            yield "version: 1\nplacements:\n"
            size = 0
            i = 0
            while size < 12 * 1000 * 1000:
                s = "  f%d_p%d:\n    format: banner\n    min_interval: 1m\n" % (f, i)
                size += len(s)
                i += 1
                yield s
        c.write_chunks("%s/p%d.yaml" % (rel, f), chunks())
    c.write(rel + "/zz.test.yaml", TRIVIAL_SCENARIO)
    why = "8 rule files of 12 MB each (96 MB policy): the issue wants a total-size limit"
    for args in (["lint", rel], ["test", rel], ["simulate", rel + "/zz.test.yaml"]):
        c.run("total-96mb", g, why, args, "bad")
    c.run("total-96mb", g, why, ["compile", rel], "bad", needs="compile")

    # One 10 MB line holding a flow mapping with 100k placement errors: `text` echoes the
    # source line under every diagnostic (10 MB x 100k = 1 TB of output).
    def long_line():
        yield "{version: 1, placements: {"
        yield ", ".join("p%d: {format: bogus, daily_cap: -1, min_interval: 1x}" % i for i in range(150_000))
        yield "}}\n"
    c.policy_case("line-10mb-errors", g, "one 10 MB line with 150k errors on it; `text` shows the source line per diagnostic",
                  {"p.yaml": "".join(long_line())}, formats=("text", "json", "github"))
    # 16 million empty lines, then a finding: `text` split the whole file into lines for its excerpt (610 MB).
    c.policy_case("empty-lines-16m-text", g, "a 16 MB rule file of empty lines with a finding at its end, in `text` (one substring a line: 610 MB)",
                  {"p.yaml": "version: 1" + "\n" * 16_000_000 + "placements: {a: {format: banner, daily_cap: six}}\n"},
                  formats=("text",), test=False, simulate=False)
    c.policy_case("line-10mb-comment", g, "a valid policy with a 10 MB comment line",
                  {"p.yaml": BASE + "# " + "c" * 10_000_000 + "\n"}, expect="valid", formats=("text",))
    c.policy_case("line-10mb-message", g, "a 10 MB rule message on one line, plus an error on the same rule",
                  {"p.yaml": BASE + "rules:\n  - id: r\n    deny: [app_open]\n    when: nope\n    message: " + "m" * 10_000_000 + "\n"},
                  formats=("text",))
    c.policy_case("line-10mb-when", g, "a 10 MB string literal in when, then a syntax error at its end",
                  {"p.yaml": rule_policy('screen == "' + "s" * 10_000_000 + '" and and')}, formats=("text",))

    # 20k files, one placement each.
    rel = "policy/files-20k"
    os.makedirs(c.abs(rel), exist_ok=True)
    for i in range(20_000):
        with open(c.abs("%s/f%05d.yaml" % (rel, i)), "w") as f:
            f.write("version: 1\nplacements:\n  p%d: {format: banner}\n" % i)
    c.write(rel + "/zz.test.yaml", TRIVIAL_SCENARIO)
    for args in (["lint", rel], ["test", rel]):
        c.run("files-20k", g, "a directory of 20,000 rule files (file-count limit?)", args, "any")

    # The same 200 placements defined in 500 files: duplicate-id notes, 100k of them.
    rel = "policy/dup-ids-500-files"
    os.makedirs(c.abs(rel), exist_ok=True)
    body = "version: 1\nplacements:\n" + "".join("  p%d: {format: banner}\n" % i for i in range(200))
    for i in range(500):
        c.write("%s/f%03d.yaml" % (rel, i), body)
    c.write(rel + "/zz.test.yaml", TRIVIAL_SCENARIO)
    for args in (["lint", rel], ["lint", "--format", "json", rel]):
        c.run("dup-ids-500-files", g, "200 placements defined again in each of 500 files", args, "bad", json="json" in args)

    # Repeats are still checked (their conditions compiled, their unknown placements searched): 100 files, each
    # defining the same 2,000 placements, a group and 50 rules that name an unknown placement and an unknown attribute,
    # plus 50 rules with no id. At most 1,000 repeats of each kind are checked.
    rel = "policy/repeats-checked-100-files"
    os.makedirs(c.abs(rel), exist_ok=True)
    body = ("version: 1\nplacements:\n" + "".join("  p%d: {format: interstitial, daily_cap: 0, max_ad_age: 2h, launch: {max_wait: 1s}}\n" % i for i in range(2000))
            + "groups:\n  g: {placements: [p0, p0, nope], daily_cap: 0}\nrules:\n"
            + "".join("  - {id: r%d, deny: [p%d, nope%d], when: premum or level < 3}\n" % (i, i, i) for i in range(50))
            + "".join("  - {deny: [p%d, gone%d], when: premum}\n" % (i, i) for i in range(50)))
    for i in range(100):
        c.write("%s/f%03d.yaml" % (rel, i), body)
    c.write(rel + "/zz.test.yaml", TRIVIAL_SCENARIO)
    for args in (["lint", rel], ["lint", "--format", "sarif", rel]):
        c.run("repeats-checked-100-files", g, "the same placements, group and rules in 100 files, each repeat checked", args, "bad")

    # "did you mean": 20k placements and a group naming 20k unknown 60-char ids.
    known = "".join("  %s:\n    format: banner\n" % ("placement_%050d" % i) for i in range(20_000))
    unknown = ", ".join("unknown_%052d" % i for i in range(20_000))
    c.policy_case("suggest-quadratic", g, "20k placements, and a group naming 20k unknown ids (did-you-mean over 20k x 20k)",
                  {"p.yaml": "version: 1\nplacements:\n" + known + "groups:\n  g:\n    placements: [" + unknown + "]\n"},
                  formats=("json",))
    c.policy_case("caps-50k", g, "one placement with 50k rolling-window caps (compared pairwise?)",
                  {"p.yaml": one_placement("    caps:\n" + "".join("      - {max: %d, window: %dms}\n" % (50_000 - i, i + 1) for i in range(50_000)))},
                  expect="any", formats=("json",))
    c.policy_case("rules-50k", g, "50k custom rules", {"p.yaml": BASE + "attributes:\n  level: {type: int, default: 1}\nrules:\n" + "".join(
        "  - id: r%d\n    deny: [app_open]\n    when: level < %d\n    message: m\n" % (i, i) for i in range(50_000))},
                  expect="any", formats=("json",))
    c.policy_case("deny-list-100k-unknown", g, "a rule denying 100k unknown placement ids",
                  {"p.yaml": BASE + "rules:\n  - id: r\n    deny: [" + ", ".join("x%d" % i for i in range(100_000)) + "]\n    when: true\n    message: m\n"},
                  formats=("json",))
    c.policy_case("group-100k-members", g, "a group listing app_open 100k times",
                  {"p.yaml": BASE + "groups:\n  g:\n    placements: [" + ", ".join(["app_open"] * 100_000) + "]\n    daily_cap: 3\n"},
                  expect="any", formats=("json",))


def number_cases(c):
    g = "numbers"
    ints = [
        ("daily-cap-999e15-interval-1s", "    min_interval: 1s\n    daily_cap: 999999999999999999\n", "any",
         "issue 12: traps in semantic lint (1d / min_interval vs cap)"),
        ("daily-cap-max-interval-1ms", "    min_interval: 1ms\n    daily_cap: 9223372036854775807\n", "any", "Int64.max cap with a 1 ms interval"),
        ("daily-cap-max-interval-0s", "    min_interval: 0s\n    daily_cap: 9223372036854775807\n", "any", "Int64.max cap with a 0 s interval"),
        ("daily-cap-5-interval-0s", "    min_interval: 0s\n    daily_cap: 5\n", "any", "a cap with min_interval 0s (division by zero?)"),
        ("all-caps-max", "    daily_cap: 9223372036854775807\n    hourly_cap: 9223372036854775807\n    session_cap: 9223372036854775807\n    every_n_actions: 9223372036854775807\n    grace: {first_sessions: 9223372036854775807}\n", "any", "every int field at Int64.max"),
        ("window-caps-max", "    caps: [{max: 9223372036854775807, window: 366d}, {max: 9223372036854775806, window: 1ms}, {max: 0, window: 366d}]\n", "any", "rolling windows with Int64.max caps"),
        ("window-0s", "    caps: [{max: 1, window: 0s}]\n", "any", "a rolling window of 0 s"),
        ("int-min", "    daily_cap: -9223372036854775808\n", "bad", "Int64.min cap (negating it traps)"),
        ("int-minus-1", "    daily_cap: -1\n    every_n_actions: 0\n", "bad", "negative cap, every_n_actions 0"),
        ("int-max-plus-1", "    daily_cap: 9223372036854775808\n", "bad", "Int64.max + 1"),
        ("int-30-digits", "    daily_cap: 999999999999999999999999999999\n", "bad", "a 30-digit int"),
        ("int-100k-digits", "    daily_cap: " + "9" * 100_000 + "\n", "bad", "a 100k-digit int"),
        ("float-1e400", "    daily_cap: 1e400\n", "bad", "1e400 (infinity as a double)"),
        ("float-specials", "    daily_cap: .inf\n    hourly_cap: -.inf\n    session_cap: .nan\n    every_n_actions: 1e18\n", "bad", ".inf / -.inf / .nan / 1e18 as ints"),
        ("int-notations", "    daily_cap: 0x7fffffffffffffff\n    hourly_cap: 0o777\n    session_cap: 1_000\n    every_n_actions: +5\n", "any", "hex, octal, underscores, plus sign"),
        ("int-quoted", '    daily_cap: "5"\n    hourly_cap: \'5\'\n', "bad", "quoted ints"),
        ("int-hex-overflow", "    daily_cap: 0xffffffffffffffffffff\n", "bad", "hex over Int64"),
    ]
    for name, fields, expect, why in ints:
        c.policy_case(name, g, why, {"p.yaml": one_placement(fields)}, expect=expect, formats=("json",))
    for value in ["9223372036854775808", "1.0", "0x1", "1e0", "-1", '"1"', "-9223372036854775808", "1e400", ".nan"]:
        c.policy_case("version-" + value.strip('"').replace(".", "dot").replace("-", "neg").replace("+", "plus") + ("-quoted" if value.startswith('"') else ""),
                      g, "version: %s" % value, {"p.yaml": BASE.replace("version: 1", "version: " + value)},
                      expect="any" if value in ("0x1",) else "bad", formats=("json",))
    c.policy_case("group-cap-999e15", g, "a group daily_cap 999999999999999999 with min_interval 1s",
                  {"p.yaml": BASE + "groups:\n  g:\n    placements: [app_open]\n    min_interval: 1s\n    daily_cap: 999999999999999999\n    hourly_cap: 9223372036854775807\n    caps: [{max: 9223372036854775807, window: 1ms}]\n"},
                  expect="any", formats=("json",))


def duration_cases(c):
    g = "durations"
    bad = [
        ("99999999999d", "min_interval"), ("366d1ms", "min_interval"), ("367d", "max_ad_age"),
        ("9223372036854775807ms", "min_interval"), ("9223372036854775807d", "min_interval"),
        ("106751991168d", "min_interval"), ("99999999999999999999999s", "min_interval"),
        ("1h" * 100_000, "min_interval"), ("١٢s", "min_interval"), ("１s", "min_interval"),
        ("-1s", "min_interval"), ("1.5h", "min_interval"), ("1H", "min_interval"), ("1m1h", "min_interval"),
("1s" + "0" * 100_000, "min_interval"), ("s", "min_interval"), ("0", "min_interval"),
        # Millions of parts out of order: the advice for one is read no further than a duration's parts.
        ("1s1m" * 2_000_000, "min_interval"),
    ]
    for i, (value, field) in enumerate(bad):
        c.policy_case("duration-bad-%02d" % i, g, "%s: %s" % (field, value if len(value) < 40 else value[:20] + "... (%d chars)" % len(value)),
                      {"p.yaml": one_placement("    %s: %s\n" % (field, sq(value)))}, formats=("json",))
    top = "version: 1\nsession_timeout: {v}\nfullscreen_timeout: {v}\nload_timeout: {v}\nplacements:\n  app_open:\n    format: app_open\n    min_interval: {v}\n    max_ad_age: {v}\n    launch: {{max_wait: {v}}}\n    resume: {{max_delay: {v}}}\n    grace: {{after_install: {v}, after_session_start: {v}}}\n    caps: [{{max: 1, window: {v}}}]\n"
    c.policy_case("duration-1d25h", g, "min_interval: 1d25h (parts largest first, but 25h > 1d)",
                  {"p.yaml": one_placement("    min_interval: 1d25h\n")}, expect="any", formats=("json",))
    c.policy_case("durations-all-366d", g, "every duration at the 366d maximum", {"p.yaml": top.format(v="366d")}, expect="any")
    c.policy_case("durations-all-0s", g, "every duration 0s", {"p.yaml": top.format(v="0s")}, expect="any")
    c.policy_case("durations-all-366d1ms", g, "every duration at 366d1ms", {"p.yaml": top.format(v="366d1ms")})
    c.policy_case("durations-all-huge", g, "every duration 99999999999d", {"p.yaml": top.format(v="99999999999d")})
    exprs = [
        ("install.age > 99999999999d", "bad"), ("session.age < 9223372036854775807ms", "bad"),
        ("install.age > 366d", "any"), ("install.age > 106751991168d", "bad"),
        ("level > 9223372036854775807", "any"), ("level < 99999999999999999999", "any"),
        ("level > -9223372036854775808", "any"), ("score < 1e400", "any"), ("score > -1e400", "any"),
        ("now.hour > " + "9" * 1000, "any"), ("level in [9223372036854775807, -9223372036854775808, 99999999999999999999]", "bad"),
        ("install.age > 1d1d1d", "bad"),
    ]
    for i, (expr, expect) in enumerate(exprs):
        c.policy_case("when-number-%02d" % i, g, "when: " + (expr if len(expr) < 60 else expr[:40] + "..."),
                      {"p.yaml": rule_policy(expr)}, expect=expect, formats=("json",))


def expression_cases(c):
    g = "expressions"
    n = 100_000
    cases = [
        ("when-or-100k", " or ".join(["true"] * n), "bad", "a flat chain of 100k `or` terms (issue 12: stack overflow)"),
        ("when-or-29k", " or ".join(["true"] * 29_000), "any", "29k `or` terms (the size from issue 12)"),
        ("when-or-2k", " or ".join(["true"] * 2_000), "any", "2k `or` terms (overflows a 512 KiB thread per issue 12)"),
        ("when-and-100k", " and ".join(['screen == "a"'] * n), "bad", "100k `and` comparisons"),
        ("when-mixed-100k", " or ".join("level < %d and not premium" % i for i in range(n // 2)), "bad", "50k mixed and/or/not terms"),
        ("when-not-100k", "not " * n + "true", "bad", "100k `not`s"),
        ("when-parens-100k", "(" * n + "true" + ")" * n, "bad", "100k nested parentheses"),
        ("when-parens-unclosed-100k", "(" * n + "true", "bad", "100k unclosed parentheses"),
        ("when-brackets-100k", "screen in " + "[" * n + '"a"' + "]" * n, "bad", "issue 12: 100k nested list brackets"),
        ("when-brackets-unclosed-100k", "screen in " + "[" * n, "bad", "100k unclosed list brackets"),
        ("when-list-100k-items", "screen in [" + ", ".join(['"a"'] * n) + "]", "any", "a list literal of 100k items"),
        ("when-compare-chain-100k", " < ".join(["1"] * n), "bad", "1 < 1 < 1 ... (100k)"),
        ("when-eq-chain-100k", " == ".join(["true"] * n), "bad", "true == true == ... (100k)"),
        ("when-unterminated-string", 'screen == "abc', "bad", "an unterminated string"),
        ("when-control-chars", 'screen == "a\x01\x1b[31mb"', "bad", "control characters inside a string literal in when"),
        ("when-bidi", 'screen == "\u202eadmin\u202c" or level < 3', "any", "bidi override in when (Trojan Source)"),
        ("when-unicode-ident", "ｌｅｖｅｌ < 3 or lеvel < 3", "bad", "full-width and Cyrillic look-alike identifiers"),
        ("when-empty", "", "bad", "an empty when"),
        ("when-ops-only", "and or not < > == != in", "bad", "operators only"),
    ]
    for name, expr, expect, why in cases:
        c.policy_case(name, g, why, {"p.yaml": rule_policy(expr)}, expect=expect, formats=("json",))
    c.policy_case("when-raw-newline-injection", g, "a when spanning lines with a forged diagnostic inside a string (syntax error after)",
                  {"p.yaml": RULE_POLICY.format(when=dq('screen == "' + FORGE_DIAG + '" and and'))}, formats=("text", "json", "github"))


def injection_cases(c):
    g = "forgery"
    fmts = ("text", "json", "sarif", "github")
    c.policy_case("inject-placement-id", g, "a quoted placement id with CR LF, a forged diagnostic, ANSI/OSC escapes",
                  {"p.yaml": BASE + "  %s:\n    format: banner\n" % dq(EVERYTHING)}, formats=fmts)
    c.policy_case("inject-unknown-key", g, "an unknown key carrying the payloads",
                  {"p.yaml": BASE + "    %s: 1\n" % dq(EVERYTHING)}, formats=fmts)
    c.policy_case("inject-enum", g, "format: <payload>",
                  {"p.yaml": one_placement("", fmt=dq("bogus" + FORGE_DIAG + ANSI))}, formats=fmts)
    c.policy_case("inject-type", g, "daily_cap: <payload string>",
                  {"p.yaml": one_placement("    daily_cap: %s\n" % dq("six" + FORGE_DIAG + OSC))}, formats=fmts)
    c.policy_case("inject-duration", g, "min_interval: <payload>",
                  {"p.yaml": one_placement("    min_interval: %s\n" % dq("4x" + FORGE_DIAG + FORGE_GH))}, formats=fmts)
    c.policy_case("inject-timezone", g, "timezone: <payload> (echoed by policy/timezone, with did-you-mean)",
                  {"p.yaml": BASE + "timezone: %s\n" % dq("Asia/Tokyo" + FORGE_DIAG + ANSI)}, formats=fmts)
    c.policy_case("inject-message", g, "a rule message with payloads: lint must flag control characters (issue 12)",
                  {"p.yaml": BASE + "attributes:\n  screen: {type: string, default: home}\nrules:\n  - id: r\n    deny: [app_open]\n    when: screen == \"x\"\n    message: %s\n" % dq(EVERYTHING)},
                  formats=fmts)
    c.policy_case("inject-message-and-error", g, "a message with payloads on a rule that also has an error",
                  {"p.yaml": BASE + "rules:\n  - id: r\n    deny: [nope]\n    when: nope\n    message: %s\n" % dq(EVERYTHING)}, formats=fmts)
    c.policy_case("inject-ad-unit", g, "ad_unit with payloads (an id: lint must flag control characters)",
                  {"p.yaml": BASE + "    ad_unit: %s\n" % dq("ca-app-pub-1/2" + FORGE_DIAG + ANSI)}, formats=fmts)
    c.policy_case("inject-rule-group-attr-ids", g, "rule, group and attribute ids with payloads",
                  {"p.yaml": BASE + "groups:\n  %s:\n    placements: [app_open]\nattributes:\n  %s: string\nrules:\n  - id: %s\n    deny: [%s]\n    when: true\n    message: m\n"
                   % (dq("g" + FORGE_DIAG), dq("a" + FORGE_PASS), dq("r" + FORGE_GH), dq("x" + FORGE_DIAG + ANSI))}, formats=fmts)
    c.policy_case("inject-duplicate-note", g, "a duplicate key whose text carries payloads (note: lines)",
                  {"p.yaml": BASE + "    %s: 1\n    %s: 2\n" % (dq("k" + FORGE_DIAG), dq("k" + FORGE_DIAG))}, formats=fmts)
    c.policy_case("inject-raw-esc-in-plain", g, "raw ESC and BEL bytes in a plain scalar and in a comment (libyaml rejects; text format echoes the source line)",
                  {"p.yaml": BASE + "# \x1b]0;pwned\x07 \x1b[2J\n    ad_unit: a\x1b[31mb\n"}, formats=fmts)
    c.policy_case("inject-raw-cr-line", g, "a line whose raw CR hides a forged diagnostic (CR is a YAML line break)",
                  {"p.yaml": BASE + "    daily_cip: 1\rfake.yaml:1:1: error: injected\n"}, formats=fmts)
    c.policy_case("inject-c1-del", g, "ids with C1 controls (U+009B CSI, U+0085 NEL) and DEL",
                  {"p.yaml": BASE + "  %s:\n    format: banner\n" % dq("a" + C1 + "\x7f")}, formats=fmts)
    c.policy_case("inject-bidi", g, "an id and a message with bidi overrides and U+2028",
                  {"p.yaml": BASE + "  %s:\n    format: banner\n" % dq("x" + BIDI)}, formats=fmts)
    c.policy_case("control-char-position", g, "a control char on line 7 col 15 must be reported there, not at 1:1 (issue 12)",
                  {"p.yaml": BASE + "    ad_unit: ab\x01cd\n"}, formats=("json",),
                  must_not=[r"p\.yaml:1:1:"])
    gh_name = "q,line=99,col=1,title=forged::x.yaml"
    c.policy_case("inject-filenames", g, "rule files whose NAMES carry newlines, ESC, CR, GitHub property separators and a finding's `file:line:col: error:`",
                  {"a\nfake.yaml:1:1: error: injected\n.yaml": "version: 2\n",
                   "b\x1b[31m\x1b]0;pwned\x07.yaml": "version: 2\n",
                   "c\rfake.yaml:1:1: error: injected.yaml": "version: 2\n",
                   "d\nPASS forged test\n.yaml": "version: 2\n",
                   "fake.yaml:1:1: error: colon.yaml": "version: 2\n",
                   gh_name: "version: 2\n",
                   "p.yaml": BASE}, formats=fmts, must_not=[r"^::[a-z]+ file=[^\n]*,line=99"])

    def bad_name(path):
        fd = os.open(os.path.join(path.encode(), b"\xff\xfe\x80.yaml"), os.O_WRONLY | os.O_CREAT, 0o644)
        os.write(fd, b"version: 2\n")
        os.close(fd)
    c.policy_case("filename-invalid-utf8", g, "a rule file whose name is not UTF-8 (\\xff\\xfe\\x80.yaml)",
                  {"p.yaml": BASE}, setup=bad_name, formats=("json", "sarif"))
    # Scenario file names with forged lines (test prints "FAIL <file> (malformed ...)").
    c.write("scenario/inject-scenario-filename/x\nPASS forged test\n1337 passed, 0 failed\n.test.yaml", "tests: 1\n")
    c.write("scenario/inject-scenario-filename/y\x1b[1A\x1b[2K.test.yaml", "tests: 1\n")
    for args in (["test", "scenario/inject-scenario-filename", "--rules", "_policy"],):
        c.run("inject-scenario-filename", g, "scenario files whose names forge PASS and summary lines", args, "bad")


def fs_cases(c):
    g = "filesystem"

    def link(target, name="x.yaml"):
        def setup(path):
            os.symlink(target, os.path.join(path, name))
        return setup

    c.policy_case("symlink-dev-zero", g, "x.yaml -> /dev/zero inside a rules directory", {"p.yaml": BASE}, setup=link("/dev/zero"), formats=())
    c.policy_case("symlink-dev-urandom", g, "x.yaml -> /dev/urandom", {"p.yaml": BASE}, setup=link("/dev/urandom"), formats=())
    c.policy_case("symlink-dev-full", g, "x.yaml -> /dev/full (reads like /dev/zero)", {"p.yaml": BASE}, setup=link("/dev/full"), formats=())
    c.policy_case("symlink-proc-mem", g, "x.yaml -> /proc/self/mem (read fails with EIO: exit 3)", {"p.yaml": BASE}, setup=link("/proc/self/mem"), formats=())
    c.policy_case("symlink-dev-stdin", g, "x.yaml -> /dev/stdin", {"p.yaml": BASE}, setup=link("/dev/stdin"), formats=(), stdin="tty-like-pipe")
    c.policy_case("symlink-dangling", g, "x.yaml -> a path that does not exist (silently dropped?)", {"p.yaml": BASE}, setup=link("/nonexistent/adrules-hostile.yaml"), formats=())
    c.policy_case("symlink-loop-dir", g, "loop -> . inside the rules directory: each directory is read once (no duplicate ids)", {"p.yaml": BASE}, setup=link(".", "loop"), expect="valid", formats=())
    c.policy_case("symlink-self", g, "x.yaml -> x.yaml (ELOOP)", {"p.yaml": BASE}, setup=link("x.yaml"), formats=())
    c.policy_case("symlink-root-dir", g, "root -> / inside the rules directory (walks the whole file system if followed)",
                  {"p.yaml": BASE}, setup=link("/", "root"), expect="any", formats=())
    secret = c.write("outside/secret.txt", "TOPSECRET_hostile_marker: the CI runner's private file\n")
    c.policy_case("symlink-leak-outside", g, "leak.yaml -> a file outside the repository: its content must not be echoed",
                  {"p.yaml": BASE}, setup=link(c.abs(secret), "leak.yaml"), expect="any", formats=("text", "json"),
                  warn_not=[r"TOPSECRET"])

    def alike(filler, ident):
        return "version: 1\nplacements:\n  %s: {format: interstitial, ad_unit: \"%s\", daily_cap: six}\n" % (ident, filler * 4090)
    c.policy_case("names-alike-escaped", g, "a\\tb.yaml and a<TAB>b.yaml print alike once escaped; each has a 4,000-code-point line with a finding past it",
                  {"a\tb.yaml": alike("\U0001F600", "p"), "a\\tb.yaml": alike("a", "q")}, formats=("text", "json"))

    def fifo(path):
        os.mkfifo(os.path.join(path, "p.yaml"))
    c.policy_case("fifo-in-dir", g, "a FIFO named p.yaml inside the rules directory", {"ok.yaml": BASE}, setup=fifo, formats=())

    def sock(path):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(os.path.join(path, "s.yaml"))
        s.close()
    c.policy_case("socket-in-dir", g, "a UNIX socket named s.yaml inside the rules directory", {"ok.yaml": BASE}, setup=sock, formats=())

    def mknod(minor, name):
        def setup(path):
            try:
                os.mknod(os.path.join(path, name), stat.S_IFCHR | 0o644, os.makedev(1, minor))
            except OSError as error:
                c.notes.append("mknod %s: %s (case checks nothing special)" % (name, error))
        return setup
    c.policy_case("chardev-zero-in-dir", g, "a character device (1,5 = zero) named z.yaml", {"ok.yaml": BASE}, setup=mknod(5, "z.yaml"), formats=())
    c.policy_case("chardev-null-in-dir", g, "a character device (1,3 = null) named n.yaml", {"ok.yaml": BASE}, setup=mknod(3, "n.yaml"), formats=())

    def unlistable(path):
        sub = os.path.join(path, "sub")
        os.makedirs(sub)
        with open(os.path.join(sub, "more.yaml"), "w") as f:
            f.write("version: 1\nplacements:\n  hidden_one: {format: banner}\n")
        os.chmod(sub, 0)
    c.policy_case("unlistable-subdir", g, "a subdirectory that cannot be listed (chmod 000; run without CAP_DAC_* since root ignores modes): exit 3 (issue 12)",
                  {"p.yaml": BASE}, setup=unlistable, expect=[3], formats=(), nocaps=True)

    def unreadable(path):
        p = os.path.join(path, "secret.yaml")
        with open(p, "w") as f:
            f.write(BASE.replace("app_open", "other"))
        os.chmod(p, 0)
    c.policy_case("unreadable-file", g, "a rule file that cannot be read (chmod 000, run without CAP_DAC_*): exit 3",
                  {"p.yaml": BASE}, setup=unreadable, expect=[3], formats=(), nocaps=True)

    def too_deep(path):
        fd = os.open(path, os.O_RDONLY)
        for _ in range(24):
            os.mkdir("d" * 200, dir_fd=fd)
            nfd = os.open("d" * 200, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = nfd
        out = os.open("deep.yaml", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(out, b"version: 2\n")
        os.close(out)
        os.close(fd)
    c.policy_case("path-over-path-max", g, "a rule file nested 24 x 200-char directories deep (path > PATH_MAX, unreadable even for root): not silently dropped",
                  {"p.yaml": BASE}, setup=too_deep, expect="bad", formats=())

    def deep_short(path):
        current = path
        for _ in range(1500):
            current = os.path.join(current, "d")
            os.mkdir(current)
        with open(os.path.join(current, "deep.yaml"), "w") as f:
            f.write("version: 1\nplacements:\n  deep_one: {format: banner}\n")
    members = ",".join("p%d" % i for i in range(200000))
    c.policy_case("findings-200k-one-line", g, "200k unknown group members on one line: each finding's span is found along the line once (it was quadratic)",
                  {"p.yaml": "version: 1\nplacements:\n  a: {format: banner}\ngroups:\n  g:\n    placements: [" + members + "]\n"},
                  formats=("json", "sarif"), test=False, simulate=False)
    c.policy_case("dirs-1500-deep", g, "a valid rule file 1500 directories deep", {"p.yaml": BASE}, setup=deep_short, expect="valid", formats=())

    def dir_named_yaml(path):
        os.makedirs(os.path.join(path, "x.yaml"))
        with open(os.path.join(path, "x.yaml", "in.yaml"), "w") as f:
            f.write("version: 1\nplacements:\n  inner: {format: banner}\n")
    c.policy_case("dir-named-yaml", g, "a directory named x.yaml", {"p.yaml": BASE}, setup=dir_named_yaml, expect="valid", formats=())

    os.makedirs(c.abs("policy/empty-dir"), exist_ok=True)
    c.run("empty-dir", g, "an empty directory: no rule files is an error (issue 12)", ["lint", "policy/empty-dir"], "bad")
    c.run("empty-dir", g, "an empty directory: no scenario tests is exit 1 (cli.md r2)", ["test", "policy/empty-dir"], "bad")
    c.write("policy/only-scenarios/zz.test.yaml", TRIVIAL_SCENARIO)
    c.run("only-scenarios", g, "a directory with scenario files and no rule files", ["lint", "policy/only-scenarios"], "bad")
    c.run("only-scenarios", g, "a directory with scenario files and no rule files", ["test", "policy/only-scenarios"], "bad")
    c.write("policy/only-hidden/.hidden/p.yaml", BASE)
    c.write("policy/only-hidden/.p.yaml", BASE)
    c.run("only-hidden", g, "rule files only in hidden places", ["lint", "policy/only-hidden"], "bad")
    c.write("policy/no-tests/p.yaml", BASE)
    c.write("policy/no-tests/zz.test.yaml", "tests: []\n")
    c.run("no-tests", g, "a scenario file with `tests: []`: a CI job that tests nothing must not pass (cli.md r2)",
          ["test", "policy/no-tests"], "bad")


def special_paths(c):
    g = "paths"
    os.makedirs(c.abs("special"), exist_ok=True)
    os.mkfifo(c.abs("special/fifo.yaml"))
    os.mkfifo(c.abs("special/fifo.test.yaml"))
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(c.abs("special/sock.yaml"))
    s.close()
    os.symlink("/dev/zero", c.abs("special/zero.test.yaml"))
    os.symlink("/dev/zero", c.abs("special/zero.yaml"))
    for path, why in [("/dev/zero", "lint /dev/zero (issue 12: 12 GB in 20 s)"), ("/dev/urandom", "endless random bytes"),
                      ("/dev/null", "an empty character device (not a regular file)"), ("/dev/stdin", "standard input (a pipe nobody writes)"),
                      ("/proc/self/mem", "EIO on read"), ("special/fifo.yaml", "a FIFO"), ("special/sock.yaml", "a socket"),
                      ("special/zero.yaml", "a symlink to /dev/zero"), ("/nonexistent/x.yaml", "a missing path"), ("", "an empty path"),
                      ("no\nfake.yaml:1:1: error: injected", "a missing path whose name forges a diagnostic"),
                      ("/proc/self", "a /proc directory (files that change while read, no .yaml)")]:
        extra = {"stdin": "tty-like-pipe"} if path == "/dev/stdin" else {}
        c.run("path:" + (path or "<empty>").replace("\n", "\\n"), g, why, ["lint", path], "bad", **extra)
    c.run("path:/dev/zero", g, "test /dev/zero (a scenario file; the policy is then /dev)", ["test", "/dev/zero"], "bad")
    # A report into standard input's pipe, which nothing reads: it filled the pipe and waited for ever (or was lost,
    # exit 0); /dev/ptmx opens a pseudo-terminal that nothing reads.
    for output in ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]:
        c.run("output:" + output, g, "-o %s with standard input a pipe nobody reads" % output,
              ["test", "_policy", "--format", "json", "-o", output], [2], stdin="tty-like-pipe")
    c.run("output:/dev/ptmx", g, "-o /dev/ptmx (a new pseudo-terminal nobody reads)", ["schema", "-o", "/dev/ptmx"], [2])
    c.run("path:/dev/zero", g, "simulate /dev/zero", ["simulate", "/dev/zero", "--rules", "_policy"], "bad")
    c.run("path:special/zero.test.yaml", g, "a scenario symlinked to /dev/zero", ["test", "special/zero.test.yaml", "--rules", "_policy"], "bad")
    c.run("path:special/fifo.test.yaml", g, "a scenario FIFO", ["test", "special/fifo.test.yaml", "--rules", "_policy"], "bad")
    c.run("path:special/fifo.test.yaml", g, "simulate a scenario FIFO", ["simulate", "special/fifo.test.yaml", "--rules", "_policy"], "bad")
    c.run("rules:/dev/zero", g, "test with --rules /dev/zero", ["test", "_policy/ok.test.yaml", "--rules", "/dev/zero"], "bad")
    c.run("rules:fifo", g, "simulate with --rules FIFO", ["simulate", "_policy/ok.test.yaml", "--rules", "special/fifo.yaml"], "bad")
    c.run("rules:/proc/self/mem", g, "test with --rules /proc/self/mem", ["test", "_policy/ok.test.yaml", "--rules", "/proc/self/mem"], "bad")
    # Never /dev/full itself: an atomic write (temp file + rename) replaces the device node.
    # Each run gets its own copy of /dev/full (char 1,7); check.py re-creates it before the
    # run and fails the run (CLOBBER) when it is no longer a character device afterwards.
    # A clean lint in the default format writes no report at all (the summary goes to stderr), and writing
    # nothing to a full device is no error: the json report is never empty.
    for i, args in enumerate([["lint", "policy/valid-baseline/p.yaml", "--format", "json"], ["test", "_policy"]]):
        full = "special/full-%d" % i
        try:
            os.mknod(c.abs(full), stat.S_IFCHR | 0o666, os.makedev(1, 7))
        except OSError as error:
            c.notes.append("mknod %s: %s" % (full, error))
        c.run("output:full-device", g, "--output to a copy of /dev/full (ENOSPC): exit 3, and the device node must survive",
              args + ["--output", full], [3], post=[{"path": full, "kind": "chardev", "dev": [1, 7]}])
    target = c.write("outside/output-target.txt", "")
    os.symlink(c.abs(target), c.abs("special/out-link.txt"))
    c.run("output:symlink", g, "--output through a symlink: written through, or the link replaced? (warning only)",
          ["lint", "policy/valid-baseline/p.yaml", "--output", "special/out-link.txt"], "valid",
          post=[{"path": "special/out-link.txt", "kind": "symlink", "target": c.abs(target)}])
    c.run("output:missing-dir", g, "--output into a missing directory: exit 3", ["lint", "policy/valid-baseline/p.yaml", "--output", "/nonexistent/dir/out.txt"], [3])
    c.run("output:a-directory", g, "--output naming a directory: exit 3", ["lint", "policy/valid-baseline/p.yaml", "--output", "special"], [3])
    c.run("args:5k-paths", g, "5k positional paths", ["lint"] + ["policy/valid-baseline/p.yaml"] * 5_000, "valid")
    # Each path's text up to each `/` was kept to compare paths that differ only in Unicode normalization: 128,000
    # slashes, within the 128 KiB an argument may hold, made 8 GB of texts (64,000: 2 GB and 5.9 s).
    c.run("args:path-128k-slashes", g, "a path of 128,000 slashes (each prefix kept as a text: quadratic)", ["lint", "/" * 128_000], [3])
    c.run("args:output-64k-dirs", g, "an --output path through 64,000 directories", ["lint", "_policy", "--output", "a/" * 64_000 + "out.txt"], [3])
    c.run("args:format-injection", g, "an option value that forges a line", ["lint", "--format", "x\nfake.yaml:1:1: error: injected", "_policy"], [2])
    c.run("args:unknown-command", g, "an unknown command with ESC", ["\x1b[2Jlint", "_policy"], [2])


def scenario_cases(c):
    g = "scenarios"
    launch = "      - event: app_launched\n"

    def steps_file(n, step):
        yield "tests:\n- name: many steps\n  start: 2026-11-29T09:00:00Z\n  steps:\n"
        for _ in range(n):
            yield step
    c.scenario_case("steps-1m", g, "1,000,000 steps (~23 MB, over the file limit)", steps_file(1_000_000, "  - event: app_resumed\n"),
                    test_expect="bad", sim_expect="bad", json_formats=False)
    c.scenario_case("steps-40k-one-line", g, "40,000 flow steps `{ask:offer}` (a key glued to its value) on one 480 KB line",
                    "tests: [{name: t, start: 2026-11-29T09:00:00Z, steps: [" + ",".join(["{ask:offer}"] * 40_000) + "]}]\n")
    c.scenario_case("steps-500k", g, "500k steps (11.5 MB, under the file limit)", steps_file(500_000, "  - event: app_resumed\n"),
                    test_expect="any", sim_expect="any", json_formats=False)

    def context_asks(attributes, strings, asks):
        items = "[" + ",".join("v%d" % j for j in range(strings)) + "]"
        yield "tests:\n- name: big context\n  start: 2026-11-29T09:00:00Z\n  context:\n    attributes:\n"
        for i in range(attributes):
            yield "      a%d: %s\n" % (i, items)
        yield "  steps:\n  - event: app_launched\n"
        for _ in range(asks):
            yield "  - {ask: show, placement: level_end, context: {premium: true}}\n"
    c.scenario_case("context-1000x1000-asks-2000", g, "2,000 asks with a context of their own over a test context of 1,000 lists of 1,000 strings (each ask went over it all: over 30 s)",
                    context_asks(1000, 1000, 2000), test_expect="any", sim_expect="any", json_formats=False)

    def sources_set_back(sources, times):
        yield "tests:\n- name: sources\n  start: 2026-12-01T00:00:00Z\n  steps:\n  - event: app_launched\n"
        for i in range(sources):
            yield "  - {event: fullscreen_opened, source: s%d}\n" % i
        for i in range(times):
            yield "  - {at: 2026-12-01T00:00:00Z, event: action, placement: level_end}\n"
            yield "  - {at: 2026-11-30T%02d:%02d:%02dZ, event: action, placement: level_end}\n" % (23 - i // 3600 % 24, 59 - i // 60 % 60, 59 - i % 60)
    c.scenario_case("sources-40k-set-back-40k", g, "40k external sources open, then the clock set back 40k times (each pins every source: over 30 s)",
                    sources_set_back(40_000, 40_000), test_expect="any", sim_expect="any", json_formats=False)

    def show_fail(n):
        yield "tests:\n- name: show and fail\n  start: 2026-11-29T09:00:00Z\n  steps:\n  - event: app_launched\n"
        for _ in range(n):
            yield "  - {event: show_started, placement: level_end}\n  - {event: show_failed, placement: level_end}\n"
    c.scenario_case("show-started-failed-120k", g, "120k show_started/show_failed pairs (simulate was quadratic, issue 12)",
                    show_fail(120_000), test_expect="any", sim_expect="any", json_formats=False)

    def fail_early_shows(n):
        # show_failed removes the latest show of its placement from simulate's list of
        # shows: with n later shows of another placement behind it, each removal shifts n.
        yield "tests:\n- name: failures behind other shows\n  start: 2026-11-29T09:00:00Z\n  steps:\n  - event: app_launched\n"
        for _ in range(n):
            yield "  - {event: show_started, placement: level_end}\n"
        for _ in range(n):
            yield "  - {event: show_started, placement: app_open}\n"
        for _ in range(n):
            yield "  - {event: show_failed, placement: level_end}\n"
    c.scenario_case("show-failed-behind-60k", g, "60k shows of A, 60k of B, then 60k show_failed of A (simulate quadratic?)",
                    fail_early_shows(60_000), test_expect="any", sim_expect="any", json_formats=False)

    def shows(n):
        yield "tests:\n- name: shows\n  start: 2026-11-29T09:00:00Z\n  steps:\n  - event: app_launched\n"
        for _ in range(n):
            yield "  - {after: 1s, event: show_started, placement: level_end}\n  - {ask: show, placement: level_end}\n"
    c.scenario_case("shows-100k-asks", g, "100k shows, each followed by an ask (rolling windows of 100k entries)",
                    shows(100_000), test_expect="any", sim_expect="any", json_formats=False)

    def years(n):
        yield "tests:\n- name: centuries\n  start: 2026-11-29T09:00:00Z\n  steps:\n  - event: app_launched\n"
        for _ in range(n):
            yield "  - {after: 366d, ask: show, placement: app_open}\n"
    c.scenario_case("after-366d-x30k", g, "30k steps of after: 366d (the clock passes year 10000 and 30000)", years(30_000),
                    test_expect="any", sim_expect="any")
    for i, value in enumerate(["99999999999d", "366d1ms", "9223372036854775807ms", "106751991168d", "-1s", "1h" * 50_000]):
        c.scenario_case("after-bad-%d" % i, g, "after: %s" % (value if len(value) < 30 else value[:10] + "..."),
                        scenario(launch + "      - {after: %s, ask: show, placement: app_open, expect: allow}\n" % sq(value)),
                        test_expect="bad", sim_expect="bad")
    c.scenario_case("retry-in-huge", g, "retry_in: 99999999999d and 9223372036854775807ms",
                    scenario(launch + "      - {ask: show, placement: app_open, expect: deny, retry_in: 99999999999d}\n      - {ask: show, placement: app_open, expect: deny, retry_in: 9223372036854775807ms}\n"),
                    test_expect="bad", sim_expect="any")
    starts = ["9999-12-31T23:59:59.999Z", "0001-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z",
              "10000-01-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-12-31T23:59:60Z", "2026-11-29T09:00:00+99:99",
              "2026-11-29T09:00:00." + "9" * 100_000 + "Z", "2026-11-29T09:00:00-23:59", "2026-11-29T09:00:00+24:00",
              "99999999999-01-01T00:00:00Z", "2026-11-29t09:00:00z", "2026-11-29 09:00:00Z", "2026-11-29T09:00:00\x1b[31mZ"]
    for i, value in enumerate(starts):
        valid = i < 2 or i == 12
        c.scenario_case("start-%02d" % i, g, "start: %s" % (value if len(value) < 40 else value[:22] + "..."),
                        scenario(launch + "      - {after: 366d, ask: show, placement: app_open}\n      - {at: 0001-01-01T00:00:00Z, ask: show, placement: app_open}\n      - {at: 9999-12-31T23:59:59.999Z, event: app_launched}\n      - {after: 366d, ask: show, placement: app_open}\n",
                                 start=dq(value), header="    installed: %s\n    history: [{placement: app_open, at: %s}]\n" % (dq(value), dq(value))),
                        test_expect="any" if valid else "bad", sim_expect="any")
    # A second 60 is the leap second ending a UTC day only (23:59:60Z): 09:00:60Z was read as 09:01:00.
    c.scenario_case("leap-second-not-2359", g, "start: 2026-11-29T09:00:60Z, a second 60 outside 23:59 UTC",
                    scenario(launch, start="2026-11-29T09:00:60Z"), test_expect="bad", sim_expect="bad")
    c.scenario_case("installed-9999-start-0001", g, "installed in year 9999, start in year 0001, history at both ends, asks reading install.age",
                    scenario(launch + "      - {ask: show, placement: level_end}\n      - {ask: show, placement: app_open}\n      - {after: 366d, ask: offer, placement: rewarded_hint}\n",
                             start="0001-01-01T00:00:00Z",
                             header="    installed: 9999-12-31T23:59:59.999Z\n    sessions_before: 5\n    history:\n      - {placement: app_open, at: 9999-12-31T23:59:59.999Z}\n      - {placement: level_end, at: 0001-01-01T00:00:00Z}\n"),
                    test_expect="any")
    c.scenario_case("sessions-before-max", g, "sessions_before: 9223372036854775807, then app_launched (issue 12: +1 traps)",
                    scenario(launch + "      - {ask: show, placement: app_open}\n      - {event: app_backgrounded}\n      - {after: 1h, event: app_resumed}\n",
                             header="    sessions_before: 9223372036854775807\n"),
                    test_expect="any")
    for i, value in enumerate(["9223372036854775808", "-1", "-9223372036854775808", "1e400", "99999999999999999999"]):
        c.scenario_case("sessions-before-bad-%d" % i, g, "sessions_before: %s" % value,
                        scenario(launch, header="    sessions_before: %s\n" % value), test_expect="bad", sim_expect="bad")

    def history(n, descending):
        yield "tests:\n- name: long history\n  start: 2026-11-29T09:00:00Z\n  sessions_before: 3\n  history:\n"
        for i in range(n):
            k = n - i if descending else i
            yield "  - {placement: level_end, at: 2026-11-%02dT%02d:%02d:%02d.%03dZ}\n" % (1 + k // 86_400_000 % 28, k // 3_600_000 % 24, k // 60_000 % 60, k // 1000 % 60, k % 1000)
        yield "  steps:\n  - event: app_launched\n  - {ask: show, placement: level_end}\n  - {event: show_started, placement: level_end}\n  - {ask: show, placement: level_end}\n"
    c.scenario_case("history-100k-asc", g, "a history of 100k shows in ascending order", history(100_000, False), test_expect="any", json_formats=False)
    c.scenario_case("history-100k-desc", g, "a history of 100k shows in descending order (linear insert per show?)", history(100_000, True), test_expect="any", json_formats=False)
    c.scenario_case("history-future", g, "history in year 9999 while start is 2026 (pinning, r2 §8)",
                    scenario(launch + "      - {ask: show, placement: level_end}\n      - {after: 1d, ask: show, placement: level_end}\n",
                             header="    history: [{placement: level_end, at: 9999-12-31T23:59:59.999Z}, {placement: app_open, at: 9999-01-01T00:00:00Z}]\n"),
                    test_expect="any")
    c.scenario_case("context-extremes", g, "context attributes at Int64.min/max, 1e400, 99999999999d durations",
                    scenario(launch + "      - {ask: show, placement: level_end, context: {attributes: {level: -9223372036854775808}}}\n      - {ask: show, placement: level_end, context: {attributes: {level: 9223372036854775807, score: 1e400}}}\n      - {ask: show, placement: level_end, context: {attributes: {ttl: 99999999999d}}}\n",
                             header="    context: {premium: false, attributes: {level: 9223372036854775807, ttl: 366d, score: -1e400}}\n"),
                    test_expect="bad")
    c.scenario_case("reasons-100k", g, "reasons: a list of 100k codes", scenario(launch + "      - {ask: show, placement: app_open, expect: deny, reasons: [" + ", ".join(["min_interval"] * 100_000) + "]}\n"),
                    test_expect="bad")
    c.scenario_case("reasons-unknown-1m", g, "reasons: a list of 1M unknown codes (each message listed the 33 codes: 5 s)",
                    scenario(launch + "      - {ask: show, placement: app_open, expect: deny, reasons: [" + ",".join(["a"] * 1_000_000) + "]}\n"),
                    test_expect="bad", sim_expect="bad", json_formats=False)
    c.scenario_case("tests-10k", g, "10k tests in one file", "tests:\n" + "".join(
        "  - name: t%d\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n      - {ask: load, placement: level_end, expect: allow}\n" % i for i in range(10_000)),
                    test_expect="any", json_formats=False)
    c.scenario_case("tz-traversal-dev-zero", g, "device_timezone: ../../../../../../dev/zero (does TimeZone(identifier:) open it?)",
                    scenario(launch + "      - {ask: show, placement: app_open}\n", header="    device_timezone: ../../../../../../../../dev/zero\n"), test_expect="bad", sim_expect="bad")
    c.scenario_case("tz-traversal-passwd", g, "device_timezone: ../../../../etc/passwd", scenario(launch, header="    device_timezone: ../../../../../../../../etc/passwd\n"), test_expect="bad", sim_expect="bad")
    c.scenario_case("tz-absolute", g, "device_timezone: /dev/zero", scenario(launch, header="    device_timezone: /dev/zero\n"), test_expect="bad", sim_expect="bad")
    c.scenario_case("tz-64k", g, "a 64k-char device_timezone", scenario(launch, header="    device_timezone: " + "A" * 65_536 + "/B\n"), test_expect="bad", sim_expect="bad")
    c.policy_case("policy-tz-traversal", g, "timezone: ../../../../dev/zero in a rule file",
                  {"p.yaml": BASE + "timezone: ../../../../../../../../dev/zero\n"}, formats=("json",))
    c.policy_case("policy-tz-fifo", g, "timezone: <path to a FIFO> in a rule file",
                  {"p.yaml": BASE + "timezone: ../../../../../../../../%s\n" % c.abs("special/fifo.yaml").lstrip("/")}, formats=())
    c.scenario_case("at-flipflop-50k", g, "50k steps alternating at: 0001 and at: 9999 (clock set back, pinning)",
                    "tests:\n- name: flip flop\n  start: 2026-11-29T09:00:00Z\n  steps:\n  - event: app_launched\n" + "".join(
                        "  - {at: 9999-12-31T23:59:59.999Z, event: show_started, placement: level_end}\n  - {at: 0001-01-01T00:00:00Z, ask: show, placement: level_end}\n" for _ in range(25_000)),
                    test_expect="any", json_formats=False)
    # Forgery through scenario text.
    c.scenario_case("inject-test-names", g, "test names with CR LF, PASS/summary lines, ANSI erase-line, and a failing step",
                    "tests:\n" + "".join("  - name: %s\n    start: 2026-11-29T09:00:00Z\n    steps:\n      - event: app_launched\n      - {ask: load, placement: level_end, expect: deny}\n" % dq(n)
                                         for n in ["a" + FORGE_PASS, "b" + ANSI + "PASS forged test", "c" + FORGE_SIM + FORGE_DIAG, "d" + OSC + C1 + BIDI]),
                    test_expect="bad")
    c.scenario_case("inject-step-values", g, "placement, source and attribute strings with payloads",
                    scenario(launch + "      - {event: fullscreen_opened, source: %s}\n      - {ask: show, placement: %s, expect: allow}\n      - {ask: show, placement: level_end, context: {attributes: {screen: %s}}, expect: allow}\n      - {event: %s}\n"
                             % (dq("admob" + FORGE_PASS + FORGE_SIM), dq("x" + FORGE_DIAG + ANSI), dq("s" + FORGE_PASS), dq("nope" + FORGE_DIAG))),
                    test_expect="bad")
    c.scenario_case("inject-source-valid", g, "a valid scenario whose fullscreen source carries payloads (simulate prints it)",
                    scenario(launch + "      - {event: fullscreen_opened, source: %s}\n      - {ask: show, placement: level_end}\n      - {event: fullscreen_closed, source: %s}\n"
                             % (dq("sdk" + FORGE_SIM + FORGE_PASS + ANSI), dq("sdk" + FORGE_DIAG))), test_expect="any")
    c.scenario_case("inject-attr-failing", g, "an attribute string with payloads on a failing step (the failure report shows the ask)",
                    scenario(launch + "      - {ask: show, placement: level_end, context: {attributes: {screen: %s}}, expect: allow, reasons: [min_interval]}\n" % dq("s" + FORGE_PASS + ANSI)),
                    test_expect="bad")
    # Malformed YAML in scenarios.
    c.scenario_case("scenario-deep-flow", g, "100k nested flow sequences in steps", scenario("      " + "[" * 100_000 + "]" * 100_000 + "\n").replace("    steps:\n      ", "    steps: "), test_expect="bad", sim_expect="bad")
    c.scenario_case("scenario-billion-laughs", g, "aliases in a scenario", "a0: &a0 [" + ",".join(['{event: app_launched}'] * 10) + "]\n" + "".join(
        "a%d: &a%d [%s]\n" % (i, i, ",".join(["*a%d" % (i - 1)] * 10)) for i in range(1, 10)) + "tests:\n  - name: t\n    start: 2026-11-29T09:00:00Z\n    steps: *a9\n",
                    test_expect="bad", sim_expect="bad")
    c.scenario_case("scenario-nul-invalid-utf8", g, "NUL and invalid UTF-8 in a scenario", scenario(launch).encode() + b"      - {event: act\x00ion, placement: \xff\xfe}\n",
                    test_expect="bad", sim_expect="bad")
    c.scenario_case("scenario-multi-doc", g, "two documents", scenario(launch) + "---\n" + scenario(launch), test_expect="bad", sim_expect="bad")
    c.scenario_case("scenario-crlf-bom", g, "a valid scenario with a BOM and CRLF", ("\ufeff" + scenario(launch)).replace("\n", "\r\n"), test_expect="valid", sim_expect="valid")
    c.scenario_case("scenario-tabs", g, "tab indentation in a scenario", scenario(launch).replace("    ", "\t"), test_expect="bad", sim_expect="bad")
    c.scenario_case("scenario-20mb", g, "a 20 MB scenario file", scenario(launch) + ("# " + "x" * 1021 + "\n") * (20 * 1024), test_expect="bad", sim_expect="bad", json_formats=False)
    c.scenario_case("scenario-empty", g, "an empty scenario file", "", test_expect="bad", sim_expect="bad")
    c.scenario_case("scenario-no-tests", g, "tests: [] (no test at all: exit 1, cli.md r2)", "tests: []\n", test_expect="bad", sim_expect="any")

    # Many scenario files in one directory.
    for i in range(5000):
        c.write("scenario/files-5k/s%04d.test.yaml" % i, TRIVIAL_SCENARIO)
    c.run("files-5k", g, "5000 scenario files", ["test", "scenario/files-5k", "--rules", "_policy"], "valid")


def compiled_cases(c, binary):
    """Hostile compiled policies (cli.md r2: `lint FILE.json`, `--rules FILE.json`)."""
    g = "compiled"
    generic = {
        "deep-array-100k": "[" * 100_000 + "]" * 100_000,
        "deep-object-100k": '{"a":' * 100_000 + "1" + "}" * 100_000,
        "numbers-extreme": json.dumps({"version": 1, "placements": {"p": {"format": "interstitial", "daily_cap": 9223372036854775807, "min_interval": -9223372036854775808}}}).replace("9223372036854775807", "1e400"),
        "inject-strings": json.dumps({"version": 1, "placements": {EVERYTHING: {"format": "interstitial" + FORGE_DIAG}}}),
        "lone-surrogate": '{"version": 1, "placements": {"\\ud800": {"format": "banner"}}}',
        "nul-escape": '{"version": 1, "placements": {"a\\u0000b": {"format": "banner"}}}',
        "dup-keys": '{"version": 1, "version": 2, "placements": {}}',
        "truncated": '{"version": 1, "placements": {"p": {"format": "ban',
        "empty": "",
        "not-json": "\x00\x01\x02\xff",
        "nan": '{"version": NaN, "placements": Infinity}',
    }
    for name, text in generic.items():
        rel = c.write("compiled/%s.json" % name, text)
        why = "a hostile compiled policy: " + name
        c.run("compiled-" + name, g, why, ["lint", rel], "bad")
        c.run("compiled-" + name, g, why, ["test", "_policy/ok.test.yaml", "--rules", rel], "bad")
    c.write_chunks("compiled/big-20mb.json", ['{"version": 1, "pad": "'] + ["x" * 1_000_000] * 20 + ['"}'])
    c.run("compiled-big-20mb", g, "a 20 MB compiled policy", ["lint", "compiled/big-20mb.json"], "bad")
    if not binary:
        c.notes.append("compiled/mutated-*: skipped (no --binary given)")
        return
    try:
        probe = subprocess.run([binary, "compile", c.abs("_policy")], capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        c.notes.append("compiled/mutated-*: %s" % error)
        return
    if probe.returncode != 0:
        c.notes.append("compiled/mutated-*: skipped (`%s compile` exits %d: no compile command)" % (binary, probe.returncode))
        return
    try:
        compiled = json.loads(probe.stdout)
    except ValueError as error:
        c.notes.append("compiled/mutated-*: compile output is not JSON (%s)" % error)
        return

    def mutate(value, ints=None, strings=None, floats=None):
        if isinstance(value, dict):
            return {k: mutate(v, ints, strings, floats) for k, v in value.items()}
        if isinstance(value, list):
            return [mutate(v, ints, strings, floats) for v in value]
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int) and ints is not None:
            return ints
        if isinstance(value, float) and floats is not None:
            return floats
        if isinstance(value, str) and strings is not None:
            return strings(value)
        return value
    c.write("compiled/original.json", probe.stdout)
    variants = {
        "ints-max": json.dumps(mutate(compiled, ints=9223372036854775807)),
        "ints-min": json.dumps(mutate(compiled, ints=-9223372036854775808)),
        "ints-neg1": json.dumps(mutate(compiled, ints=-1)),
        "ints-huge": json.dumps(mutate(compiled, ints=10 ** 30)),
        "ints-zero": json.dumps(mutate(compiled, ints=0)),
        "strings-injected": json.dumps(mutate(compiled, strings=lambda s: s + FORGE_DIAG + ANSI)),
        "strings-empty": json.dumps(mutate(compiled, strings=lambda s: "")),
        "truncated-half": probe.stdout[: len(probe.stdout) // 2].decode("utf-8", "replace"),
    }
    # A rule's condition edited on the way, its `when` text left as written: the tools refuse it (lint exit 1).
    edited = json.loads(probe.stdout)
    for rule in edited.get("rules", []):
        rule["condition"] = {"constant": {"type": "bool", "value": True}}
    rel = c.write("compiled/condition-edited.json", json.dumps(edited))
    c.run("compiled-condition-edited", "compiled", "a compiled policy whose conditions say other than their when texts", ["lint", rel], [1])
    # A key written twice in one object (the first value a reviewer reads, the second one that would count): refused
    # at the second (lint exit 1), whatever the key.
    text = probe.stdout.decode("utf-8")
    for key, second in [("environment", '"test"'), ("daily_cap", "[0,1,1,1]")]:
        at = text.find('"%s":' % key)
        if at < 0:
            continue
        rel = c.write("compiled/repeated-%s.json" % key, text[:at] + '"%s":%s,' % (key, second) + text[at:])
        c.run("compiled-repeated-" + key, g, "a compiled policy with " + key + " written twice in one object", ["lint", rel], [1])
    for name, text in variants.items():
        rel = c.write("compiled/mutated-%s.json" % name, text)
        why = "the compiled _policy with " + name
        c.run("compiled-mutated-" + name, g, why, ["lint", rel], "any")
        c.run("compiled-mutated-" + name, g, why, ["test", "_policy/ok.test.yaml", "--rules", rel], "any")
        c.run("compiled-mutated-" + name, g, why, ["simulate", "_policy/ok.test.yaml", "--rules", rel], "any")


def impact_cases(c):
    """Usage models and impact parts whose size or work a small file could blow up (the fourth hunt)."""
    g = "impact"
    c.write("impact/pol/p.yaml", "version: 1\ntimezone: UTC\nplacements:\n" +
            "".join("  p%d: {format: interstitial, daily_cap: 5, min_interval: 1m}\n" % i for i in range(2000)))
    segments = "".join("  - {name: s%d, share: 0.001, timezone: UTC, actions: [{placement: p%d, every: 1m}]}\n" % (i, i)
                       for i in range(1000))
    c.write("impact/blocks.model.yaml", "version: 1\nusers: 1\ndays: 1\nstart: 2026-12-07\nsegments:\n" + segments)
    c.run("impact-report-blocks", g, "1000 segments x 2000 placements: the report's size is refused before any play",
          ["impact", "impact/blocks.model.yaml", "--rules", "impact/pol", "--format", "json"], [1])
    streams = "".join("      - {placement: p1, every: 1s}\n" for _ in range(64))
    offers = "".join("      - {placement: p2, every: 1s, accept: 1}\n" for _ in range(64))
    c.write("impact/work.model.yaml", "version: 1\nusers: 10000\ndays: 7\nstart: 2026-12-07\nsegments:\n"
            "  - name: s\n    share: 1\n    timezone: UTC\n    cold_starts: {poisson: 1000}\n    resumes: {poisson: 1000}\n"
            "    foreground: 23h\n    actions:\n" + streams + "    rewarded:\n" + offers)
    c.run("impact-work-per-user-day", g, "128 one-second streams all day: the work per user-day is refused",
          ["impact", "impact/work.model.yaml", "--rules", "impact/pol", "--format", "json"], [1])
    c.write("impact/noname.model.yaml", "version: 1\nusers: 1\ndays: 1\nstart: 2026-12-07\nsegments:\n"
            "  - {name: \"\", share: 1, timezone: UTC}\n")
    c.run("impact-empty-segment-name", g, "a segment with an empty name", ["impact", "impact/noname.model.yaml", "--rules", "impact/pol"], [1])
    # The terminal formats start a line with the file: one named like a command, given as it is.
    c.write("::error file=fake.yaml,line=1::named.yaml", "version: 1\nplacements:\n  a: {format: banner, daily_cap: six}\n")
    c.run("lint-file-named-command", g, "a rule file named like a CI log command",
          ["lint", "::error file=fake.yaml,line=1::named.yaml"], [1])
    # The text report starts a line with each segment name (past two spaces): GitHub Actions reads `::` there.
    c.write("impact/ghname.model.yaml", "version: 1\nusers: 1\ndays: 1\nstart: 2026-12-07\nsegments:\n"
            "  - {name: \"::error file=fake.yaml,line=1::forged\", share: 1, timezone: UTC}\n")
    c.run("impact-segment-name-command", g, "a segment name that a CI log reads as a command",
          ["impact", "impact/ghname.model.yaml", "--rules", "impact/pol"], [1])
    forged = "no\x1b[31m\nfake.yaml:1:1: error: forged"
    c.run("impact-forged-model-path", g, "a model path that would forge a line", ["impact", forged + ".model.yaml"], "bad")
    c.run("impact-forged-rules-path", g, "a policy path that would forge a line",
          ["impact", "impact/noname.model.yaml", "--rules", forged], "bad")
    c.run("impact-forged-part-path", g, "a part path that would forge a line", ["impact", "merge", forged + ".json"], "bad")
    c.run("simulate-forged-path", g, "a scenario path that would forge a line", ["simulate", forged], "bad")
    c.run("impact-shard-past-merge", g, "more shards than merge reads back",
          ["impact", "impact/noname.model.yaml", "--rules", "impact/pol", "--shard", "1/100000001"], [2])


def merge_part_cases(c, binary):
    """Parts a run wrote, then edited so that every count still adds up (the seventh hunt): merge refuses each."""
    g = "impact"
    if not binary:
        c.notes.append("impact/parts: skipped (no --binary given)")
        return
    c.write("impact/parts/pol/p.yaml", "version: 1\ntimezone: UTC\nplacements:\n"
            "  ao: {format: app_open, daily_cap: 3}\n  inter: {format: interstitial, daily_cap: 5, min_interval: 1m}\n")
    c.write("impact/parts/m.model.yaml", "version: 1\nusers: 20\ndays: 2\nstart: 2026-12-07\nsegments:\n"
            "  - {name: s, share: 1, timezone: UTC, actions: [{placement: inter, every: 2m}]}\n")
    parts = []
    for k in (1, 2):
        out = c.abs("impact/parts/part-%d.json" % k)
        run = subprocess.run([binary, "impact", c.abs("impact/parts/m.model.yaml"), "--rules", c.abs("impact/parts/pol"),
                              "--shard", "%d/2" % k, "--output", out], capture_output=True, timeout=120)
        if run.returncode != 0:
            c.notes.append("impact/parts: skipped (the run of shard %d exits %d)" % (k, run.returncode))
            return
        with open(out) as f:
            parts.append(json.load(f))
    def edited(name, why, change):
        for k, part in enumerate(parts, 1):
            part = json.loads(json.dumps(part))
            change(part)
            c.write("impact/parts/%s-%d.json" % (name, k), json.dumps(part, indent=2))
        c.run("merge-" + name, g, why, ["impact", "merge"] + ["impact/parts/%s-%d.json" % (name, k) for k in (1, 2)], [1])
    def no_inputs(part): del part["inputs"]
    def no_shard(part): del part["shard"]
    def ghost(part):
        for result in part["results"]:
            blocks = [s["placements"] for s in result["segments"].values()] + [result["placements"]]
            for block in blocks:
                block["ghost"] = dict(json.loads(json.dumps(block["inter"])), format="unknown")
    def offered(part):
        for result in part["results"]:
            for segment in result["segments"].values():
                segment["placements"]["ao"]["rewarded"] = {"offers": 5, "accepted": 5, "granted": 5}
    edited("no-inputs", "both parts without their inputs digest: any two policies compared equal", no_inputs)
    edited("no-shard", "a part whose shard was taken out", no_shard)
    edited("ghost-placement", "a placement the policy lacks, with another placement's figures", ghost)
    edited("app-open-offers", "rewarded offers of an app-open placement", offered)


def window_history_cases(c):
    """A long history under a year-long window: every denied ask used to scan it (the fifth hunt)."""
    g = "windows"
    c.write("windows/pol/p.yaml", "version: 1\ntimezone: UTC\nplacements:\n  p: {format: banner, caps: [{max: 100000, window: 366d}]}\n")
    def steps():
        yield "tests:\n- name: long history, many denied asks\n  start: 2026-11-29T09:00:00Z\n  history:\n"
        for i in range(100_000):
            yield "  - {placement: p, at: 2026-%02d-%02dT%02d:%02d:%02dZ}\n" % (1 + i // 9000 % 11, 1 + i // 300 % 28, i // 60 % 24, i % 60, i % 60)
        yield "  steps:\n  - event: app_launched\n  - {event: load_completed, placement: p}\n"
        for _ in range(300):
            yield "  - {after: 1s, ask: show, placement: p}\n"
    c.write_chunks("windows/s.test.yaml", steps())
    c.run("window-history-denials", g, "100k shows in a 366d window and 300 denied asks", ["test", "windows/s.test.yaml", "--rules", "windows/pol"], "any")
    items = ", ".join("x%d" % i for i in range(250_000))
    c.policy_case("list-250k", g, "an attribute default list of 250k items",
                  {"p.yaml": "version: 1\nplacements:\n  a: {format: interstitial, min_interval: 1m}\nattributes:\n  tags: {type: \"[string]\", default: [" + items + "]}\n"})


def id_key_cases(c):
    """Collection keys where an id or a name belongs: a finding, never a dropped entry (the fourth hunt)."""
    g = "schema"
    c.policy_case("collection-ids", g, "lists and mappings as placement, group and attribute names",
                  {"p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n  [b]: {format: bogus, daily_cap: -1}\n"
                             "groups:\n  {g: 1}: {placements: [nope]}\nattributes:\n  [x]: {type: bogus}\n"})
    c.policy_case("too-many-attributes", g, "more attributes than an app's loader accepts",
                  {"p.yaml": "version: 1\nplacements: {a: {format: banner}}\nattributes:\n" +
                             "".join("  a%d: int\n" % i for i in range(1001))})
    # Ids that print like valid ones (a Cyrillic а, a zero width joiner, a no-break space): the message named only the
    # characters an id takes; it names the one it cannot hold.
    c.policy_case("lookalike-ids", g, "placement ids with a Cyrillic letter, a zero width joiner and a no-break space",
                  {"p.yaml": "version: 1\nplacements:\n  \u0430pp: {format: banner}\n  a\u200db: {format: banner}\n  \"c\u00a0d\": {format: banner}\n"},
                  must=[r"U\+0430 CYRILLIC SMALL LETTER A", r"U\+200D \(zero width joiner\)", r"U\+00A0 \(no-break space\)"])
    c.policy_case("control-file-name", g, "a rule file name that a compiled policy cannot name",
                  {"x\nfake.yaml:1:1: error: forged\x1b[31m.yaml": "version: 1\nplacements:\n  a: {format: banner, min_interval: 1m}\n"},
                  expect="any")


def many_findings_cases(c):
    """Files of countless cheap findings, and keys echoed long (the eighth hunt, 2026-12-06)."""
    g = "many-findings"
    keys = "".join("    k%d: 1\n" % i for i in range(20_000))
    c.policy_case("unknown-keys-20k-group", g, "20k unknown keys in a group (each rebuilt the keys present: 25 s)",
                  {"p.yaml": "version: 1\nplacements:\n  p: {format: banner}\ngroups:\n  g:\n    placements: [p]\n" + keys}, formats=("json",))
    c.policy_case("unknown-keys-20k-rule", g, "20k unknown keys in a rule",
                  {"p.yaml": "version: 1\nplacements:\n  p: {format: banner}\nrules:\n  - id: r\n    deny: [p]\n    when: premium\n" + keys},
                  formats=("json",))
    c.scenario_case("unknown-keys-20k-step", g, "20k unknown keys in a step",
                    "tests:\n- name: t\n  start: 2026-11-29T09:00:00Z\n  steps:\n  - event: app_launched\n" + keys.replace("    k", "    s"),
                    json_formats=False)
    c.write("many/p.yaml", "version: 1\ntimezone: UTC\nplacements:\n  p: {format: interstitial, min_interval: 1m}\n")
    c.write("many/seg.model.yaml", "version: 1\nusers: 10\ndays: 1\nstart: 2026-12-07\nsegments:\n  - name: s\n    share: 1\n"
            "    timezone: UTC\n" + keys)
    c.run("unknown-keys-20k-segment", g, "20k unknown keys in a usage model's segment",
          ["impact", "many/seg.model.yaml", "--rules", "many/p.yaml", "--format", "json"], [1])
    c.policy_case("rules-5m-empty", g, "5 million `{}` rules, 15 million findings (40 s and 1.7 GB before)",
                  {"p.yaml": ("version: 1\nplacements:\n  a: {format: banner}\nrules: [" + ",".join(["{}"] * 5_000_000) + "]\n")},
                  formats=("json",), test=False, simulate=False)
    c.policy_case("unknown-keys-1m-placement", g, "a placement of 1.2 million unknown keys (16 MiB)",
                  {"p.yaml": "version: 1\nplacements:\n  p:\n    format: interstitial\n"
                   + "".join("    k%x: 1\n" % i for i in range(1_190_000))}, formats=("json",), test=False, simulate=False)
    c.scenario_case("tests-5m-empty", g, "5 million `{}` tests (525 MB before): past 3 million values, refused",
                    "tests: [" + ",".join(["{}"] * 5_000_000) + "]\n", json_formats=False)
    long_key = "k" * 16_000
    c.policy_case("long-keys-echoed", g, "1000 placements at the top level keyed by 16,000 characters (33 MB of output before)",
                  {"p.yaml": "version: 1\nplacements:\n  a: {format: banner}\n"
                   + "".join('? "%s%d"\n: {format: banner}\n' % (long_key, i) for i in range(1000))},
                  formats=("json", "github"), test=False, simulate=False)
    c.policy_case("misaligned-key-after-16mb", g, "a key lined up with none, under 200 keys and a 16 MB value (each line counted from the start)",
                  {"p.yaml": "version: 1\nplacements:\n  a:\n    format: banner\n    ad_unit: \"" + "u" * 15_000_000 + "\"\n"
                   + "".join("    k%d: 1\n" % i for i in range(200)) + "   daily_cap: 3\n"}, formats=("json",), test=False, simulate=False)


def error_position_cases(c):
    """Errors found late in large JSON inputs (the ninth hunt, 2026-12-06); the position itself is a unit test (CompiledPolicyTests)."""
    g = "error-positions"
    # The line and column of an error at the last byte of a 64 MiB compiled policy were counted at ~90 ns a byte (6 s).
    c.write_chunks("positions/late.json", [b" " * (64 * 1024 * 1024 - 1), b"x"])
    c.run("compiled-error-at-64mib", g, "a compiled policy of 64 MiB with its error at the last byte", ["lint", "positions/late.json"], [1])
    # A string that is not UTF-8, its bad byte 3,000 bytes before its quote.
    c.write("positions/bad-utf8.json", b'{"version":1,"files":["' + b"B" * 100 + b"\xff" + b"B" * 3000 + b'"]}')
    c.run("compiled-bad-utf8-in-long-string", g, "bytes that are not UTF-8 inside a long string of a compiled policy",
          ["lint", "--format", "json", "positions/bad-utf8.json"], [1])


def main(argv):
    args = argv[1:]
    binary = None
    if "--binary" in args:
        i = args.index("--binary")
        binary = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1 or args[0].startswith("-"):
        sys.stderr.write("usage: make-corpus.py DIR [--binary ADRULES]\n")
        return 2
    root = os.path.abspath(args[0])
    if os.path.exists(root):
        if os.listdir(root) and not os.path.exists(os.path.join(root, MARKER)):
            sys.stderr.write("error: %s is not empty and not a corpus; refusing to delete it\n" % root)
            return 2
        for locked in ("policy/unlistable-subdir/sub", "policy/unreadable-file/secret.yaml"):
            if os.path.lexists(os.path.join(root, locked)):
                os.chmod(os.path.join(root, locked), 0o755)  # chmod 000 by an earlier run
        subprocess.run(["rm", "-rf", "--one-file-system", "--", root], check=True)  # deep trees: no recursion limit
    os.makedirs(root)
    open(os.path.join(root, MARKER), "w").close()
    c = Corpus(root)
    sanity(c)
    yaml_cases(c)
    big_cases(c)
    number_cases(c)
    duration_cases(c)
    expression_cases(c)
    injection_cases(c)
    special_paths(c)
    fs_cases(c)
    scenario_cases(c)
    compiled_cases(c, binary)
    impact_cases(c)
    merge_part_cases(c, binary)
    id_key_cases(c)
    window_history_cases(c)
    many_findings_cases(c)
    error_position_cases(c)
    with open(os.path.join(root, "manifest.json"), "w") as f:
        json.dump({"version": 1, "runs": c.runs, "notes": c.notes}, f, indent=1)
    cases = len({r["case"] for r in c.runs})
    print("corpus: %s: %d cases, %d runs" % (root, cases, len(c.runs)))
    for note in c.notes:
        print("note: " + note)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
