#!/usr/bin/env bash
# Takes docs/gui.png: the real GUI window under Xvfb, after two moves against the
# built-in engine (its replies from its opening book) and a hint. Needs: apt-get install -y xvfb imagemagick xdotool libgl1-mesa-dri
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
xdotool mousemove 755 441 click 1   # f5 (the engine answers from its book)
sleep 2.5
xdotool mousemove 518 284 click 1   # c3
sleep 2.5
xdotool mousemove 223 12 click 1    # Hint
sleep 3
import -window root -crop 1280x800+0+0 +repage docs/gui.png
