#!/usr/bin/env bash
# testgo.sh is `make test-go`'s go test: every package, the longest first
# (SLOW_FIRST, from the Makefile), then what a CI log's reader needs at its
# end, where a log cut to its last lines still shows it: one line per
# package whose tests skipped for absent test data, the packages that took
# the most CPU (var/test-cpu.txt has them all), the tests whose browsers
# took the most (var/browser-cpu.txt) and, when tests failed, a
# digest of the failures (var/test-go.log has the whole output). Without
# the digest a failure printed mid-run, before the other packages' lines,
# was cut from the part of the log CI shows (stop 46: a failed browser walk
# whose error lines never reached the reader).
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
# The machine's CPU counters (/proc/stat, clock ticks): whether the cores
# were busy all along (CPU-bound: only less work helps) or waited (more at
# once would help).
cpustat() { awk '/^cpu / { print $2 + $3, $4 + $7 + $8, $5 + $6, $9 }' /proc/stat; }
before=$(cpustat)
mkdir -p var && rm -f var/skipped.txt var/test-cpu.txt var/browser-cpu.txt
# -vet=off: `make test-go` has just run `go vet ./...`, every analyzer over
# the same packages and their tests; go test's own pass (a subset of the
# analyzers, each package type-checked again) cost about 100 s of CPU from
# a cold cache on a 2-core machine (2026-12-02).
IDGATE_SKIP_REPORT=$PWD/var/skipped.txt IDGATE_CPU_REPORT=$PWD/var/test-cpu.txt IDGATE_BROWSER_CPU_REPORT=$PWD/var/browser-cpu.txt IDGATE_REPO=$PWD \
  $GO test -count=1 -vet=off -timeout 20m -exec "$PWD/scripts/testcpu.sh" "$@" 2>&1 | tee var/test-go.log
status=${PIPESTATUS[0]}
read -r u0 s0 i0 st0 <<< "$before"
read -r u1 s1 i1 st1 < <(cpustat)
echo "the machine during go test ($(nproc) cores; user, system, idle and iowait, stolen by the host): $(( (u1 - u0) / 100 )) s, $(( (s1 - s0) / 100 )) s, $(( (i1 - i0) / 100 )) s, $(( (st1 - st0) / 100 )) s"
if [ -s var/skipped.txt ]; then sort var/skipped.txt; fi
if [ -s var/test-cpu.txt ]; then
  sort -rn var/test-cpu.txt | awk '{ c += $1 } NR <= 15 { l = l sprintf("  %7.1f s CPU %7.1f s wall  %s\n", $1, $2, $3) }
    END { printf "test CPU by package (the 15 largest of %d; all together %.0f s):\n%s", NR, c, l }'
fi
if [ -s var/browser-cpu.txt ]; then
  sort -rn var/browser-cpu.txt | awk '{ c += $1 } NR <= 12 { l = l sprintf("  %7.1f s CPU  %s\n", $1, $2) }
    END { printf "browser CPU by test (the 12 largest of %d browsers; all together %.0f s):\n%s", NR, c, l }'
fi
if [ "$status" -ne 0 ]; then
  # Each failed test's lines (its errors among its logs; a page's console
  # lines left out), at most 40 of 240 characters a test; the packages
  # that failed; a panic's first lines.
  echo "go test FAILED; the failures again (the whole output: var/test-go.log):"
  awk '
    /^ *--- FAIL: / { inblock = 1; n = 0; print; next }
    inblock && /^[ \t]/ { if ($0 ~ /console\.[a-z]+: /) next; if (++n <= 40) print substr($0, 1, 240); else if (n == 41) print "        [more lines in var/test-go.log]"; next }
    { inblock = 0 }
    /^FAIL\t/ { print }
    /^panic: / { p = 12 }
    p > 0 { print substr($0, 1, 240); p-- }
  ' var/test-go.log
fi
exit "$status"
