#!/usr/bin/env python3
"""Runs `adrules` over a hostile corpus (make-corpus.py) and checks every run.

    scripts/hostile/check.sh CORPUS [ADRULES] [--timeout S] [--rss-limit-mb N] [--as-limit-mb N]
                             [--fsize-limit-mb N] [--only REGEX] [--jobs N] [--keep DIR] [--failures-only]

A run passes when:
  - it ends by itself within --timeout seconds (default 10)                   else HANG
  - it is not killed by a signal and does not exit >= 128                     else CRASH(SIG) / MEMORY(SIG)
  - its exit code fits the case: bad input 1..3 (some cases a specific code),
    valid input 0, "any" 0..3                                                 else EXIT
  - its peak RSS stays under --rss-limit-mb (default 512 MiB)                 else RSS
    (the address space is capped at --as-limit-mb, default 2048 MiB; hitting that cap
    usually shows as MEMORY(SIG))
  - it writes at most --fsize-limit-mb (default 256 MiB) to a stream          else FLOOD
  - no output line starts with a line forged by the input (fake.yaml:..., PASS forged,
    1337 passed, ::add-mask::, == forged, ...)                                else FORGED
  - no output byte is a raw control character: C0 other than tab and newline
    (ESC, CR, NUL, BEL, BS...), DEL, or a C1 control (U+0080..U+009F)         else CTRL
  - the output is valid UTF-8                                                 else UTF8
  - --format json/sarif output parses as strict JSON                          else JSON
  - case-specific regexes do not match (e.g. a diagnostic at 1:1)            else MATCH
  - case-specific regexes that must match do (e.g. a finding a comment must not hide)  else MISSING
Warnings (reported, not failing): LEAK (content of a file outside the policy, reached by a
symlink, is echoed), UNICODE (bidi overrides, U+2028/2029, BOM in the output), BIG-OUTPUT
(more than 32 MiB), SLOW (more than half the timeout).

Every run is executed as (cwd = CORPUS):
    SWIFT_BACKTRACE=enable=no /usr/bin/time -f "%M %x" -o T prlimit --as=A --fsize=F --core=0 -- ADRULES ARGS...
in a new session, killed with its process group at the timeout (peak RSS of a hung run is
its VmHWM read just before the kill). GNU time measures the peak RSS exactly; without it
the checker's own RSS leaks into ru_maxrss (the kernel keeps the pre-exec peak).
Runs with `post` checks: a device node given to --output must still be one afterwards
(else CLOBBER); a symlink given to --output that got replaced is a warning. Cases marked `nocaps` run
under `setpriv --bounding-set -dac_override,-dac_read_search` so that chmod 000 stops root.
Exit status: 0 when every run passes, 1 when any fails, 2 for a usage error.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time

FORGED_LINE = re.compile(
    rb"^(?:fake\.yaml:|[ \t]+::|PASS forged|FAIL forged|1337 passed|== forged|::add-mask::|::stop-commands::"
    rb"|::set-output|::set-env|::(?:error|warning|notice) file=fake\.yaml)", re.M)
# GitHub Actions reads its legacy command form anywhere in a line.
LEGACY_COMMAND = re.compile(rb"##\[")
CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
UNICODE_FORMAT = re.compile(rb"\xe2\x80[\xa8-\xae]|\xe2\x81[\xa6-\xa9]|\xef\xbb\xbf")
FAIL_ORDER = ["CRASH", "MEMORY", "HANG", "RSS", "FLOOD", "CLOBBER", "FORGED", "CTRL", "UTF8", "JSON", "MATCH", "MISSING", "EXIT"]
BIG_OUTPUT = 32 << 20


def bash_quote(text):
    if text and re.fullmatch(r"[A-Za-z0-9_@%+=:,./-]+", text):
        return text
    if all(32 <= ord(ch) < 127 for ch in text) and "'" not in text:
        return "'" + text + "'"
    out = []
    for ch in text:
        code = ord(ch)
        if ch == "\\" or ch == "'":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif code < 32 or code == 127:
            out.append("\\x%02x" % code)
        elif 0x80 <= code < 0xA0 or 0x2028 <= code <= 0x202E or 0x2066 <= code <= 0x2069:
            out.append("".join("\\x%02x" % b for b in ch.encode()))
        else:
            out.append(ch)
    return "$'" + "".join(out) + "'"


def printable(text, limit=None):
    """Text safe for a terminal: controls and format characters escaped."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch == "\n":
            out.append("\\n")
        elif code < 32 or code == 127 or 0x80 <= code < 0xA0 or 0x2028 <= code <= 0x202E or 0x2066 <= code <= 0x2069 or code == 0xFEFF:
            out.append("\\x%02x" % code if code < 256 else "\\u%04x" % code)
        else:
            out.append(ch)
    text = "".join(out)
    if limit and len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


