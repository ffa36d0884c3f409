#!/bin/sh
# Generates the hostile-input corpus into DIR (put it under /tmp: it holds 200 MB of files,
# FIFOs, sockets, device nodes and symlinks to /dev/zero).
#   scripts/hostile/make-corpus.sh DIR [--binary ADRULES]
exec python3 "$(dirname "$0")/make-corpus.py" "$@"
