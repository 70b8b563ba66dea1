#!/usr/bin/env bash
# Takes docs/gui.png: the real GUI window under Xvfb, after two moves against the
# built-in engine. Needs: apt-get install -y xvfb imagemagick xdotool libgl1-mesa-dri
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p gui
export DISPLAY=:99 HOME="$(mktemp -d)"
Xvfb :99 -screen 0 1400x900x24 &
xvfb=$!
trap 'kill $xvfb $gui 2>/dev/null || true' EXIT
sleep 1
target/release/gui &
gui=$!
sleep 3
xdotool mousemove 726 430 click 1   # f5
sleep 2.5
xdotool mousemove 648 510 click 1   # e6
sleep 2.5
import -window root -crop 1280x800+0+0 +repage docs/gui.png
