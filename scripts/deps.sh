#!/usr/bin/env bash
# Installs the Debian packages the build and tests need, when missing:
# libzxing-dev (PDF417 via cgo), libtesseract-dev and tesseract-ocr-eng (the
# license front's OCR via cgo), chromium (browser tests), openssh-client and
# openssl (interoperability tests), nodejs (WebCrypto interop tests, make models),
# webp (cwebp/dwebp make and check the WebP fixtures of the image decoder),
# jq (docs/api.md's shell walk, which cmd/idgate's TestAPIGuideRuns runs),
# fonts-wqy-microhei (Chinese and Korean glyphs, so the browser tests' screenshots of
# the pages in zh and ko show text, not boxes, and their widths are measured on real glyphs),
# fonts-ocr-b (OCR-B, the font ICAO 9303 prescribes for machine-readable zones: the MRZ reader's
# glyph templates and the rendered data pages of its tests and bench/mrz, verifier/mrz/ocrb),
# orca with xvfb, openbox, dbus-x11, speech-dispatcher and xdotool (the screen-reader walk of
# the pages, internal/testkit/screenreader).
# Elsewhere, install their equivalents by hand.
set -euo pipefail
need=()
dpkg -s libzxing-dev >/dev/null 2>&1 || need+=(libzxing-dev)
dpkg -s libtesseract-dev >/dev/null 2>&1 || need+=(libtesseract-dev)
dpkg -s tesseract-ocr-eng >/dev/null 2>&1 || need+=(tesseract-ocr-eng)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v ssh-keygen >/dev/null 2>&1 || need+=(openssh-client)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v node >/dev/null 2>&1 || need+=(nodejs npm)
command -v cwebp >/dev/null 2>&1 || need+=(webp)
command -v jq >/dev/null 2>&1 || need+=(jq)
dpkg -s fonts-wqy-microhei >/dev/null 2>&1 || need+=(fonts-wqy-microhei)
dpkg -s fonts-ocr-b >/dev/null 2>&1 || need+=(fonts-ocr-b)
for p in orca xvfb openbox dbus-x11 speech-dispatcher xdotool; do dpkg -s $p >/dev/null 2>&1 || need+=($p); done
[ ${#need[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "missing system packages: ${need[*]} (install them with your package manager)" >&2
  exit 1
fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "installing: ${need[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
