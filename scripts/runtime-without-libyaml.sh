#!/usr/bin/env bash
# Builds and runs Examples/RuntimeOnly, a package that depends only on the AdRules product, inside a private
# mount namespace where libyaml's header, pkg-config file and libraries are hidden: proof that apps link
# the runtime with no C library and no YAML. Needs root (unshare -m, overlay mounts).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# The overlays' work directories and the compiled policy are temporary; the build directory is kept and reused
# (.build-runtime-only, as .build is).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
policy=$work/policy.json
swift run -q adrules compile rules -o "$policy"
unshare -m --propagation private bash -euo pipefail -c '
  work=$1; root=$2; policy=$3
  hide() {  # hide(dir, files...): an overlay over dir in which the files are deleted
    local dir=$1; shift
    local id; id=$(echo "$dir" | tr / _)
    mkdir -p "$work/$id/upper" "$work/$id/work"
    mount -t overlay overlay -o "lowerdir=$dir,upperdir=$work/$id/upper,workdir=$work/$id/work" "$dir"
    for f in "$@"; do rm -f "$dir/$f"; done
  }
  hide /usr/include yaml.h
  hide /usr/lib/x86_64-linux-gnu libyaml.so libyaml.a libyaml-0.so.2 libyaml-0.so.2.0.9 pkgconfig/yaml-0.1.pc
  if pkg-config --exists yaml-0.1 || [ -e /usr/include/yaml.h ]; then echo "libyaml is still visible" >&2; exit 1; fi
  echo "libyaml hidden: no yaml.h, no yaml-0.1.pc, no libyaml.so"
  cd "$root/Examples/RuntimeOnly"
  swift build --scratch-path "$root/.build-runtime-only" 2>&1 | tail -n 3
  binary="$root/.build-runtime-only/debug/RuntimeOnly"
  if ldd "$binary" | grep -i yaml; then echo "the runtime links libyaml" >&2; exit 1; fi
  "$binary" "$policy"
' _ "$work" "$root" "$policy"
