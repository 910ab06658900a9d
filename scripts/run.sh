#!/usr/bin/env bash
# `make run`: the whole system on embedded defaults, in the foreground.
#  - the verifier (SQLite under ./var, in-process limiter, demo account), and
#  - the demo storefront with the footer widget and its proxy, backed by the
#    BigCommerce test double (unchecked here: contract checks are for tests).
# Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p var
go build -o var/idgate ./cmd/idgate
trap 'kill 0 2>/dev/null' EXIT INT TERM
var/idgate serve --dev &
var/idgate store demo &
wait -n
