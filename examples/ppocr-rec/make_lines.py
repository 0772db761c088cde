#!/usr/bin/python3
"""Renders the ppocr-rec example's calibration and evaluation inputs: single lines of text.

PP-OCRv4 recognition reads one cropped line of text, 48 pixels high. Each line is drawn with
Pillow and the DejaVu fonts from Debian (fonts-dejavu-core): one to three random words in a
random font, size, colour and offset on a light, slightly noisy background. A fixed seed per
set makes the lines the same on every run.

Writes OUT/calib.f32 and OUT/eval.f32 (float32, N x 3 x 48 x W, preprocessed as PaddleOCR does
for recognition: RGB / 255, minus 0.5, over 0.5), OUT/meta.json (shapes), OUT/text.json (what
each line says) and one PNG per line for a person to look at.

usage: make_lines.py OUT [--width 192] [--calib 8] [--eval 8]
"""
import argparse
import json
import os
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_DIR = "/usr/share/fonts/truetype/dejavu"
FONTS = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf"]
WORDS = ("quant tier int8 int16 float model layer cosine node scale ladder round graph tensor "
         "kernel 0.99 J6 nash 2048 search target").split()
HEIGHT = 48


def line(rng: random.Random, width: int):
    shade = rng.randint(215, 250)
    img = Image.new("RGB", (width, HEIGHT), (shade, shade - rng.randint(0, 12), shade - rng.randint(0, 20)))
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(os.path.join(FONT_DIR, rng.choice(FONTS)), rng.randint(22, 30))
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 3))]
    while len(words) > 1 and draw.textlength(" ".join(words), font=font) > width - 8:
        words.pop()
    text = " ".join(words)
    colour = tuple(rng.randint(0, 90) for _ in range(3))
    draw.text((rng.randint(2, 6), (HEIGHT - font.size) // 2 - 2 + rng.randint(0, 4)), text, font=font, fill=colour)
    noise = np.random.default_rng(rng.randint(0, 2**31)).normal(0, 4, (HEIGHT, width, 3))
    pixels = np.clip(np.asarray(img, dtype=np.float32) + noise, 0, 255).astype(np.uint8)
    return Image.fromarray(pixels), text


def write_set(out: str, name: str, count: int, width: int, seed: int):
    rng = random.Random(seed)
    lines = [line(rng, width) for _ in range(count)]
    for i, (img, _) in enumerate(lines):
        img.save(os.path.join(out, f"{name}-{i}.png"))
    data = np.stack([(np.asarray(img, dtype=np.float32) / 255.0 - 0.5) / 0.5 for img, _ in lines])
    data = data.transpose(0, 3, 1, 2).astype(np.float32)
    data.tofile(os.path.join(out, f"{name}.f32"))
    return list(data.shape), [t for _, t in lines]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--width", type=int, default=192)
    ap.add_argument("--calib", type=int, default=8)
    ap.add_argument("--eval", type=int, default=8)
    a = ap.parse_args()
    if a.width % 8:
        ap.error("--width must be a multiple of 8 (the recognizer downsamples by 8 along the line)")
    os.makedirs(a.out, exist_ok=True)
    calib, calib_text = write_set(a.out, "calib", a.calib, a.width, 11)
    evals, eval_text = write_set(a.out, "eval", a.eval, a.width, 12)
    for name, value in (("meta.json", {"calib": calib, "eval": evals}),
                        ("text.json", {"calib": calib_text, "eval": eval_text})):
        with open(os.path.join(a.out, name), "w") as f:
            json.dump(value, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
