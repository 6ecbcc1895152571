#!/usr/bin/env python3
"""Compares the rows of two `perf report --stdio` outputs.

usage: report_compare.py REF OURS TOPN TOLERANCE
REF is perf 6.1's output (the oracle), OURS ours. Rows are keyed by their
non-percentage columns; each of REF's top-N rows must be in OURS with every
percentage within TOLERANCE points, and OURS' top-N must not hold rows REF
lacks above the tolerance. Exit 0 when they agree, 1 with a diff otherwise.
"""
import re
import sys

ROW = re.compile(r'^\s+(\d+\.\d+)%\s+(?:(\d+\.\d+)%\s+)?(.*\S)\s*$')


def rows(path):
    out = []
    with open(path, errors='replace') as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            m = ROW.match(line)
            if not m:
                continue  # call-graph lines
            pcts = [float(m.group(1))] + ([float(m.group(2))] if m.group(2) else [])
            key = re.sub(r'\s+', ' ', m.group(3))
            out.append((key, pcts))
    return out


def main():
    ref_path, our_path, topn, tol = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    ref, ours = rows(ref_path), rows(our_path)
    if not ref:
        print('reference report has no rows')
        return 1
    ours_map = {}
    for k, p in ours:
        ours_map.setdefault(k, p)
    ref_map = {}
    for k, p in ref:
        ref_map.setdefault(k, p)
    bad = 0
    for k, p in ref[:topn]:
        q = ours_map.get(k)
        if q is None:
            # a row below the tolerance may be cut differently at a tie
            if max(p) > tol:
                print(f'missing in ours: {k} {p}')
                bad += 1
            continue
        if len(q) != len(p) or any(abs(a - b) > tol for a, b in zip(p, q)):
            print(f'differs: {k}: perf {p} ours {q}')
            bad += 1
    for k, q in ours[:topn]:
        if k not in ref_map and max(q) > tol:
            print(f'extra in ours: {k} {q}')
            bad += 1
    print(f'compared {min(topn, len(ref))} rows: {bad} problems')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
