#!/usr/bin/env bash
# Renders an `adrules impact` html report with headless Chromium to a PNG, to check it as a person would.
#
#   scripts/impact-screenshot.sh [OUT.png] [adrules impact arguments...]
#
# Default: impact.png of `rules/usage.model.yaml --users 2000`; the script adds `--format html --output`, so leave
# those out of the arguments. Add `--compare OLD` to see old against new. Set HEIGHT (default 4200) for taller pages. Installs Debian's chromium when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
png=${1:-impact.png}
shift || true
args=("$@")
if [ ${#args[@]} -eq 0 ]; then args=(rules/usage.model.yaml --users 2000); fi
for arg in "${args[@]}"; do
  case $arg in
    --format|--format=*|--output|--output=*) echo "impact-screenshot.sh: leave out $arg; the script writes html to its own file" >&2; exit 2 ;;
  esac
done

browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "chromium is missing: installing Debian's chromium" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  browser=$(command -v chromium)
fi

swift build --product adrules >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.build/debug/adrules impact "${args[@]}" --format html --output "$work/impact.html"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size=1400,"${HEIGHT:-4200}" --screenshot="$work/shot.png" "file://$work/impact.html" 2>/dev/null
mv "$work/shot.png" "$png"
echo "wrote $png"
