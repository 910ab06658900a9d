#!/usr/bin/env bash
# Regenerates the committed reference outputs the Go parity tests compare
# against (verifier/face/testdata/reference/). Run after changing models,
# the harness or the image list; review the diff like code.
# Needs: Node 20 + npm, `make models` and `make testdata` done.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
faces="$root/var/testdata/faces"
[ -d "$faces" ] || { echo "regenerate: $faces is absent: run make testdata" >&2; exit 1; }
out="$root/verifier/face/testdata/reference"
cd "$here"
[ -d node_modules ] || npm ci --no-audit --no-fund
mkdir -p "$out"
images=("$faces/groups/bbt4.jpg" "$faces/groups/bbt2.jpg" "$faces/groups/neutral.jpg"
  "$faces/reference/face1.png" "$faces/labeled/raj/raj1.png" "$faces/labeled/penny/penny2.png")
node reference.js human "${images[@]}" > "$out/human.json"
node reference.js iris "${images[@]}" > "$out/iris.json"
# A tight face crop on which BlazeFace misses (verifier/face margin.go).
node reference.js human "$faces/labeled/leonard/leonard5.png" > "$out/human_tight.json"
node reference.js descriptor "$faces/reference/face1.png" "$faces/reference/face2.png" \
  "$faces"/labeled/*/*.png > "$out/descriptor.json"
echo "wrote $out/human.json $out/iris.json $out/human_tight.json $out/descriptor.json"
