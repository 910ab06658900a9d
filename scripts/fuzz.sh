#!/usr/bin/env bash
# Runs every Fuzz* target in the module for FUZZTIME (default 5s) each.
# Discovery is by source, so a new fuzz target needs no Makefile change.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-5s}
status=0
while IFS= read -r file; do
  pkg="./$(dirname "${file#./}")"
  for fn in $(grep -oE '^func (Fuzz[A-Za-z0-9_]+)\(' "$file" | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/'); do
    echo "== fuzz $pkg $fn ($FUZZTIME)"
    if ! go test -run '^$' -fuzz "^${fn}\$" -fuzztime "$FUZZTIME" "$pkg"; then status=1; fi
  done
done < <(grep -rlE '^func Fuzz[A-Za-z0-9_]+\(' --include='*_test.go' . | grep -v node_modules | sort)
exit $status
