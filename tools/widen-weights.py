#!/usr/bin/env python3
"""Rewrite an older weights file for today's evaluation, which evaluates exactly as it did.

Usage: widen-weights.py OLD.weights NEW.weights

The first trained weights (12174b8, before issue 28: `git show
12174b8:engine/data/othello8x8.weights > old.weights`) hold, per phase, the parameters of
the eleven classic shapes only. Today's engine numbers its parameters the same way for
those shapes, then adds two ten-square shapes and the whole-board features; their weights
are set to 0 here, so that the engine (option `EvalFile`) sums the same 46 pattern copies
as before: a match of the shipped weights against the old ones with one search
(docs/benchmarks.md, session 32). Checked on reading: the header, 15 phases, the scale.
"""
import struct
import sys
import zlib

MAGIC = b"GSPATW01"
PHASES = 15
SCALE = 128
# Parameters per phase (docs/evaluation.md): the old file's, the eleven classic shapes';
# today's, those, then 29,889 + 29,646 for the two ten-square shapes and 256 for the
# whole-board features. Only a file of the classic shapes alone is a prefix of today's.
OLD_PARAMS = 113_877
PARAMS = 173_668


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    try:
        raw = zlib.decompress(open(sys.argv[1], "rb").read())
    except (OSError, zlib.error) as e:
        sys.exit(f"{sys.argv[1]}: {e}")
    if raw[:8] != MAGIC:
        sys.exit(f"{sys.argv[1]}: not a weights file (no {MAGIC.decode()} header)")
    phases, params, scale = struct.unpack("<III", raw[8:20])
    if (phases, params, scale) != (PHASES, OLD_PARAMS, SCALE):
        sys.exit(
            f"{sys.argv[1]}: {phases} phases of {params} parameters at scale {scale}, "
            f"not {PHASES} of {OLD_PARAMS} at {SCALE}"
        )
    if len(raw) != 20 + 2 * phases * params:
        sys.exit(f"{sys.argv[1]}: wrong length")
    out = bytearray(MAGIC + struct.pack("<III", PHASES, PARAMS, SCALE))
    for p in range(PHASES):
        out += raw[20 + 2 * params * p : 20 + 2 * params * (p + 1)]
        out += bytes(2 * (PARAMS - params))
    try:
        open(sys.argv[2], "wb").write(zlib.compress(bytes(out), 9))
    except OSError as e:
        sys.exit(f"{sys.argv[2]}: {e}")


if __name__ == "__main__":
    main()
