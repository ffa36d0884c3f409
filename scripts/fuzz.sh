#!/usr/bin/env bash
# Builds adrules-fuzz with libFuzzer and AddressSanitizer, and fuzzes every target it dispatches to (first byte:
# 0 rule file, 1 ledger + engine script, 2 scenario against a fixed policy, 3 extreme facts + engine script,
# 4 compiled policy + engine script, 5 usage model against the fixed policy, two users played for up to two days).
# Usage: scripts/fuzz.sh [seconds]    (default 300)
#   ADRULES_FUZZ_CONFIG=debug    build configuration (default release; a debug build compiles faster)
#   ADRULES_FUZZ_CORPUS=DIR      where new inputs go (default .fuzz-corpus, kept between runs)
# .ci/run's smoke test: a debug build, 30 seconds, from the seeds alone (an empty corpus directory).
# Starts from the seeds in fuzz/seeds and the inputs kept in the corpus directory from earlier runs. A crash, trap,
# leak, timeout or out-of-memory writes its input to .fuzz-artifacts/ and exits non-zero; replay it with
# `swift run adrules-fuzz FILE` (built without libFuzzer, that executable replays files).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
config=${ADRULES_FUZZ_CONFIG:-release}
corpus=${ADRULES_FUZZ_CORPUS:-.fuzz-corpus}
# swiftc keeps only its last -sanitize flag, and SwiftPM passes --sanitize values in no fixed order: the combined
# flag last gives every Swift file both libFuzzer's coverage and AddressSanitizer.
swift build -c "$config" --product adrules-fuzz --build-path .build-fuzz --sanitize=fuzzer --sanitize=address \
  -Xswiftc -sanitize=address,fuzzer -Xswiftc -DFUZZING
# An uninstrumented build would fuzz blind and pass; refuse it.
if ! objdump -h ".build-fuzz/$config/adrules_fuzz.build/FuzzTarget.swift.o" | grep -c sancov >/dev/null; then
  echo "adrules-fuzz was built without coverage instrumentation" >&2
  exit 1
fi
mkdir -p "$corpus" .fuzz-artifacts
# Swift's backtracer would catch a trap and exit normally; disabled, a trap reaches libFuzzer as a crash.
SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=fuzz/lsan.supp ".build-fuzz/$config/adrules-fuzz" "$corpus" fuzz/seeds \
  -dict=fuzz/adrules.dict -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix=.fuzz-artifacts/
