#!/usr/bin/env python3
"""Draws docs/memo-growth.svg from the CSV of bench/memo-growth.sh.

Usage: bench/memo-growth.sh 20 3 > growth.csv
       python3 bench/plot-memo-growth.py growth.csv > docs/memo-growth.svg

Two panels, n on the x axis (the n x n board), log scales: the seconds of
the whole process and of the count itself, and memory (the process's largest resident set and the
cache's peak), in MB. Plain SVG, no libraries.
"""
import csv
import math
import sys

rows = list(csv.DictReader(open(sys.argv[1])))
ns = [int(r["n"]) for r in rows]
# values of 0 (below what was measured: GNU time counts hundredths of a
# second) are left out of a line
series_time = [
    ("whole process", [float(r["seconds"]) for r in rows], "#1f77b4"),
    ("the count (its summary)", [float(r["count_seconds"]) for r in rows], "#ff7f0e"),
]
series_mem = [
    ("resident MB (whole process)", [float(r["rss_mb"]) for r in rows], "#d62728"),
    ("cache MB (peak)", [float(r["cache_mb"]) for r in rows], "#2ca02c"),
]

W, H = 360, 260
L, R, T, B = 56, 12, 30, 40


def panel(x0, title, series, lo, hi, unit):
    out = [f'<g transform="translate({x0},0)">']
    out.append(f'<text x="{L + (W - L - R) / 2}" y="18" text-anchor="middle" font-weight="bold">{title}</text>')
    pw, ph = W - L - R, H - T - B
    lmin, lmax = math.floor(math.log10(lo)), math.ceil(math.log10(hi))

    def px(n):
        return L + (n - ns[0]) / (ns[-1] - ns[0]) * pw

    def py(v):
        return T + ph - (math.log10(v) - lmin) / (lmax - lmin) * ph

    out.append(f'<rect x="{L}" y="{T}" width="{pw}" height="{ph}" fill="none" stroke="#888"/>')
    for e in range(lmin, lmax + 1):
        y = py(10 ** e)
        label = f"{10 ** e:g}"
        out.append(f'<line x1="{L}" y1="{y:.1f}" x2="{L + pw}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{L - 4}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    for n in ns:
        x = px(n)
        out.append(f'<text x="{x:.1f}" y="{T + ph + 16}" text-anchor="middle">{n}</text>')
    out.append(f'<text x="{L + pw / 2}" y="{H - 4}" text-anchor="middle">n (the n x n board)</text>')
    out.append(f'<text transform="translate(12,{T + ph / 2}) rotate(-90)" text-anchor="middle">{unit}</text>')
    for i, (name, vals, colour) in enumerate(series):
        kept = [(n, v) for n, v in zip(ns, vals) if v > 0]
        pts = " ".join(f"{px(n):.1f},{py(v):.1f}" for n, v in kept)
        out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for n, v in kept:
            out.append(f'<circle cx="{px(n):.1f}" cy="{py(v):.1f}" r="2.5" fill="{colour}"/>')
        out.append(f'<text x="{L + 8}" y="{T + 16 + 14 * i}" fill="{colour}">{name}</text>')
    out.append("</g>")
    return out


svg = [
    f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * W}" height="{H}" '
    f'font-family="sans-serif" font-size="11">',
    f'<rect width="{2 * W}" height="{H}" fill="white"/>',
]
times = [v for _, vals, _ in series_time for v in vals if v > 0]
svg += panel(0, "Domino tilings, --memo: time", series_time, min(times), max(times), "seconds (log)")
mems = [v for _, vals, _ in series_mem for v in vals if v > 0]
svg += panel(W, "Memory", series_mem, min(mems), max(mems), "MB (log)")
svg.append("</svg>")
print("\n".join(svg))
