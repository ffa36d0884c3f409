#!/usr/bin/env bash
# Builds the libFuzzer target (AddressSanitizer on) and fuzzes rule and scenario files.
# Usage: scripts/fuzz.sh [seconds]   (corpus in .fuzz-corpus, seeded from rules/ and the test fixtures)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
swift build -c release --product adrules-fuzz --build-path .build-fuzz --sanitize=fuzzer --sanitize=address -Xswiftc -DFUZZING
mkdir -p .fuzz-corpus
cp rules/*.yaml Tests/AdRulesCLITests/Fixtures/*.yaml .fuzz-corpus/ 2>/dev/null || true
.build-fuzz/release/adrules-fuzz .fuzz-corpus -max_total_time="$seconds" -max_len=8192 -timeout=10
