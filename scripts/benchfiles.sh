#!/usr/bin/env bash
# Installs what `make bench` needs beside the models into ./var/bench: files
# of npm registry packages (fetched with `npm pack`, never committed), each
# checked against bench/pages/benchfiles.sha256. Today Lighthouse's page
# functions, whose BenchmarkIndex bench/pages calibrates the CPU slowdown
# with (bench/pages/calibrate.go).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

declare -A spec=([lighthouse]="lighthouse@13.5.0")
declare -A inner=([lighthouse]="package/core/lib")

# shellcheck source=scripts/npmfiles.sh
. "$root/scripts/npmfiles.sh"
npm_files benchfiles "$root/bench/pages/benchfiles.sha256" "$root/var/bench" "bench files"
