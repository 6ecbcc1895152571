#!/usr/bin/env python3
"""Checks of flame graph output for the script-report-*.sh tests.

  dom-names DOM            names of the frames Chromium drew (<g name=...>), one a line
  dom-hues DOM NAME...     the hue each named frame was drawn with (its <rect> fill)
  dom-widths DOM           "pct<TAB>name": each name's share of the root's drawn width
                           (nested frames of one name counted once, like --children)
  report-children REPORT   "pct<TAB>name" of `perf report --children --sort sym -g none`,
                           entries of one name (several JIT versions) added up
  png-ink PNG              fraction of pixels that differ from the most common colour
  json-diff A B            both perf-shaped JSON trees as folded stacks: "total differing"
  json-canonical FILE      exit 0 when FILE is exactly what Python's json.dumps writes
  folded-diff A B          "total differing" sample counts of two folded files
  no-network HTML          exit 1 naming any way the page could reach the network: an
                           http(s) URL anywhere, a tag attribute that loads (src, href...),
                           url() or @import in a style, a missing Content-Security-Policy
"""
import html.parser
import json
import os
import re
import struct
import sys
import zlib


class FrameParser(html.parser.HTMLParser):
    """<g> elements of the flame graph's SVG; script text is never looked at."""

    def __init__(self):
        super().__init__()
        self.frames = []
        self.fills = {}
        self.last = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "rect" and self.last and "fill" in a:
            self.fills.setdefault(self.last, a["fill"])
        if tag != "g":
            return
        self.last = a.get("name")
        if "name" not in a or "width" not in a:
            return
        m = re.match(r"translate\(([-\d.e]+),([-\d.e]+)\)", a.get("transform", ""))
        if not m:
            return
        self.frames.append((a["name"], float(m.group(1)), float(m.group(2)), float(a["width"])))


class LoadParser(html.parser.HTMLParser):
    LOADING = {"src", "href", "srcset", "poster", "data", "action", "formaction", "background"}

    def __init__(self):
        super().__init__()
        self.problems = []
        self.csp = ""
        self.in_style = False

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in self.LOADING:
                self.problems.append("<%s %s=%r>" % (tag, k, v))
            if k == "style" and v and re.search(r"url\(|@import", v, re.I):
                self.problems.append("<%s style=%r>" % (tag, v))
        a = dict(attrs)
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp = a.get("content") or ""
        self.in_style = tag == "style"

    def handle_endtag(self, tag):
        self.in_style = False

    def handle_data(self, data):
        if self.in_style and re.search(r"url\(|@import", data, re.I):
            self.problems.append("style: " + data[:60])


