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
# Ctrl-C stops both. IDGATE_ADDR moves the verifier (default 127.0.0.1:8080);
# IDGATE_DEMO_ADDR and IDGATE_DEMO_PROXY_ADDR move the demo storefront and its
# proxy (defaults 127.0.0.1:8082 and 127.0.0.1:8083). IDGATE_DEMO_STATE moves
# what this run writes (the binary, the database, the keys, the demo's
# certificate and password; default ./var), so the storefront demo's browser
# test (systemtest) runs this very script beside a developer's own make run;
# the installed models and IP data stay where IDGATE_MODELS_DIR and
# IDGATE_IP_DATA_DIR say.
set -euo pipefail
# set -e ends the script at a failed command; say which, so make run never
# ends without a word.
trap 'echo "make run: failed (exit $?) at scripts/run.sh line $LINENO: $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/.."
state="${IDGATE_DEMO_STATE:-var}"
mkdir -p "$state"
if [ "$state" != var ]; then
  export IDGATE_DATABASE_URL="${IDGATE_DATABASE_URL:-sqlite:$state/idgate.db}"
  export IDGATE_JWT_KEYS_FILE="${IDGATE_JWT_KEYS_FILE:-$state/jwt-keys}"
  export IDGATE_SECRET_KEY_FILE="${IDGATE_SECRET_KEY_FILE:-$state/secret-key}"
fi
go build -o "$state/idgate" ./cmd/idgate
verifier="${IDGATE_ADDR:-127.0.0.1:8080}"
webhook="${IDGATE_DEMO_WEBHOOK_ADDR:-127.0.0.1:8084}"
# openssl's own words when it fails (its output is noise otherwise).
if [ ! -s "$state/demo-tls.crt" ]; then
  if ! out=$(openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 825 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$state/demo-tls.key" -out "$state/demo-tls.crt" 2>&1); then
    echo "make run: could not make the demo's TLS certificate with openssl: $out" >&2
    exit 1
  fi
fi
# The demo store's own account on the verifier (created once).
"$state/idgate" migrate >/dev/null
if [ ! -s "$state/store-demo-password" ]; then
  (umask 077 && openssl rand -base64 24 >"$state/store-demo-password")
  "$state/idgate" account create --email store-demo@idgate.local --password-stdin <"$state/store-demo-password" >/dev/null
fi
# Stop both children however this script ends. (The former `trap 'kill 0'
# EXIT INT TERM` re-entered its own TERM trap and died of a stack overflow.)
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
IDGATE_WEBHOOK_CA_FILE="$state/demo-tls.crt" IDGATE_WEBHOOK_ALLOW_LOOPBACK=true IDGATE_DEV_CLIENT_IP="${IDGATE_DEV_CLIENT_IP-174.198.1.1}" \
  "$state/idgate" serve --dev &
serve=$!
until curl -fsS -o /dev/null "http://$verifier/healthz" 2>/dev/null; do
  kill -0 "$serve" 2>/dev/null || exit 1 # serve failed to start; it said why
  sleep 0.2
done
"$state/idgate" store demo --addr "${IDGATE_DEMO_ADDR:-127.0.0.1:8082}" --proxy-addr "${IDGATE_DEMO_PROXY_ADDR:-127.0.0.1:8083}" \
  --verifier "http://$verifier" --webhook-addr "$webhook" --verifier-password-file "$state/store-demo-password" \
  --webhook-cert "$state/demo-tls.crt" --webhook-key "$state/demo-tls.key" &
wait -n
