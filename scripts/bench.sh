#!/usr/bin/env bash
# Builds the release benchmark, runs it, and times `adrules lint rules` as a whole process.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product adrules-bench >/dev/null
swift build -c release --product adrules >/dev/null
.build/release/adrules-bench "$@"
echo
echo "Whole process: adrules lint rules (release build, 20 runs)"
times=()
for _ in $(seq 20); do
  start=$(date +%s%N)
  .build/release/adrules lint rules >/dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "median $((sorted[10] / 1000)).$(( (sorted[10] % 1000) / 100 )) ms, min $((sorted[0] / 1000)).$(( (sorted[0] % 1000) / 100 )) ms (target <= 20 ms)"
if [ -x /usr/bin/time ]; then
  /usr/bin/time -f "one run: %e s elapsed, %M KiB peak RSS" .build/release/adrules lint rules
fi
