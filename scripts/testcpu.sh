#!/usr/bin/env bash
# testcpu.sh is `go test -exec`'s wrapper in `make test`: it runs one
# package's test binary (in the package's directory, as go test does) and
# appends "<cpu s> <wall s> <package directory>" to IDGATE_CPU_REPORT. The
# CPU is user plus system time of the binary and every process it waited
# for (the browsers, idgate processes and databases tests start), so a CI
# log shows which packages cost the 2-core machine its time: wall times
# there measure the other slot's load as much as the package.
start=$(date +%s%N)
"$@"
status=$?
if [ -n "${IDGATE_CPU_REPORT:-}" ]; then
  # times must run in this shell: in a pipe or $(...) it would report the
  # children of a subshell, none.
  t=$(mktemp)
  times > "$t"
  cpu=$(tail -1 "$t" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] } printf "%.1f", s }')
  rm -f "$t"
  wall=$(( ($(date +%s%N) - start) / 100000000 ))
  echo "$cpu $((wall / 10)).$((wall % 10)) ${PWD#"${IDGATE_REPO:-}"/}" >> "$IDGATE_CPU_REPORT"
fi
exit $status
