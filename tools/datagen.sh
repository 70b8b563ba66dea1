#!/usr/bin/env bash
# Issue 58's standing data generation, on one core, under data/generated/: self-play games
# for training, in batches of 5,000, at depth 12 from random openings the search values
# within 2 discs of a draw, played perfectly from 20 empties, so that a game's result is
# the exact value of each of its positions from 20 empties on (about 0.5-0.7 s a game
# here, 40-55 min a batch); a finished batch is gzipped, as `engine train` reads it.
# Batches 1-4 also had their positions with 21-22 empties solved (labels/, by `engine
# label solve`), which took 2.0-3.3 times the games' time for 3% more positions,
# all near the end: the data's rate is what the evaluation waits for, so batches are
# games only (docs/benchmarks-journal.md, session 50).
# Resumable: stop it whenever something is timed (kill it), run it again and the batch
# under way goes on (selfplay appends and resumes). Commit each finished batch with this
# command.
# Usage: tools/datagen.sh [BATCHES] (new self-play batches, default 1)
#                         [ENGINE_BINARY] (default target/release/engine)
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
