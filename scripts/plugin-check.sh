#!/usr/bin/env bash
# Breaks a rule in a copy of Examples/Demo and checks that `swift build` fails and names the YAML file and line:
# what an app developer sees when AdRulesPlugin finds a lint error.
#
# The copy builds in the demo's scratch path (default .build-demo, or $DEMO_SCRATCH), so once the demo was built
# only the broken step runs. It sits at a fixed path inside that scratch path: copies at a new temporary path each
# time made SwiftPM (6.3) reuse the build plan of an earlier copy with the same manifest and build nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scratch=${DEMO_SCRATCH:-$root/.build-demo}
copy="$scratch/plugin-check/Demo"
trap 'rm -rf "$copy"' EXIT

rm -rf "$copy"
mkdir -p "$copy"
cp -R Examples/Demo/Sources "$copy/"
# The copy depends on this checkout by absolute path instead of ../..
sed "s#path: \"../..\"#path: \"$root\"#" Examples/Demo/Package.swift > "$copy/Package.swift"
grep -q "path: \"$root\"" "$copy/Package.swift" || { echo "plugin-check: could not point the copy at $root" >&2; exit 1; }

rules="$copy/Sources/Demo/rules/app_open.yaml"
line=$(grep -n "daily_cap: 6$" "$rules" | head -n 1 | cut -d: -f1)
[ -n "$line" ] || { echo "plugin-check: no 'daily_cap: 6' in $rules" >&2; exit 1; }
sed "${line}s/daily_cap: 6/daily_cap: six/" "$rules" > "$rules.broken" && mv "$rules.broken" "$rules"
column=$(sed -n "${line}p" "$rules" | awk '{ print index($0, "six") }')
expected="$rules:$line:$column: error:"

log="$scratch/plugin-check/build.log"
if swift build --package-path "$copy" --scratch-path "$scratch" > "$log" 2>&1; then
  cat "$log" >&2
  echo "plugin-check: swift build succeeded with daily_cap: six in $rules" >&2
  exit 1
fi
if ! grep -F "$expected" "$log"; then
  cat "$log" >&2
  echo "plugin-check: swift build failed without naming $expected" >&2
  exit 1
fi
echo "plugin-check: ok, swift build failed at the YAML line"
