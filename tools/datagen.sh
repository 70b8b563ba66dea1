#!/usr/bin/env bash
# Issue 58's standing data generation, on one core, under data/generated/: self-play games
# for training, in batches of 5,000, at depth 12 from random openings the search values
# within 2 discs of a draw, played perfectly from 22 empties, so that a game's result is
# the exact value of each of its positions from 22 empties on (about 1.6 s a game here,
# 2 h 15 min a batch); a finished batch is gzipped, as `engine train` reads it.
# Batches 1-4 (sp-d12-bN) were played perfectly from 20 empties and their positions with
# 21-22 empties solved afterwards (labels/, by `engine label solve`); playing them
# perfectly gives the same exact values in 0.8 times the time (docs/benchmarks-journal.md,
# session 50).
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
batch_exists() { compgen -G "$out/sp-d12-*b$1.gam.gz" > /dev/null; }
for ((i = 0; i < batches; i++)); do
    n=1
    while batch_exists $n; do n=$((n + 1)); done
    "$engine" selfplay --output "$out/sp-d12-e22-b$n.gam" --games 5000 --balanced 2 \
        --depth 12 --solve-empties 22 --seed $((1000 + n)) --threads 1
    gzip -9 "$out/sp-d12-e22-b$n.gam"
done
