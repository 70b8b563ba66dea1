#!/usr/bin/env bash
# Measures the playing levels (engine/src/level.rs, the GUI's levels): each level against
# the next, 100 games a pair from balanced book openings (8 plies, within 2 discs),
# colours swapped, one game at a time, no adjudication (a low level's endgame is part of
# its strength). Resumable: run it again and every pair continues where it stopped.
# Usage: docs/levels/run.sh [ENGINE_BINARY] (default: target/release/engine)
set -euo pipefail
cd "$(dirname "$0")"
engine="${1:-../../target/release/engine}"
for low in 1 2 3 4 5 6 7 8 9; do
    high=$((low + 1))
    results="L${low}-L${high}.jsonl"
    resume=()
    [ -s "$results" ] && resume=(--resume)
    "$engine" match \
        --engine "name=L${low} cmd=$engine level=${low}" \
        --engine "name=L${high} cmd=$engine level=${high}" \
        --openings book:8:2 --games 100 --seed 57 --concurrency 1 \
        --results "$results" "${resume[@]}"
done
