#!/usr/bin/env bash
# Issue 58's standing data generation: self-play games for training, in batches of 5,000
# under data/generated/, on one core, at depth 12 from random openings the search values
# within 2 discs of a draw, played perfectly from 20 empties (about 0.5 s a game here).
# Resumable: stop it whenever something is timed (kill it), run it again and the batch
# under way goes on (selfplay appends and resumes); a finished batch is gzipped, as
# `engine train` reads it. Commit each finished batch with this command.
# Usage: tools/datagen.sh [BATCHES] (default 1) [ENGINE_BINARY] (default target/release/engine)
set -euo pipefail
cd "$(dirname "$0")/.."
batches="${1:-1}"
engine="${2:-target/release/engine}"
out=data/generated
mkdir -p "$out"
for ((i = 0; i < batches; i++)); do
    n=1
    while [ -e "$out/sp-d12-b$n.gam.gz" ]; do n=$((n + 1)); done
    "$engine" selfplay --output "$out/sp-d12-b$n.gam" --games 5000 --balanced 2 \
        --depth 12 --solve-empties 20 --seed $((1000 + n)) --threads 1
    gzip -9 "$out/sp-d12-b$n.gam"
done
