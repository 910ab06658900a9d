#!/usr/bin/env bash
# Runs every Fuzz* target in the module for FUZZTIME (default 3s) each.
# Bounded so that `make test` (and CI, with its 25-minute budget for
# everything) stays quick; a longer run is `make fuzz FUZZTIME=1m`.
# Discovery is by source, so a new fuzz target needs no Makefile change.
#
# FUZZ_SHARE=k fuzzes one package in k (`make test` uses 6: fuzzing every
# target took 541 s of CI's 25 minutes, 342 of them building instrumented
# binaries; a third still took 312 s on 2026-12-01's VM, 250 of them
# building, when every dependency was instrumented: below). The packages
# are dealt round-robin, most targets first, into k rounds; FUZZ_ROUND picks one, by default the commit's hash modulo k, so a
# re-run of a commit fuzzes the same packages; which round a commit gets
# is chance (its hash), not its place in the history. Every target's seed corpus still runs in every `go test`.
#
# Each package's instrumented test binary is built once and run for each
# of its targets, as go test -fuzz runs it (from the package's directory,
# with the corpus cache under GOCACHE/fuzz): go test -fuzz links the binary
# again for every target, 2-7 s each. Only this module's packages are
# instrumented for coverage (-gcflags=<module>/...=-d=libfuzzer, the flag
# go test -fuzz gives every package): the parsers fuzzed are ours, and the
# standard library and dependencies then come from go test's build cache
# instead of being compiled again instrumented, which took 250 of fuzzing's
# 312 s in a rehearsal (./verifier/ipintel/ipdb's binary 70 s; built so,
# 6 s). A guard four comparisons deep in a package of the module is found
# in seconds this way and not in 20 s by an uninstrumented binary (checked
# 2026-12-02).
#
# Go 1.26's fuzz coordinator can fail a target with a bare "context deadline
# exceeded" right at the -fuzztime boundary on a loaded machine, having
# found nothing (golang/go#75804, fixed in Go 1.27). A real finding always
# writes "Failing input written to ...", so only that signature is retried
# (twice); every other failure fails the run at once.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZTIME=${FUZZTIME:-3s}
share=${FUZZ_SHARE:-1}
head=$(git rev-parse --short=7 HEAD 2>/dev/null || echo 0)
round=${FUZZ_ROUND:-$(( 16#$head % share ))}
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

targets_in() { grep -ohE '^func (Fuzz[A-Za-z0-9_]+)\(' "$1"/*_test.go | sed -E 's/^func (Fuzz[A-Za-z0-9_]+)\(/\1/' | sort; }

# The packages with targets, most targets first, each dealt to the round
# with the fewest targets so far.
mapfile -t plan < <(grep -rlE '^func Fuzz[A-Za-z0-9_]+\(' --include='*_test.go' . | grep -v node_modules | xargs -n1 dirname | sort -u |
  while IFS= read -r dir; do echo "$(targets_in "$dir" | wc -l) $dir"; done | sort -k1,1nr -k2,2 |
  awk -v k="$share" '{ r = 0; for (i = 1; i < k; i++) if (n[i] < n[r]) r = i; n[r] += $1; print r, $2 }')
if [ "$share" -gt 1 ]; then
  echo "== fuzz: round $round of 0..$((share - 1)) (FUZZ_ROUND=$round FUZZ_SHARE=$share scripts/fuzz.sh repeats it; \`make fuzz\` fuzzes all ${#plan[@]} packages)"
fi
for line in "${plan[@]}"; do
  [ "${line%% *}" -eq "$round" ] || continue
  dir=${line#* }
  targets=$(targets_in "$dir")
  importpath=$module${dir#.}
  test="$bin/$(echo "${dir#./}" | tr / _).test"
  echo "== fuzz $dir: building its instrumented test binary"
  if ! go test -c -o "$test" -gcflags="$module/...=-d=libfuzzer" "$dir"; then
    status=1
    continue
  fi
  for fn in $targets; do
    echo "== fuzz $dir $fn ($FUZZTIME)"
    fuzz_one "$dir" "$importpath" "$test" "$fn" || status=1
  done
done
exit $status
