#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Renders the committed PNG icons from rooftop.svg (needs rsvg-convert from librsvg2-bin). Run after editing the SVG.
set -euo pipefail
cd "$(dirname "$0")"
for size in 16 24 32 48 64 128 256; do
  rsvg-convert --width "$size" --height "$size" rooftop.svg --output "rooftop-$size.png"
done
