#!/bin/sh
# Runs adrules over a hostile corpus and checks exit codes, time, memory and output.
#   scripts/hostile/check.sh CORPUS [ADRULES_BINARY] [options]   (see check.py --help)
# Default binary: .build/release/adrules of this checkout.
exec python3 "$(dirname "$0")/check.py" "$@"
