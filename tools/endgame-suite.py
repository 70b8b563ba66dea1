#!/usr/bin/env python3
"""Cut endgame positions out of GGF game records, for `engine bench --file`.

Usage: endgame-suite.py GAMES.ggf FIRST LAST > positions.obf

Game i (from 0) gives one position: the one with FIRST + i mod (LAST - FIRST + 1) empty
squares, with the side to move to play (positions where it must pass are skipped, as are
duplicates). Output is OBF without scores: `<64 squares> <X|O>;`. Score the lines with two
solvers before adding them to a suite (docs/benchmarks.md says how the shipped one was made).
"""
import re
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, sq, me):
    r, c = divmod(sq, 8)
    out = []
    for dr, dc in DIRS:
        run, rr, cc = [], r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == 1 - me:
            run.append(rr * 8 + cc)
            rr, cc = rr + dr, cc + dc
        if run and 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == me:
            out += run
    return out


def has_move(board, me):
    return any(board[s] is None and flips(board, s, me) for s in range(64))


def games(text):
    for record in re.findall(r"\(;.*?;\)", text, re.S):
        start = re.search(r"BO\[8 ([-*O]{64}) ([*O])\]", record)
        moves = re.findall(r"[BW]\[([A-Ha-h][1-8]|PA|pa)", record)
        yield start, moves


def main():
    path, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    seen = set()
    for i, (start, moves) in enumerate(games(open(path).read())):
        want = first + i % (last - first + 1)
        board = [{"*": 0, "O": 1}.get(ch) for ch in start.group(1)]
        me = 0 if start.group(2) == "*" else 1
        for mv in moves + [None]:
            if board.count(None) == want and has_move(board, me):
                text = "".join("-XO"[0 if s is None else s + 1] for s in board)
                line = f"{text} {'XO'[me]};"
                if line not in seen:
                    seen.add(line)
                    print(line)
                break
            if mv is None:
                break
            if mv.upper() != "PA":
                sq = (int(mv[1]) - 1) * 8 + ord(mv[0].upper()) - ord("A")
                for f in flips(board, sq, me) + [sq]:
                    board[f] = me
            me = 1 - me


if __name__ == "__main__":
    main()
