#!/usr/bin/env python3
"""How deep a timed search gets with one thread, with two, and with one at twice the time
(issue 58, docs/parallel.md): mid-game positions from a match's results file (plies 2, 8,
14, 20 and 26 of each game), each searched with `go movetime T` by a fresh engine process
(the book off) in the three ways one after the other, so that the machine's drift touches
all three alike. Prints a line per position (ply, then depth and nodes of each way) and
the means over the positions that no way searched to the end.

Usage: tools/depth-at-time.py ENGINE_BINARY [MOVETIME_MS (100)] [POSITIONS (150)]
                              [RESULTS_JSONL (docs/matches/clock-10s-late-middle-game.jsonl)]
"""
import json
import subprocess
import sys
from pathlib import Path

PLIES = (2, 8, 14, 20, 26)
WAYS = ((1, 1), (2, 1), (1, 2))  # (threads, multiple of the move time)


def positions(results, limit):
    found = []
    try:
        lines = open(results, encoding="utf-8").readlines()
    except OSError as e:
        sys.exit(f"cannot read {results}: {e.strerror}")
    for line in lines:
        game = json.loads(line)
        moves = [m["mv"] for m in game["moves"]]
        for ply in PLIES:
            if ply < len(moves):
                found.append((ply, game["opening"] + " " + " ".join(moves[:ply])))
    return found[:limit]


def search(engine, position, threads, movetime):
    """The last info line's depth (`end` for a solve) and nodes."""
    commands = (
        f"setoption name Threads value {threads}\n"
        "setoption name OwnBook value false\n"
        f"position othello8x8 {position}\n"
        f"go movetime {movetime}\n"
    )
    try:
        p = subprocess.Popen(
            [engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
    except OSError as e:
        sys.exit(f"cannot run {engine}: {e.strerror}")
    with p:
        p.stdin.write(commands)
        p.stdin.flush()
        last = None
        for line in p.stdout:
            if line.startswith("info") and " depth " in line:
                last = line.split()
            if line.startswith("bestmove"):
                break
        p.stdin.write("quit\n")
        p.stdin.close()
    if last is None:
        sys.exit(f"no info line for {position}")
    return last[last.index("depth") + 1], int(last[last.index("nodes") + 1])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.strip().splitlines()[-2])
    engine = sys.argv[1]
    movetime = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 150
    repo = Path(__file__).resolve().parent.parent
    default = repo / "docs/matches/clock-10s-late-middle-game.jsonl"
    results = sys.argv[4] if len(sys.argv) > 4 else default
    rows = []
    for ply, position in positions(results, limit):
        row = [search(engine, position, t, k * movetime) for t, k in WAYS]
        print(ply, *(f"{d} {n}" for d, n in row), flush=True)
        if all(d != "end" for d, _ in row):
            rows.append(row)
    if not rows:
        sys.exit("every position was searched to the end")
    print(f"{len(rows)} positions not solved; mean depth and nodes:")
    base = sum(r[0][1] for r in rows) / len(rows)
    for i, (threads, k) in enumerate(WAYS):
        depth = sum(int(r[i][0]) for r in rows) / len(rows)
        nodes = sum(r[i][1] for r in rows) / len(rows)
        print(f"  {threads} thread(s), {k * movetime} ms: depth {depth:.2f}, "
              f"nodes {nodes:,.0f} ({nodes / base:.2f}x)")


if __name__ == "__main__":
    main()
