#!/usr/bin/env bash
# Prints every measured figure: Go benchmarks across the module, then each
# program under bench/ (those run a baseline side by side and print the ratio).
set -euo pipefail
cd "$(dirname "$0")/.."
BENCHTIME=${BENCHTIME:-1s}
echo "== go benchmarks"
go test -run '^$' -bench . -benchmem -benchtime "$BENCHTIME" ./... | grep -vE '^(ok|PASS|\?)' || true
for dir in bench/*/; do
  [ -f "$dir/main.go" ] || continue
  echo "== ${dir%/}"
  go run "./${dir%/}"
done
