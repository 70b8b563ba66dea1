#!/usr/bin/env bash
# Measures the playing levels (engine/src/level.rs, the GUI's levels), 100 games a pair
# from balanced book openings (8 plies, within 2 discs), colours swapped, one game at a
# time, no adjudication (a low level's endgame is part of its strength):
# 1. each level against the next (L<n>-L<n+1>.jsonl): every step of the ladder;
# 2. level 8 against level 10 (L8-top.jsonl): a direct check of the sum of the two steps
#    between them (lower levels lose nearly every game to level 10).
# Resumable: run it again and every pair continues where it stopped.
# Usage: docs/levels/run.sh [ENGINE_BINARY] (default: target/release/engine)
set -euo pipefail
cd "$(dirname "$0")"
engine="${1:-../../target/release/engine}"
pair() {
    local a=$1 b=$2 results=$3
    local resume=()
    [ -s "$results" ] && resume=(--resume)
    "$engine" match \
        --engine "name=L$a cmd=$engine level=$a" \
        --engine "name=L$b cmd=$engine level=$b" \
        --openings book:8:2 --games 100 --seed 57 --concurrency 1 \
        --results "$results" "${resume[@]}"
}
for low in 1 2 3 4 5 6 7 8 9; do
    pair "$low" $((low + 1)) "L${low}-L$((low + 1)).jsonl"
done
pair 8 10 L8-top.jsonl
