#!/usr/bin/env bash
# Issue 58's standing data generation, on one core, under data/generated/: self-play games
# for training, in batches of 5,000, at depth 12 from random openings the search values
# within 2 discs of a draw, played perfectly from 20 empties, so that a game's result is
# the exact value of each of its positions from 20 empties on (0.4-0.7 s a game on one
# core here, 30-55 min a batch); a finished batch is gzipped, as `engine train` reads it.
# Batches 1-4 also had their positions with 21-22 empties solved (labels/, by `engine
# label solve`), which took 2.0-3.3 times the games' time for 3% more positions,
# all near the end: the data's rate is what the evaluation waits for, so batches are
# games only (docs/benchmarks-journal.md, session 50).
# Resumable: stop it whenever something is timed (kill it, or pause it with kill -STOP
# and -CONT), run it again and the batch under way goes on (selfplay appends and
# resumes). Commit each finished batch with this command. The batch under way is not
# tracked (a session's work tree is not kept): before a session ends, `tools/datagen.sh
# save` copies it, gzipped, to data/generated/under-way/ for committing, and the next
# run resumes from that copy (and removes it when the batch is finished).
# Two series (session 64): `sp` (the above) and `rp`, games from random openings of 10 to
# 40 plies, unbalanced, each game's random plies marked so that training labels only the
# positions after them: positions after bad moves, which a search's leaves mostly are and
# the `sp` games (good moves from balanced openings) seldom reach (docs/evaluation.md,
# "The standing data").
# Usage: tools/datagen.sh [BATCHES] (new self-play batches, default 1)
#                         [ENGINE_BINARY] (default target/release/engine)
#                         [THREADS] (default 1; 2 while nothing else runs: the games, and
#                         so the file, are the same on any number of threads)
#                         [SERIES] (sp or rp, default sp)
#        tools/datagen.sh save [SERIES]
set -euo pipefail
cd "$(dirname "$0")/.."
out=data/generated
saved="$out/under-way"
if [ "${1:-}" = save ]; then series="${2:-sp}"; else series="${4:-sp}"; fi
case "$series" in
    sp) openings=(--balanced 2); seeds=1000 ;;
    rp) openings=(--opening-plies 10-40 --unlabelled-openings); seeds=2000 ;;
    *) echo "datagen: no series $series (sp or rp)" >&2; exit 1 ;;
esac
# The batch under way (or next), the first without its gzipped file: sets `n`, its games
# file `gam` and its saved copy `copy`.
find_batch() {
    n=1
    while [ -e "$out/$series-d12-b$n.gam.gz" ]; do n=$((n + 1)); done
    gam="$out/$series-d12-b$n.gam"
    copy="$saved/$series-d12-b$n.gam.gz"
}
if [ "${1:-}" = save ]; then
    find_batch
    if [ ! -e "$gam" ]; then
        echo "datagen: no batch under way ($gam)" >&2
        exit 1
    fi
    mkdir -p "$saved"
    # Through a temporary file, so that an interrupted save leaves the last one whole.
    gzip -9 -c "$gam" > "$copy.tmp"
    mv "$copy.tmp" "$copy"
    echo "saved $copy ($(grep -vc '^#' "$gam") games)"
    exit 0
fi
batches="${1:-1}"
engine="${2:-target/release/engine}"
threads="${3:-1}"
mkdir -p "$out"
for ((i = 0; i < batches; i++)); do
    find_batch
    # Resume from the saved copy unless the batch here is as far on.
    if [ -e "$copy" ]; then
        here=0
        [ -e "$gam" ] && here=$(wc -l < "$gam")
        if [ "$(gzip -dc "$copy" | wc -l)" -gt "$here" ]; then
            gzip -dc "$copy" > "$gam"
        fi
    fi
    "$engine" selfplay --output "$gam" --games 5000 "${openings[@]}" \
        --depth 12 --solve-empties 20 --seed $((seeds + n)) --threads "$threads"
    gzip -9 "$gam"
    rm -f "$copy"
done
