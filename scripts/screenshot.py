#!/usr/bin/env python3
"""Turns the JSON cells of `cargo run --example screen -- --json …` into a PNG.

    cargo run -q --example screen -- --json 120 40 "e4 e5 Nf3" > /tmp/s.json
    python3 scripts/screenshot.py /tmp/s.json /tmp/s.png      # needs pillow
"""
import json
import sys

from PIL import Image, ImageDraw, ImageFont

MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
MONO_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"
WIDE = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # has the chess glyphs

rows = json.load(open(sys.argv[1]))
size = 18
cw, ch = 11, 22
img = Image.new("RGB", (cw * len(rows[0]), ch * len(rows)), "#1e1e1e")
draw = ImageDraw.Draw(img)
fonts = {False: ImageFont.truetype(MONO, size), True: ImageFont.truetype(MONO_BOLD, size)}
glyphs = ImageFont.truetype(WIDE, size)
for y, row in enumerate(rows):
    for x, (sym, fg, bg, bold) in enumerate(row):
        box = (x * cw, y * ch, (x + 1) * cw, (y + 1) * ch)
        draw.rectangle(box, fill=bg if bg.startswith("#") else "#1e1e1e")
        if sym.strip():
            font = glyphs if "\u2654" <= sym <= "\u265f" else fonts[bold]
            draw.text((x * cw, y * ch + 1), sym, font=font, fill=fg if fg.startswith("#") else "#d0d0d0")
img.save(sys.argv[2])
