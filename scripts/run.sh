#!/usr/bin/env bash
# `make run`: the whole system on embedded defaults, in the foreground.
#  - the verifier (SQLite under ./var, in-process limiter, demo account), and
#  - the demo storefront with the footer widget and its proxy, backed by the
#    BigCommerce test double (unchecked here: contract checks are for tests),
#    verifying on that verifier: Verify ID opens the real end-user pages, and
#    the result comes back to the proxy by signed webhook.
# The verifier delivers webhooks only over https, so the proxy takes them on
# IDGATE_DEMO_WEBHOOK_ADDR (default 127.0.0.1:8084) with a self-signed
# certificate (var/demo-tls.crt) that only this verifier process trusts
# (IDGATE_WEBHOOK_CA_FILE; SSL_CERT_FILE would not do: macOS ignores it),
# and loopback delivery is allowed
# (IDGATE_WEBHOOK_ALLOW_LOOPBACK) for this demo only.
# The demo runs on loopback, which no IP data locates: IP intelligence reads
# loopback and private client IPs as IDGATE_DEV_CLIENT_IP, by default
# 174.198.1.1 (a Verizon address near Philadelphia, PA), so results show
# ip_found and location_consistency; IDGATE_DEV_CLIENT_IP= (empty) turns
# that off, another public IP moves it.
# Ctrl-C stops both, and make run then exits 0. IDGATE_ADDR moves the verifier (default 127.0.0.1:8080);
# IDGATE_DEMO_ADDR and IDGATE_DEMO_PROXY_ADDR move the demo storefront and its
# proxy (defaults 127.0.0.1:8082 and 127.0.0.1:8083); IDGATE_DEMO_APP_ADDR the
# store that installs the BigCommerce app, with its control panel at /manage
# (default 127.0.0.1:8085). IDGATE_DEMO_STATE moves
# what this run writes (the binary, the database, the keys, the demo's
# certificate and password; default ./var), so the storefront demo's browser
# test (systemtest) runs this very script beside a developer's own make run;
# the installed models and IP data stay where IDGATE_MODELS_DIR and
# IDGATE_IP_DATA_DIR say.
# How make run ends is always said, in one line starting "make run:": which
# step failed and the end of its output, which child ended and how (exit
# status or the signal that killed it), or which signal stopped make run and
# during what. A start-up step's output goes to $state/run-log/<step>.log and
# is shown when it fails; the verifier and the demo store print straight to
# this terminal.
set -Eeuo pipefail
step="starting" # what make run is doing, named in every message about how it ended
say() { echo "make run: $*" >&2; }
# how N: how a command ended, from its $? (128+n: killed by signal n).
how() {
  local sig
  if [ "$1" -gt 128 ] && sig=$(kill -l "$(($1 - 128))" 2>/dev/null); then
    echo "killed by SIG$sig"
  else
    echo "exit status $1"
  fi
}
# Stop both children however this script ends, and wait for them, so the
# prompt comes back after their last words; then say how make run ended
# ($verdict), as its last line. (The former `trap 'kill 0' EXIT INT TERM`
# re-entered its own TERM trap and died of a stack overflow: this signals
# the children only.)
verdict=""
finish() {
  local pids
  pids=$(jobs -p)
  if [ -n "$pids" ]; then
    kill $pids 2>/dev/null || true
    wait $pids 2>/dev/null || true
  fi
  if [ -n "$verdict" ]; then say "$verdict"; fi
}
# stopped SIG: a signal ended make run; during start-up that is worth saying,
# and on Ctrl-C it says the children were stopped. Ctrl-C (SIGINT) is how
# make run is meant to end, so it exits 0 and make reports no error; another
# signal exits 128+n.
stopped() {
  trap - "$1" # a second one ends make run at once
  verdict="stopped by SIG$1 ($step)"
  if [ "$1" = INT ]; then exit 0; fi
  exit $((128 + $(kill -l "$1")))
}
trap finish EXIT
trap 'stopped INT' INT
trap 'stopped TERM' TERM
trap 'stopped HUP' HUP
# set -e ends the script at any other failed command: say where.
trap 'rc=$?; verdict="failed ($(how $rc)) at scripts/run.sh line $LINENO ($step): $BASH_COMMAND"' ERR
cd "$(dirname "$0")/.."
state="${IDGATE_DEMO_STATE:-var}"
mkdir -p "$state/run-log"
# run NAME CMD...: one start-up step, its output kept in $state/run-log/NAME.log
# and shown, with how it ended, when it fails.
run() {
  local log="$state/run-log/$1.log" rc=0
  step="$1: ${*:2}"
  "${@:2}" >"$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    if [ -s "$log" ]; then
      say "$1 failed ($(how "$rc")): ${*:2}; the end of its output ($log):"
      tail -n 30 "$log" | sed 's/^/  /' >&2
    else
      say "$1 failed ($(how "$rc")) without a word: ${*:2}"
    fi
    exit 1
  fi
}
if [ "$state" != var ]; then
  export IDGATE_DATABASE_URL="${IDGATE_DATABASE_URL:-sqlite:$state/idgate.db}"
  export IDGATE_JWT_KEYS_FILE="${IDGATE_JWT_KEYS_FILE:-$state/jwt-keys}"
  export IDGATE_SECRET_KEY_FILE="${IDGATE_SECRET_KEY_FILE:-$state/secret-key}"
