#!/usr/bin/env bash
# Installs the system packages chartstress needs beyond the Rust toolchain:
# Tesseract for the `ocr` baseline adapter, openpyxl for the tests of the
# VLMEvalKit import, datasets, Pillow and PyYAML for the tests of the
# Hugging Face and lmms-eval exports, and inspect_ai for the inspect round
# trip. Safe to run repeatedly.
set -euo pipefail
if ! command -v tesseract >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq tesseract-ocr >/dev/null
fi
# openpyxl: the tests write VLMEvalKit's XLSX result files as pandas does.
if ! python3 -c "import openpyxl" >/dev/null 2>&1; then
  python3 -m pip install -q openpyxl
fi
# datasets (with Pillow and PyYAML): the tests load the Hugging Face and
# lmms-eval exports as those tools do.
if ! python3 -c "import datasets, PIL, yaml" >/dev/null 2>&1; then
  python3 -m pip install -q datasets pillow pyyaml
fi
# inspect_ai: the inspect round-trip test runs the exported task with its mock model.
if ! python3 -c "import inspect_ai" >/dev/null 2>&1; then
  python3 -m pip install -q inspect_ai
fi
