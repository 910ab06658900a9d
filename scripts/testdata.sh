#!/usr/bin/env bash
# `make testdata`: the third-party test data whose licence keeps it out of
# the repository, into var/ (what testdata/README.md lists). Every file in
# testdata/sources.csv is taken from a local mirror when one is present
# (SHARED, by default the directory CI keeps beside the clone), otherwise
# downloaded from its pinned public source; either way its sha256 must match.
# Unreachable sources leave their tests skipping (loudly); under CI=true they
# fail this step instead. A wrong checksum always fails.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
mirror="${SHARED:-$(dirname "$repo")/shared}"
# Where <repository>/<commit>/<path> is served; another host with the same
# layout (a cache, a test server) may stand in.
raw="${TESTDATA_RAW_URL:-https://raw.githubusercontent.com}"
dest=var

sha() { sha256sum "$1" | cut -d' ' -f1; }

# fetch puts one pinned file at $dest/$path: from the mirror, or from GitHub
# at the pinned commit. It returns 1 when the source is unreachable. Nothing
# is created under $dest until the file is there and checked: tests take a
# data set's directory as the sign that the set is present.
fetch() {
  local path=$1 repository=$2 commit=$3 source_path=$4 want=$5 out="$dest/$1"
  [ -f "$out" ] && [ "$(sha "$out")" = "$want" ] && return 0
  if [ -f "$mirror/$path" ]; then
    cp "$mirror/$path" "$part"
  elif [ -n "$offline" ]; then
    return 1
  elif ! curl -fsSL --connect-timeout 10 --max-time 120 -o "$part" \
      "$raw/$repository/$commit/$source_path"; then
    # One unreachable host is enough to know: do not wait on the rest.
    offline=1
    echo "testdata: no mirror at $mirror and $raw does not answer" >&2
    return 1
  fi
  local got
  got=$(sha "$part")
  if [ "$got" != "$want" ]; then
    echo "testdata: FAILED: $path has sha256 $got, pinned $want ($repository@$commit:$source_path)" >&2
    exit 1
  fi
  mkdir -p "$(dirname "$out")"
  mv -f "$part" "$out"
}

offline=""
missing=0
mkdir -p "$dest"
part=$(mktemp "$dest/.testdata.XXXXXX")
trap 'rm -f "$part"' EXIT
# A set testdata/requested.txt lists is pinned but not in the mirror yet:
# CI cannot download it, so its absence is a warning, not a failure.
requested() {
  local set
  set=$(echo "$1" | cut -d/ -f1-2)
  grep -qxF "$set" testdata/requested.txt 2>/dev/null
}
awaited=0
while IFS=, read -r path repository commit source_path sha256; do
  [ "$path" = path ] && continue
  # Video clips (MPEG, MP4) are only the source of their frames (below).
  case $path in *.mpg|*.mp4) continue ;; esac
  if ! fetch "$path" "$repository" "$commit" "$source_path" "$sha256"; then
    if requested "$path"; then awaited=$((awaited + 1)); else missing=$((missing + 1)); fi
  fi
done < testdata/sources.csv

# The Foreman frames are decoded from the pinned H.264 clip: the mirror has
# them already; elsewhere ffmpeg decodes them (JPEG bytes then differ from
# the mirror's, the frames do not).
frames="$dest/testdata/liveness/foreman"
clip="$frames/foreman_352x288.264"
if [ ! -f "$frames/f299.jpg" ]; then
  if [ -f "$mirror/testdata/liveness/foreman/f299.jpg" ]; then
    mkdir -p "$frames"
    cp "$mirror"/testdata/liveness/foreman/f[0-9][0-9][0-9].jpg "$frames/"
  elif [ -f "$clip" ] && command -v ffmpeg >/dev/null; then
    ffmpeg -loglevel error -y -i "$clip" -q:v 2 "$frames/f%03d.jpg"
  else
    missing=$((missing + 1))
    [ -f "$clip" ] && echo "testdata: ffmpeg is needed to decode the Foreman frames from $clip" >&2
    # The clip alone would make the set (testdata/liveness/foreman) look
    # present to the tests, which read frames: without frames there is no
    # set, and they skip.
    rm -rf "$frames"
  fi
fi

# The real-people clips (GRID's MPEG, the tilt set's MP4) are used as 10 fps
# frames (f001.jpg…, at least f030.jpg) beside their pinned clip's path:
# copied from the mirror, which has the frames, or decoded by ffmpeg from
# the clip fetched by its pin (the same pictures, not the same JPEG bytes,
# as for Foreman).
while IFS=, read -r path repository commit source_path sha256; do
  case $path in *.mpg|*.mp4) ;; *) continue ;; esac
  clipdir="$dest/$(dirname "$path")"
  [ -f "$clipdir/f030.jpg" ] && continue
  if [ -f "$mirror/$(dirname "$path")/f030.jpg" ]; then
    mkdir -p "$clipdir.part"
    cp "$mirror/$(dirname "$path")"/f[0-9][0-9][0-9].jpg "$clipdir.part/"
  elif ! command -v ffmpeg >/dev/null; then
    # A set the mirror does not hold yet could not be fetched under CI
    # anyway: awaited, like its other files, whether or not ffmpeg is here.
    echo "testdata: ffmpeg is needed to decode the frames of $path" >&2
    if requested "$path"; then awaited=$((awaited + 1)); else missing=$((missing + 1)); fi
    continue
  elif fetch "$path" "$repository" "$commit" "$source_path" "$sha256"; then
    mkdir -p "$clipdir.part"
    ffmpeg -loglevel error -y -i "$dest/$path" -vf fps=10 -q:v 2 "$clipdir.part/f%03d.jpg"
  else
    if requested "$path"; then awaited=$((awaited + 1)); else missing=$((missing + 1)); fi
    continue
  fi
  # Whole or not at all: the tests take f030.jpg as the sign of a clip.
  mkdir -p "$clipdir"
  mv -f "$clipdir.part"/f*.jpg "$clipdir/"
  rmdir "$clipdir.part"
done < testdata/sources.csv

if [ "$awaited" -gt 0 ]; then
  echo "testdata: $awaited file(s) of sets not in the mirror yet (testdata/requested.txt) are missing; their tests SKIP" >&2
fi
if [ "$missing" -gt 0 ]; then
  msg="testdata: $missing item(s) missing; tests that need them SKIP"
  if [ "${CI:-}" = true ]; then
    echo "$msg: FAILED under CI=true" >&2
    exit 1
  fi
  echo "$msg" >&2
fi