def short_command(args, limit=56):
    if len(args) > 8:
        args = args[:4] + ["...(%d args)" % len(args)]
    text = " ".join(printable(a, 40) if a else "''" for a in args)
    return printable(text, limit)


class Checker:
    def __init__(self, options):
        self.o = options
        self.corpus = os.path.abspath(options.corpus)
        self.binary = os.path.abspath(options.binary)
        self.as_bytes = options.as_limit_mb << 20
        self.fsize = options.fsize_limit_mb << 20
        self.lock = threading.Lock()
        self.results = []
        self.outdir = options.keep or tempfile.mkdtemp(prefix="adrules-hostile-")
        os.makedirs(self.outdir, exist_ok=True)
        self.is_root = os.geteuid() == 0
        self.setpriv = shutil.which("setpriv")
        self.prlimit = shutil.which("prlimit")
        # GNU time forks the run from a tiny process: ru_maxrss of a child forked from this
        # checker would include the checker's own RSS (the kernel keeps the pre-exec peak).
        self.time = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/root"),
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC", "TERM": "dumb", "SWIFT_BACKTRACE": "enable=no",
        }
        self.has_compile = self.probe(["help", "compile"]) == 0

    def probe(self, args):
        try:
            return subprocess.run([self.binary] + args, capture_output=True, timeout=30, env=self.env).returncode
        except (OSError, subprocess.TimeoutExpired):
            return -1

    def argv(self, run):
        limits = [self.prlimit, "--as=%d" % self.as_bytes, "--fsize=%d" % self.fsize, "--core=0", "--"] if self.prlimit else []
        caps = []
        if run.get("nocaps") and self.is_root:
            caps = [self.setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--"]
        return caps + limits + [self.binary] + run["args"]

    def repro(self, run):
        argv = self.argv(run)
        words = [bash_quote(a) for a in argv]
        if len(words) > 40:
            words = words[:30] + ["...  # %d arguments in all: see manifest.json" % len(words)]
        prefix = "sleep 3600 | " if run.get("stdin") == "tty-like-pipe" else ""
        return "cd %s && %sSWIFT_BACKTRACE=enable=no timeout -s KILL %g %s" % (
            bash_quote(self.corpus), prefix, self.o.timeout, " ".join(words))

    @staticmethod
    def descendants(pid):
        found, todo = [], [pid]
        while todo:
            current = todo.pop()
            try:
                with open("/proc/%d/task/%d/children" % (current, current)) as f:
                    children = [int(x) for x in f.read().split()]
            except OSError:
                children = []
            found += children
            todo += children
        return found

    @staticmethod
    def peak_kib(pid):
        try:
            with open("/proc/%d/status" % pid) as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except (OSError, ValueError):
            pass
        return 0

    def prepare_post(self, run):
        for post in run.get("post", []):
            path = os.path.join(self.corpus, post["path"])
            if post["kind"] == "chardev":
                try:
                    if not stat.S_ISCHR(os.lstat(path).st_mode):
                        os.unlink(path)
                        raise FileNotFoundError
                except FileNotFoundError:
                    try:
                        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(*post["dev"]))
                    except OSError:
                        pass
            elif post["kind"] == "symlink":
                if not os.path.islink(path):
                    if os.path.lexists(path):
                        os.unlink(path)
                    os.symlink(post["target"], path)

    def check_post(self, run, fails, warns, details):
        for post in run.get("post", []):
            path = os.path.join(self.corpus, post["path"])
            try:
                mode = os.lstat(path).st_mode
            except OSError:
                mode = 0
            if post["kind"] == "chardev" and not stat.S_ISCHR(mode):
                fails.append("CLOBBER")
                details.append("%s was a character device and is now %s" % (post["path"], "gone" if not mode else "a regular file" if stat.S_ISREG(mode) else oct(mode)))
            if post["kind"] == "symlink" and not stat.S_ISLNK(mode):
                warns.append("CLOBBER-LINK")
                details.append("%s was a symlink and has been replaced by %s" % (post["path"], "nothing" if not mode else "a regular file" if stat.S_ISREG(mode) else oct(mode)))

    def execute(self, index, run):
        out_path = os.path.join(self.outdir, "%04d.out" % index)
        err_path = os.path.join(self.outdir, "%04d.err" % index)
        time_path = os.path.join(self.outdir, "%04d.time" % index)
        self.prepare_post(run)
        argv = self.argv(run)
        if self.time:
            argv = [self.time, "-f", "%M %x", "-o", time_path] + argv
        stdin = subprocess.DEVNULL
        pipe_w = None
        if run.get("stdin") == "tty-like-pipe":
            pipe_r, pipe_w = os.pipe()
            stdin = pipe_r
        with open(out_path, "wb") as out, open(err_path, "wb") as err:
            start = time.monotonic()
            process = subprocess.Popen(argv, cwd=self.corpus, env=self.env, stdin=stdin, stdout=out,
                                       stderr=err, start_new_session=True)
            if pipe_w is not None:
                os.close(pipe_r)
            timed_out = False
            hung_peak = 0
            delay = 0.002
            while True:
                pid, status, usage = os.wait4(process.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() - start > self.o.timeout:
                    timed_out = True
                    hung_peak = max([self.peak_kib(p) for p in self.descendants(process.pid)] + [0])
                    try:
                        os.killpg(process.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                    pid, status, usage = os.wait4(process.pid, 0)
                    break
                time.sleep(delay)
                delay = min(delay * 1.5, 0.05)
            elapsed = time.monotonic() - start
            process.returncode = status
        if pipe_w is not None:
            os.close(pipe_w)
        rss_kib = usage.ru_maxrss
        if self.time:
            # "%M %x" on the last line; "Command terminated by signal N" before it.
            rss_kib = hung_peak if timed_out else 0
            try:
                with open(time_path) as f:
                    lines = f.read().splitlines()
                os.unlink(time_path)
            except OSError:
                lines = []
            if not timed_out and lines:
                fields = lines[-1].split()
                if len(fields) == 2 and fields[0].isdigit():
                    rss_kib = int(fields[0])
                    signaled = [l for l in lines if l.startswith("Command terminated by signal")]
                    if signaled:
                        status = int(signaled[-1].split()[-1])          # a raw wait status: WTERMSIG = N
                    else:
                        status = (int(fields[1]) & 0xFF) << 8           # WEXITSTATUS = x
        elif timed_out:
            rss_kib = max(rss_kib, hung_peak)
        return self.judge(index, run, status, timed_out, elapsed, rss_kib / 1024.0, out_path, err_path)

    def expected(self, run, code):
        expect = run["expect"]
        if isinstance(expect, list):
            return code in expect
        if expect == "bad":
            return 1 <= code <= 3
        if expect == "valid":
            return code == 0
        return 0 <= code <= 3

    def judge(self, index, run, status, timed_out, elapsed, rss_mb, out_path, err_path):
        fails, warns, details = [], [], []
        signaled = os.WIFSIGNALED(status)
        code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
        with open(out_path, "rb") as f:
            stdout = f.read()
        with open(err_path, "rb") as f:
            stderr = f.read()
        tail = stderr[-8192:]
        fatal = re.search(rb"(?:Fatal error|fatal error|error)[^\n]{0,200}", tail)
        if fatal:
            details.append(fatal.group(0).decode("utf-8", "replace"))
        if timed_out:
            fails.append("HANG")
            shown = "TIMEOUT"
        elif signaled:
            sig = os.WTERMSIG(status)
            try:
                name = signal.Signals(sig).name
            except ValueError:
                name = "SIG%d" % sig
            shown = name
            if sig == signal.SIGXFSZ:
                fails.append("FLOOD")
                details.append("output over %d MiB" % self.o.fsize_limit_mb)
            elif rss_mb > 0.5 * self.o.as_limit_mb or re.search(rb"alloc|memory", tail, re.I):
                fails.append("MEMORY(%s)" % name)
                details.append("peak RSS %.0f MiB under a %d MiB address-space cap" % (rss_mb, self.o.as_limit_mb))
            else:
                fails.append("CRASH(%s)" % name)
        else:
            shown = str(code)
            if code >= 128:
                fails.append("CRASH(exit %d)" % code)
            elif not self.expected(run, code):
                fails.append("EXIT")
                details.append("exit %d, expected %s" % (code, run["expect"] if not isinstance(run["expect"], list) else "/".join(map(str, run["expect"]))))
        if rss_mb > self.o.rss_limit_mb and not any(f.startswith("MEMORY") for f in fails):
            fails.append("RSS")
            details.append("peak RSS %.0f MiB" % rss_mb)
        both = stdout + b"\n" + stderr
        forged = FORGED_LINE.search(both) or LEGACY_COMMAND.search(both)
        if forged:
            fails.append("FORGED")
            line_end = both.find(b"\n", forged.start())
            details.append("forged line: " + printable(both[forged.start(): line_end if line_end >= 0 else None].decode("utf-8", "replace"), 90))
        control = CONTROL.search(both)
        if control:
            fails.append("CTRL")
            raw = both[max(0, control.start() - 30): control.end() + 30].decode("utf-8", "replace")
            details.append("raw control char %r near: %s" % (control.group(0), printable(raw, 90)))
        try:
            both.decode("utf-8")
        except UnicodeDecodeError as error:
            fails.append("UTF8")
            details.append("invalid UTF-8 in output at byte %d" % error.start)
        if not timed_out and not signaled and (run.get("json") or (run.get("json_if_ok") and code == 0)):
            if code in (0, 1) or stdout.strip():
                if len(stdout) > (64 << 20):
                    warns.append("JSON-UNCHECKED")
                else:
                    try:
                        json.loads(stdout.decode("utf-8", "strict"))
                    except (ValueError, UnicodeDecodeError) as error:
                        fails.append("JSON")
                        details.append("stdout is not JSON: %s" % printable(str(error), 80))
        for pattern in run.get("must_not", []):
            found = re.search(pattern.encode(), both, re.M)
            if found:
                fails.append("MATCH")
                details.append("output matches %r: %s" % (pattern, printable(found.group(0).decode("utf-8", "replace"), 60)))
        for pattern in run.get("must", []):
            if not timed_out and not signaled and not re.search(pattern.encode(), both, re.M):
                fails.append("MISSING")
                details.append("output lacks %r" % pattern)
        for pattern in run.get("warn_not", []):
            if re.search(pattern.encode(), both, re.M):
                warns.append("LEAK")
                details.append("output contains %r (file outside the policy)" % pattern)
        self.check_post(run, fails, warns, details)
        if UNICODE_FORMAT.search(both):
            warns.append("UNICODE")
        if len(stdout) + len(stderr) > BIG_OUTPUT:
            warns.append("BIG-OUTPUT")
        if not timed_out and elapsed > self.o.timeout / 2:
            warns.append("SLOW")
        result = {
            "index": index, "run": run, "exit": shown, "seconds": elapsed, "rss_mb": rss_mb,
            "out_mb": (len(stdout) + len(stderr)) / 1048576.0, "fails": fails, "warns": warns, "details": details,
        }
        if not self.o.keep:
            os.unlink(out_path)
            os.unlink(err_path)
        return result

    def row(self, result):
        run = result["run"]
        verdict = " ".join(result["fails"]) or "ok"
        if result["warns"]:
            verdict += " (warn: %s)" % ",".join(result["warns"])
        return "%-34s %-56s %7s %6.2f %7.0f %7.1f  %s" % (
            printable(run["case"], 34), short_command(run["args"]), result["exit"], result["seconds"],
            result["rss_mb"], result["out_mb"], verdict)

    def main(self):
        with open(os.path.join(self.corpus, "manifest.json")) as f:
            manifest = json.load(f)
        runs = []
        skipped = []
        for run in manifest["runs"]:
            if self.o.only and not (re.search(self.o.only, run["case"]) or re.search(self.o.only, run["group"])):
                continue
            if run.get("needs") == "compile" and not self.has_compile:
                skipped.append(run)
                continue
            if run.get("nocaps") and self.is_root and not self.setpriv:
                skipped.append(run)
                continue
            runs.append(run)
        print("adrules: %s" % self.binary)
        print("corpus:  %s (%d runs; %d skipped%s)" % (self.corpus, len(runs), len(skipped),
                                                       "" if self.has_compile else ": the binary has no `compile`"))
        print("limits:  %gs, RSS < %d MiB, address space %d MiB, output %d MiB per stream" % (
            self.o.timeout, self.o.rss_limit_mb, self.o.as_limit_mb, self.o.fsize_limit_mb))
        if not self.time:
            print("note:    /usr/bin/time is missing (apt-get install time): peak RSS then includes this checker's own RSS")
        if not self.prlimit:
            print("note:    prlimit is missing (util-linux): no address-space or output-size cap")
        for note in manifest.get("notes", []):
            print("note:    " + note)
        print()
        header = "%-34s %-56s %7s %6s %7s %7s  %s" % ("case", "command", "exit", "secs", "peakMB", "outMB", "verdict")
        print(header)
        print("-" * len(header))
        sys.stdout.flush()

        def done(result):
            with self.lock:
                self.results.append(result)
                if result["fails"] or result["warns"] or not self.o.failures_only:
                    print(self.row(result))
                    sys.stdout.flush()

        if self.o.jobs <= 1:
            for index, run in enumerate(runs):
                done(self.execute(index, run))
        else:
            with concurrent.futures.ThreadPoolExecutor(self.o.jobs) as pool:
                futures = [pool.submit(self.execute, i, r) for i, r in enumerate(runs)]
                for future in concurrent.futures.as_completed(futures):
                    done(future.result())
        return self.summary(len(skipped))

    def summary(self, skipped):
        results = sorted(self.results, key=lambda r: r["index"])
        failed = [r for r in results if r["fails"]]
        warned = [r for r in results if r["warns"] and not r["fails"]]
        print()
        print("%d runs: %d passed, %d failed, %d passed with warnings, %d skipped" % (
            len(results), len(results) - len(failed) - len(warned), len(failed), len(warned), skipped))
        failed_cases = sorted({r["run"]["case"] for r in failed})
        print("%d of %d cases have a failing run" % (len(failed_cases), len({r["run"]["case"] for r in results})))
        def primary(kinds):
            names = [k.split("(")[0] for k in kinds]
            return min(names, key=lambda k: FAIL_ORDER.index(k) if k in FAIL_ORDER else len(FAIL_ORDER))

        groups = {}
        for r in results:
            if r["fails"]:
                groups.setdefault(primary(r["fails"]), []).append(r)
            elif r["warns"]:
                groups.setdefault("warn:" + r["warns"][0], []).append(r)
        order = FAIL_ORDER + sorted(k for k in groups if k not in FAIL_ORDER)
        for kind in order:
            if kind not in groups:
                continue
            print()
            print("== %s: %d run(s) (each run listed once, under its most severe failure)" % (kind, len(groups[kind])))
            for r in groups[kind]:
                run = r["run"]
                print("  %s | %s | exit %s, %.2fs, %.0f MiB | %s" % (
                    printable(run["case"]), short_command(run["args"], 90), r["exit"], r["seconds"], r["rss_mb"],
                    " ".join(r["fails"] + ["warn:" + w for w in r["warns"]])))
                print("    why:    %s" % printable(run["why"], 150))
                for detail in r["details"]:
                    print("    detail: %s" % printable(detail, 150))
                if not kind.startswith("warn:") or kind in ("warn:LEAK", "warn:CLOBBER-LINK"):
                    print("    repro:  %s" % self.repro(run))
        print()
        print("== cases per failure kind")
        for kind in FAIL_ORDER:
            cases = sorted({r["run"]["case"] for r in results if any(k.split("(")[0] == kind for k in r["fails"])})
            if cases:
                print("  %-8s %3d: %s" % (kind, len(cases), ", ".join(printable(c, 60) for c in cases)))
        for kind in sorted({w for r in results for w in r["warns"]}):
            cases = sorted({r["run"]["case"] for r in results if kind in r["warns"]})
            print("  warn:%-12s %3d: %s" % (kind, len(cases), ", ".join(printable(c, 60) for c in cases)))
        if self.o.keep:
            print("\noutputs kept in %s (NNNN.out / NNNN.err, NNNN = run index)" % self.outdir)
        else:
            shutil.rmtree(self.outdir, ignore_errors=True)
        return 1 if failed else 0


def main(argv):
    parser = argparse.ArgumentParser(prog="check.sh", description=__doc__.split("\n")[0])
    parser.add_argument("corpus")
    parser.add_argument("binary", nargs="?", default=None)
    parser.add_argument("--timeout", type=float, default=float(os.environ.get("HOSTILE_TIMEOUT", 10)))
    parser.add_argument("--rss-limit-mb", type=int, default=int(os.environ.get("HOSTILE_RSS_MB", 512)))
    parser.add_argument("--as-limit-mb", type=int, default=int(os.environ.get("HOSTILE_AS_MB", 2048)))
    parser.add_argument("--fsize-limit-mb", type=int, default=256)
    parser.add_argument("--only", help="regex on the case name or on the group name")
    parser.add_argument("--jobs", "-j", type=int, default=1)
    parser.add_argument("--keep", help="keep every run's stdout/stderr in this directory")
    parser.add_argument("--failures-only", action="store_true", help="print only rows that fail or warn")
    options = parser.parse_args(argv[1:])
    if options.binary is None:
        here = os.path.dirname(os.path.abspath(__file__))
        options.binary = os.path.join(here, "..", "..", ".build", "release", "adrules")
    if not os.path.isfile(os.path.join(options.corpus, "manifest.json")):
        sys.stderr.write("error: %s has no manifest.json: run scripts/hostile/make-corpus.sh first\n" % options.corpus)
        return 2
    if not os.access(options.binary, os.X_OK):
        sys.stderr.write("error: %s is not an executable\n" % options.binary)
        return 2
    return Checker(options).main()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
