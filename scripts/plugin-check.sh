#!/usr/bin/env bash
# Breaks a rule in a copy of Examples/Demo and checks that `swift build` fails and names the YAML file and line:
# what an app developer sees when AdRulesPlugin finds a lint error. The copy builds in the demo's scratch path
# (default .build-demo, or $DEMO_SCRATCH), so after the demo was built only the broken step runs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scratch=${DEMO_SCRATCH:-$root/.build-demo}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir "$work/Demo"
cp -R Examples/Demo/Package.swift Examples/Demo/Sources "$work/Demo/"
# The copy depends on this checkout by absolute path instead of ../..
sed "s#path: \"../..\"#path: \"$root\"#" Examples/Demo/Package.swift > "$work/Demo/Package.swift"
grep -q "path: \"$root\"" "$work/Demo/Package.swift" || { echo "plugin-check: could not point the copy at $root" >&2; exit 1; }

rules="$work/Demo/Sources/Demo/rules/app_open.yaml"
line=$(grep -n "daily_cap: 6$" "$rules" | head -n 1 | cut -d: -f1)
[ -n "$line" ] || { echo "plugin-check: no 'daily_cap: 6' in $rules" >&2; exit 1; }
sed "${line}s/daily_cap: 6/daily_cap: six/" "$rules" > "$work/app_open.yaml" && mv "$work/app_open.yaml" "$rules"
column=$(sed -n "${line}p" "$rules" | awk '{ print index($0, "six") }')
expected="$rules:$line:$column: error:"

if swift build --package-path "$work/Demo" --scratch-path "$scratch" > "$work/build.log" 2>&1; then
  cat "$work/build.log" >&2
  echo "plugin-check: swift build succeeded with daily_cap: six in $rules" >&2
  exit 1
fi
if ! grep -F "$expected" "$work/build.log"; then
  cat "$work/build.log" >&2
  echo "plugin-check: swift build failed without naming $expected" >&2
  exit 1
fi
echo "plugin-check: ok, swift build failed at the YAML line"
