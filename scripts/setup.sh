#!/usr/bin/env bash
# Installs the system packages chartstress needs beyond the Rust toolchain:
# Tesseract for the `ocr` baseline adapter. Safe to run repeatedly.
set -euo pipefail
if ! command -v tesseract >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq tesseract-ocr >/dev/null
fi
