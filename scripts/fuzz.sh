#!/usr/bin/env bash
# Runs every Fuzz* target in the module for FUZZTIME (default 3s) each.
# Bounded so that `make test` (and CI, with its 25-minute budget for
# everything) stays quick; a longer run is `make fuzz FUZZTIME=1m`.
# Discovery is by source, so a new fuzz target needs no Makefile change.
#
# Each package's instrumented test binary is built once (go test -c -fuzz)
# and run for each of its targets, as go test -fuzz runs it (from the
# package's directory, with the corpus cache under GOCACHE/fuzz): go test
# -fuzz links the binary again for every target, 2-7 s each.
#
# Go 1.26's fuzz coordinator can fail a target with a bare "context deadline
# exceeded" right at the -fuzztime boundary on a loaded machine, having
# found nothing (golang/go#75804, fixed in Go 1.27). A real finding always
# writes "Failing input written to ...", so only that signature is retried
# (twice); every other failure fails the run at once.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-3s}
status=0
bin=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$log" "$bin"' EXIT
cache="$(go env GOCACHE)/fuzz"
module=$(go list -m)

fuzz_one() { # dir importpath binary target
  local try
  for try in 1 2 3; do
    if (cd "$1" && "$3" -test.paniconexit0 -test.timeout=10m -test.run='^$' -test.fuzz="^$4\$" \
          -test.fuzztime="$FUZZTIME" -test.fuzzcachedir="$cache/$2") 2>&1 | tee "$log"; then
      return 0
    fi
    if grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written to' "$log"; then
      echo "== fuzz $2 $4: coordinator deadline race (golang/go#75804), no input found; retry $try of 2"
      continue
    fi
    return 1
  done
  return 1
}

while IFS= read -r dir; do
  targets=$(grep -ohE '^func (Fuzz[A-Za-z0-9_]+)\(' "$dir"/*_test.go | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | sort)
  importpath=$module${dir#.}
  test="$bin/$(echo "${dir#./}" | tr / _).test"
  echo "== fuzz $dir: building its instrumented test binary"
  if ! go test -c -o "$test" -fuzz "^$(echo "$targets" | head -1)\$" "$dir"; then
    status=1
    continue
  fi
  for fn in $targets; do
    echo "== fuzz $dir $fn ($FUZZTIME)"
    fuzz_one "$dir" "$importpath" "$test" "$fn" || status=1
  done
done < <(grep -rlE '^func Fuzz[A-Za-z0-9_]+\(' --include='*_test.go' . | grep -v node_modules | xargs -n1 dirname | sort -u)
exit $status
