#!/usr/bin/env python3
"""Solves Kalah boards from the start through the engine's protocol and prints the rows of
docs/kalah.md: value, best move, nodes and time of the solve, then every first move's
value (a second, multi-PV solve).

usage: scripts/kalah-values.py ENGINE [--db-dir DIR] [--first-moves] GAME...
A database file DIR/p<P>-<N>[-noemptycapture].db is used when present (the largest N),
else from 4 pits on one built in memory (16, 24 or 20 seeds for 4, 5 or 6 pits)."""

import glob
import re
import subprocess
import sys


def database_for(db_dir, game):
    m = re.match(r"kalah(\d)x(\d)(-noemptycapture)?", game)
    pits, suffix = m.group(1), m.group(3) or ""
    files = glob.glob(f"{db_dir}/p{pits}-*{suffix}.db")
    files = [f for f in files if suffix or "noemptycapture" not in f]
    if not files:
        return {"4": "16", "5": "24", "6": "20"}.get(pits)
    return max(files, key=lambda f: int(re.search(r"-(\d+)", f.split("/")[-1]).group(1)))


def solve(engine, game, db, multipv):
    """The `info` lines of a solve that say `solved` (quit only after the bestmove: quit
    stops a search)."""
    proc = subprocess.Popen(
        [engine, "--max-hash", "2048", "--table-memory", "2048"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    lines = ["setoption name Hash value 2048"]
    if db:
        lines.append(f"setoption name KalahDatabase value {db}")
    lines += [f"position {game} startpos", "go solve" + (" multipv all" if multipv else "")]
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    infos = []
    for line in proc.stdout:
        if line.startswith("error"):
            sys.exit(f"{game}: {line.strip()}")
        if line.startswith("info") and " solved " in line:
            infos.append(line.strip())
        if line.startswith("bestmove"):
            break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait()
    return infos


def field(line, name):
    m = re.search(rf"\b{name} (-?\d+)", line)
    return int(m.group(1)) if m else None


def main():
    args = sys.argv[1:]
    engine = args.pop(0)
    db_dir, first_moves = None, False
    if "--db-dir" in args:
        i = args.index("--db-dir")
        db_dir = args[i + 1]
        del args[i:i + 2]
    if "--first-moves" in args:
        args.remove("--first-moves")
        first_moves = True
    for game in args:
        db = database_for(db_dir, game) if db_dir else None
        best = solve(engine, game, db, False)[-1]
        pv = best.split(" pv ")[1].split()
        row = f"| {game} | {field(best, 'score'):+d} | {pv[0]} | {field(best, 'nodes')} | {field(best, 'time') / 1000:.3f} |"
        if first_moves:
            ranked = {}
            for line in solve(engine, game, db, True):
                if field(line, "multipv") is not None:
                    ranked[field(line, "multipv")] = line
            values = sorted(
                (int(l.split(" pv ")[1].split()[0]), field(l, "score")) for l in ranked.values()
            )
            row += " " + " ".join(f"{m}:{v:+d}" for m, v in values) + " |"
        print(row, flush=True)


main()