def no_network(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    problems = ["URL: " + m.group(0) for m in re.finditer(r".{0,30}https?:.{0,30}", text, re.I)][:3]
    p = LoadParser()
    p.feed(text)
    problems += p.problems
    if "default-src 'none'" not in p.csp:
        problems.append("no Content-Security-Policy with default-src 'none'")
    for x in problems:
        print(x)
    return not problems


def dom_parse(path):
    p = FrameParser()
    with open(path, encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    return p


def dom_frames(path):
    return dom_parse(path).frames


def dom_widths(path):
    frames = dom_frames(path)
    root = [w for n, x, y, w in frames if n == "all"]
    if not root:
        return {}
    total = root[0]
    spans = {}
    for n, x, y, w in frames:
        spans.setdefault(n, []).append((x, x + w))
    out = {}
    for n, iv in spans.items():
        iv.sort()
        covered, end = 0.0, None
        start = None
        for a, b in iv:
            if end is None or a > end:
                if end is not None:
                    covered += end - start
                start, end = a, b
            else:
                end = max(end, b)
        covered += end - start
        out[n] = 100.0 * covered / total
    return out


def report_children(path):
    out = {}
    rx = re.compile(r"^\s+([\d.]+)%\s+([\d.]+)%\s+\[(.)\]\s+(.*?)\s*$")
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = rx.match(line)
            if m:
                out[m.group(4)] = out.get(m.group(4), 0.0) + float(m.group(1))
    return out


def png_ink(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit("not a PNG: " + path)
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        ln, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + ln]
        if typ == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif typ == b"IDAT":
            idat += body
        pos += 12 + ln
    w, h, depth, ctype = hdr[0], hdr[1], hdr[2], hdr[3]
    if depth != 8 or ctype not in (2, 6):
        raise SystemExit("unsupported PNG (depth %d, colour type %d)" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    counts = {}
    for r in range(h):
        ft = raw[r * (stride + 1)]
        line = bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        if ft == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ft == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ft == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        row = bytes(line)
        for i in range(0, stride, bpp):
            px = row[i:i + 3]
            counts[px] = counts.get(px, 0) + 1
        prev = line
    bg = max(counts.values())
    return 1.0 - bg / float(w * h)


def folded_of_json(path):
    out = {}
    root = json.load(open(path, encoding="utf-8"))
    stack = [(root, ())]
    while stack:
        n, path_ = stack.pop()
        p = path_ + (n["n"],)
        if n["v"]:
            out[p] = out.get(p, 0) + n["v"]
        for c in n["c"]:
            stack.append((c, p))
    return out


def folded_of_file(path):
    out = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        stack, _, count = line.rstrip("\n").rpartition(" ")
        out[stack] = out.get(stack, 0) + int(count)
    return out


VDSO_FRAME = re.compile(r"^__vdso_\w+$")


def vdso_as_unknown(stacks):
    """perf 6.1 leaves a vdso frame [unknown] now and then (a page fault on the
    vdso's first use) where we name it: with FG_VDSO_AS_UNKNOWN=1 both sides'
    __vdso_* frames read [unknown], and only that difference is forgiven."""
    out = {}
    for k, v in stacks.items():
        if isinstance(k, tuple):
            k = tuple("[unknown]" if VDSO_FRAME.match(f) else f for f in k)
        else:
            k = ";".join("[unknown]" if VDSO_FRAME.match(f) else f for f in k.split(";"))
        out[k] = out.get(k, 0) + v
    return out


def diff(a, b):
    if os.environ.get("FG_VDSO_AS_UNKNOWN") == "1":
        a, b = vdso_as_unknown(a), vdso_as_unknown(b)
    total = sum(a.values())
    differing = sum(abs(a.get(k, 0) - b.get(k, 0)) for k in set(a) | set(b))
    print(total, differing)


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "dom-names":
        for n in sorted({f[0] for f in dom_frames(args[0])}):
            print(n)
    elif cmd == "dom-hues":
        fills = dom_parse(args[0]).fills
        for n in args[1:]:
            m = re.match(r"hsl\(\s*(-?[\d.]+)", fills.get(n, ""))
            print("%s\t%s" % (m.group(1) if m else "none", n))
    elif cmd == "dom-widths":
        for n, p in sorted(dom_widths(args[0]).items(), key=lambda x: -x[1]):
            print("%.2f\t%s" % (p, n))
    elif cmd == "report-children":
        for n, p in sorted(report_children(args[0]).items(), key=lambda x: -x[1]):
            print("%.2f\t%s" % (p, n))
    elif cmd == "png-ink":
        print("%.4f" % png_ink(args[0]))
    elif cmd == "json-diff":
        diff(folded_of_json(args[0]), folded_of_json(args[1]))
    elif cmd == "json-canonical":
        text = open(args[0], encoding="utf-8").read()
        sys.exit(0 if json.dumps(json.loads(text)) == text else 1)
    elif cmd == "folded-diff":
        diff(folded_of_file(args[0]), folded_of_file(args[1]))
    elif cmd == "no-network":
        sys.exit(0 if no_network(args[0]) else 1)
    else:
        raise SystemExit("unknown command " + cmd)


if __name__ == "__main__":
    main()
