#!/usr/bin/env bash
# Takes the GUI's screenshots under Xvfb, of the real window with its default settings:
# - docs/gui.png: a game against the engine at level 6, after 1. f5 d6 2. c3 d3 and a
#   hint (the top level's move, from the book);
# - docs/gui-review.png: a game between two shallow searches (depth 3 against depth 4)
#   opened from GGF and reviewed at depth 12, at its largest mistake.
# Needs: apt-get install -y xvfb imagemagick xdotool libgl1-mesa-dri
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p gui
gui_binary="$PWD/target/release/gui"
docs="$PWD/docs"
work="$(mktemp -d)"
export DISPLAY=:99 HOME="$work"
Xvfb :99 -screen 0 1400x900x24 &
xvfb=$!
trap 'kill $xvfb $gui 2>/dev/null || true' EXIT
# The reviewed game, as the GUI opens it by default (game.ggf in its directory).
moves="d3 c3 c4 e3 f3 d6 e6 b4 e2 f5 c5 f4 c6 d2 f2 g3 b3 b5 a6 a5 c2 f7 e7 a3 f6 g4 g5 c1
b6 h5 f8 d7 h6 e8 h3 h4 d8 c8 b8 c7 a4 a7 g6 h7 h8 g8 g7 a8 b7 d1 e1 f1 b1 a1 g1 h1 g2 h2 b2 a2"
{
    printf '(;GM[Othello]PC[gamesearch]PB[depth 3]PW[depth 4]RE[?]TY[8]'
    printf 'BO[8 ---------------------------O*------*O--------------------------- *]'
    colour=B
    for m in $moves; do
        printf '%s[%s]' "$colour" "${m^^}"
        if [ "$colour" = B ]; then colour=W; else colour=B; fi
    done
    printf ';)\n'
} > "$work/game.ggf"
sleep 1
cd "$work"
"$gui_binary" &
gui=$!
sleep 4
xdotool mousemove 726 429 click 1   # f5 (level 6 answers d6)
sleep 2.5
xdotool mousemove 486 269 click 1   # c3 (d3)
sleep 2.5
xdotool mousemove 223 12 click 1    # Hint
sleep 3
import -window root -crop 1280x800+0+0 +repage "$docs/gui.png"
xdotool mousemove 45 415 click 1    # Open GGF
sleep 1
xdotool mousemove 1016 135 click 1  # Analyse game
sleep 25
xdotool mousemove 1052 337 click 1  # the largest mistake, as the panel is laid out at the end
sleep 1.5
xdotool mousemove 600 775           # off the buttons: the panel moves under the pointer
sleep 0.5
import -window root -crop 1280x800+0+0 +repage "$docs/gui-review.png"
