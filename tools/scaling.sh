#!/usr/bin/env bash
# How the parallel search would scale on 16-64 cores, simulated on a few (issue 58,
# docs/parallel.md "Simulated on two cores"): the same searches with 1, 2, 4, ... 64
# threads. The threads share the machine's cores in time slices of a few ms, each making
# about the same progress, as each would on a core of its own; so the main thread's node
# count measures how long the search would take with a core per thread, and the speedup
# is main_nodes(first count) / main_nodes(N). The balance column (each helper's nodes
# over the main thread's) says whether the slices were fair: near 1 the simulation holds;
# far below, the helpers got too few slices (searches too short for that many threads)
# and the speedup is too low. Left out: memory bandwidth and the cache lines threads
# share (real cores lose to them, time slices do not).
# Usage: tools/scaling.sh [ENGINE_BINARY] (default target/release/engine)
#                         [THREADS...] (default 1 2 4 8 16 32 64)
set -euo pipefail
cd "$(dirname "$0")/.."
engine="${1:-target/release/engine}"
shift || true
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 2 4 8 16 32 64)
benchmarks=(
    "mid-game depth 26 at 58%|--file engine/data/midgame-36-45.obf --depth 26 --selectivity 58"
    "FFO #40-#49 exact|--ffo --range 40 49"
)
printf '%-26s %7s %14s %14s %8s %8s %9s\n' \
    benchmark threads nodes "main thread" balance speedup "wall (s)"
for bench in "${benchmarks[@]}"; do
    name="${bench%%|*}"
    read -r -a args <<<"${bench#*|}"
    base=""
    for t in "${threads[@]}"; do
        out=$("$engine" bench "${args[@]}" --threads "$t")
        # "total: <n> positions, <nodes> nodes, <seconds> s, <rate> nodes/s"
        read -r _ _ _ nodes _ wall _ <<<"$(grep '^total:' <<<"$out")"
        # "threads: <n>, the main one <nodes> nodes, each helper <ratio>x as many ..."
        main=$nodes balance="-"
        if line=$(grep '^threads:' <<<"$out"); then
            read -r _ _ _ _ _ main _ _ _ balance _ <<<"$line"
        fi
        base="${base:-$main}"
        speedup=$(awk -v m="$main" -v b="$base" 'BEGIN { printf "%.2f", b / m }')
        printf '%-26s %7s %14s %14s %8s %8s %9s\n' \
            "$name" "$t" "$nodes" "$main" "${balance%x}" "$speedup" "$wall"
    done
done
