#!/usr/bin/env bash
# Issue 58's standing data generation, on one core, under data/generated/:
# 1. self-play games for training, in batches of 5,000, at depth 12 from random openings
#    the search values within 2 discs of a draw, played perfectly from 20 empties (so a
#    game's result is the exact value of its positions from 20 empties on; about 0.5 s a
#    game here, 35 min a batch); a finished batch is gzipped, as `engine train` reads it;
# 2. exact labels of every finished batch's positions with 21 and 22 empties (one per
#    symmetry class), in data/generated/labels/, for `engine train --labels`.
# Resumable: stop it whenever something is timed (kill it), run it again and the work
# under way goes on (selfplay and label append and resume; a finished labels file is
# checked and left as it is). Commit each finished batch and its labels with this command.
# Usage: tools/datagen.sh [BATCHES] (new self-play batches, default 1; 0: only label)
#                         [ENGINE_BINARY] (default target/release/engine)
set -euo pipefail
cd "$(dirname "$0")/.."
batches="${1:-1}"
engine="${2:-target/release/engine}"
out=data/generated
mkdir -p "$out/labels"
for ((i = 0; i < batches; i++)); do
    n=1
    while [ -e "$out/sp-d12-b$n.gam.gz" ]; do n=$((n + 1)); done
    "$engine" selfplay --output "$out/sp-d12-b$n.gam" --games 5000 --balanced 2 \
        --depth 12 --solve-empties 20 --seed $((1000 + n)) --threads 1
    gzip -9 "$out/sp-d12-b$n.gam"
done
for games in "$out"/sp-d12-b*.gam.gz; do
    batch=$(basename "$games" .gam.gz)
    "$engine" label solve "$games" --empties 21-22 --threads 1 \
        --output "$out/labels/l21-22-${batch#sp-d12-}.lab"
done