fi
run build go build -o "$state/idgate" ./cmd/idgate
verifier="${IDGATE_ADDR:-127.0.0.1:8080}"
webhook="${IDGATE_DEMO_WEBHOOK_ADDR:-127.0.0.1:8084}"
if [ ! -s "$state/demo-tls.crt" ]; then
  run certificate openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 825 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$state/demo-tls.key" -out "$state/demo-tls.crt"
fi
run migrate "$state/idgate" migrate
# The demo stores' accounts on the verifier, created once: the password
# file appears only once the account exists, so a failed attempt is retried.
# store-demo is the ready-made demo store's; merchant-demo is the one a
# merchant links on the BigCommerce app's settings page (its own, because
# linking makes a new test key, which revokes the account's previous one).
demo_account() { # FILE EMAIL NAME
  [ -s "$state/$1" ] && return
  new_password() { (umask 077 && openssl rand -base64 24 >"$state/$1.new"); }
  run password new_password "$1"
  run account "$state/idgate" account create --email "$2" --name "$3" --password-stdin <"$state/$1.new"
  mv "$state/$1.new" "$state/$1"
}
demo_account store-demo-password store-demo@idgate.local "Demo Wine Store"
demo_account app-merchant-password merchant-demo@idgate.local "Demo Spirits Store"
# ended PID NAME WHEN [RC]: a child ended (RC when wait -n already took its
# status); say which and how, and end make run. The verifier and the demo
# store run until a signal stops them, and only then exit 0: a child that
# ended 0 while running was stopped. That is Ctrl-C, whose SIGINT reaches
# the children too and which bash may not hand to its trap when a child has
# already caught it and exited: make run then says it stopped, and exits 0.
ended() {
  local rc=${4:-0}
  [ $# -eq 4 ] || wait "$1" || rc=$?
  if [ "$rc" -eq 0 ] && [ "$step" = running ]; then
    verdict="stopped ($2 shut down on a signal, as on Ctrl-C; the rest with it)"
    exit 0
  fi
  verdict="$2 ended ($(how "$rc")) $3; what it said, if anything, is above"
  exit $((rc == 0 ? 1 : rc))
}
step="starting the verifier"
IDGATE_WEBHOOK_CA_FILE="$state/demo-tls.crt" IDGATE_WEBHOOK_ALLOW_LOOPBACK=true IDGATE_DEV_CLIENT_IP="${IDGATE_DEV_CLIENT_IP-174.198.1.1}" \
  "$state/idgate" serve --dev &
serve=$!
# --max-time: something else answering on that port must not hang make run.
until curl -fsS --max-time 2 -o /dev/null "http://$verifier/healthz" 2>/dev/null; do
  kill -0 "$serve" 2>/dev/null || ended "$serve" "the verifier (idgate serve)" "before it answered on http://$verifier/healthz"
  sleep 0.2
done
step="starting the demo store"
"$state/idgate" store demo --addr "${IDGATE_DEMO_ADDR:-127.0.0.1:8082}" --proxy-addr "${IDGATE_DEMO_PROXY_ADDR:-127.0.0.1:8083}" \
  --verifier "http://$verifier" --webhook-addr "$webhook" --verifier-password-file "$state/store-demo-password" \
  --webhook-cert "$state/demo-tls.crt" --webhook-key "$state/demo-tls.key" \
  --app-addr "${IDGATE_DEMO_APP_ADDR:-127.0.0.1:8085}" --app-merchant-password-file "$state/app-merchant-password" &
store=$!
step="running"
rc=0
wait -n || rc=$?
if ! kill -0 "$serve" 2>/dev/null; then
  ended "$serve" "the verifier (idgate serve)" "while running" "$rc"
fi
ended "$store" "the demo store (idgate store demo)" "while running" "$rc"
