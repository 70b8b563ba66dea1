#!/usr/bin/env bash
# Issue 58's standing process, its second half: weights fitted with every generated batch
# committed so far (tools/datagen.sh), judged against the shipped weights by an SPRT at
# 100 ms a move (H0: -5 Elo, H1: +5, 5% errors each way), so that new weights ship only
# when a match says so (docs/evaluation.md, "The standing data"). A refit changes no code
# and no speed, so the test asks only which side of zero it lies: the earlier H0 +0
# against H1 +10 wandered undecided for thousands of games at the +4 to +10 that refits
# have measured (sessions 54-57).
# The fit is the shipped weights' command (docs/evaluation.md, "Training", since session
# 61 the fit of batches 1-13 and 25-34) with the batches asked, on one thread:
# target/retrain/genN.weights for the first N, genA-B+C-D for a list of ranges (the linear
# model, then the network over it since session 66: about 6
# minutes), kept and reused; its held-out errors are printed beside the shipped weights'.
# The match is played by one build with the two weight files (option EvalFile), the book
# off, one game at a time (or as many as CONCURRENCY, the third argument, while nothing
# else runs), in stages of other openings, since the book has no more than about a
# thousand balanced openings at a given depth: each stage is a whole match with its own
# results file,
# docs/matches/weights-genN-100ms-sprt-<openings>.jsonl, whose SPRT counts the stages
# before it (`match --sprt-after`), so that the test stops as soon as it decides; before
# each stage it is read over every stage so far (`engine match combine --sprt`).
# Resumable: run it again and the stage under way goes on; stop it with kill. Commit the
# results files with this command, and say in the journal what the SPRT decided.
# Usage: tools/retrain.sh [ENGINE_BINARY] (default target/release/engine; its `match`
#                         must take --sprt-after, as builds since session 57's do)
#                         [BATCHES] (N: the first N; or ranges, `1-13,25-34`; default
#                         every finished batch; a test under way goes on with the
#                         batches it began with)
#                         [CONCURRENCY] (default 1: games at a time)
#                         [RP_BATCHES] (default 0: also the first N finished batches of
#                         the rp series, random openings whose positions after them
#                         alone are labelled, tools/datagen.sh; the weights' name ends
#                         in +rpN)
set -euo pipefail
engine="${1:+$(realpath -- "$1")}"
cd "$(dirname "$0")/.."
engine="${engine:-target/release/engine}"
sprt=-5,5,0.05,0.05
concurrency="${3:-1}"
finished=0
while [ -e "data/generated/sp-d12-b$((finished + 1)).gam.gz" ]; do finished=$((finished + 1)); done
spec="${2:-$finished}"
[[ "$spec" =~ ^[0-9]+$ ]] && spec="1-$spec"
if ! [[ "$spec" =~ ^[0-9]+-[0-9]+(,[0-9]+-[0-9]+)*$ ]]; then
    echo "retrain: batches '$spec' asked: give N or ranges such as 1-13,25-34" >&2
    exit 1
fi
batches=()
IFS=, read -ra ranges <<< "$spec"
# Ranges in increasing order, apart: a batch named twice would count twice in the fit.
previous=0
for range in "${ranges[@]}"; do
    first=$((10#${range%-*}))
    last=$((10#${range#*-}))
    if [ "$first" -le "$previous" ] || [ "$first" -gt "$last" ]; then
        echo "retrain: batches $range asked: ranges must rise, apart, from 1" >&2
        exit 1
    fi
    if [ "$last" -gt "$finished" ]; then
        echo "retrain: batches $range asked, $finished finished under data/generated/ (tools/datagen.sh makes them)" >&2
        exit 1
    fi
    previous=$last
    for ((i = first; i <= last; i++)); do batches+=("data/generated/sp-d12-b$i.gam.gz"); done
done
rp="${4:-0}"
if ! [[ "$rp" =~ ^[0-9]+$ ]] || { [ "$rp" -gt 0 ] && [ ! -e "data/generated/rp-d12-b$rp.gam.gz" ]; }; then
    echo "retrain: rp batches '$rp' asked: give how many of the finished rp-d12-b*.gam.gz" >&2
    exit 1
fi
for ((i = 1; i <= rp; i++)); do batches+=("data/generated/rp-d12-b$i.gam.gz"); done
# The first N batches keep their earlier name, genN.
n="${spec//,/+}"
[[ "$n" =~ ^1-([0-9]+)$ ]] && n="${BASH_REMATCH[1]}"
[ "$rp" -gt 0 ] && n="$n+rp$rp"
weights="target/retrain/gen$n.weights"
if [ ! -e "$weights" ]; then
    mkdir -p target/retrain
    labels=()
    for f in engine/data/labels/*.lab data/generated/labels/*.lab; do labels+=(--labels "$f"); done
    # Through a temporary file, so that an interrupted fit is not taken for a finished one.
    "$engine" train ../shared/data/othello-games engine/data/selfplay "${batches[@]}" \
        -o "$weights.tmp" --threads 1 "${labels[@]}"
    mv "$weights.tmp" "$weights"
fi
# The fit's errors against exact scores on the engine games' held-out positions at 14-30
# empties, beside the shipped weights': read from the solves kept in
# data/accuracy/engine-games.lab (the command that makes them is in docs/evaluation.md),
# none made here, so that this takes seconds.
"$engine" accuracy ../shared/data/othello-games --games gam --empties 14,18,20,24,26,28,30 \
    --positions 200 --cache data/accuracy/engine-games.lab --cached-only \
    --eval-file engine/data/othello8x8.weights --eval-file "$weights"
# And how it chooses between moves against the shipped weights (every move of 1,000
# held-out positions at 14, 18 and 20 empties solved, in
# data/accuracy/engine-games-choices.lab): its error between moves is what the search
# compares, and with it a better mean error has not always been better play (session 63).
"$engine" accuracy ../shared/data/othello-games --games gam --empties 14,18,20 \
    --positions 1000 --cache data/accuracy/engine-games-choices.lab --cached-only --choices \
    --eval-file engine/data/othello8x8.weights --eval-file "$weights"
files=()
for openings in book:14:2 book:12:3 book:10:4 book:16:3; do
    file="docs/matches/weights-gen$n-100ms-sprt-${openings//:/-}.jsonl"
    if [ "${#files[@]}" -gt 0 ]; then
        # The SPRT over the stages so far (the report's last line); a failure stops here.
        verdict=$("$engine" match combine "${files[@]}" --sprt="$sprt" | tail -1)
        case "$verdict" in
            *undecided) ;;
            *) break ;;
        esac
    fi
    # Each stage's match goes on with the test of the stages before it.
    earlier=()
    [ "${#files[@]}" -gt 0 ] && earlier=(--sprt-after "${files[@]}")
    files+=("$file")
    resume=()
    [ -s "$file" ] && resume=(--resume)
    "$engine" match \
        --engine "name=gen$n cmd=$engine movetime=100 option.OwnBook=false option.EvalFile=$weights" \
        --engine "name=shipped cmd=$engine movetime=100 option.OwnBook=false" \
        --openings "$openings" --concurrency "$concurrency" --seed 5601 \
        --results "$file" --sprt="$sprt" "${earlier[@]}" "${resume[@]}"
done
"$engine" match combine "${files[@]}" --sprt="$sprt"
