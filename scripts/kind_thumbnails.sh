#!/usr/bin/env bash
# Redraws docs/kinds/KIND.png, the README's one thumbnail per chart kind: the
# first fixture that suits each kind, and for the kinds no fixture suits, one
# synthesized table of each on-request shape (seed 1).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${CHARTSTRESS:-target/release/chartstress}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for shape in waterfall error_bar samples change pair profile dual_axis; do
  "$bin" synth --seed 1 --count 1 --kind "$shape" -o "$work/tables" > /dev/null
done
"$bin" gallery --one-per-kind --quiet --thumb-width 240 fixtures "$work/tables" -o "$work/gallery"
mkdir -p docs/kinds
cp "$work"/gallery/kinds/*.png docs/kinds/
ls docs/kinds
