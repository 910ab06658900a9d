#!/usr/bin/env bash
# `make run`: the whole system on embedded defaults, in the foreground.
#  - the verifier (SQLite under ./var, in-process limiter, demo account), and
#  - the demo storefront with the footer widget and its proxy, backed by the
#    BigCommerce test double (unchecked here: contract checks are for tests).
# Ctrl-C stops both. IDGATE_ADDR moves the verifier (default 127.0.0.1:8080);
# IDGATE_DEMO_ADDR and IDGATE_DEMO_PROXY_ADDR move the demo storefront and its
# proxy (defaults 127.0.0.1:8082 and 127.0.0.1:8083).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p var
go build -o var/idgate ./cmd/idgate
# Stop both children however this script ends. (The former `trap 'kill 0'
# EXIT INT TERM` re-entered its own TERM trap and died of a stack overflow.)
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
var/idgate serve --dev &
var/idgate store demo --addr "${IDGATE_DEMO_ADDR:-127.0.0.1:8082}" --proxy-addr "${IDGATE_DEMO_PROXY_ADDR:-127.0.0.1:8083}" &
wait -n
