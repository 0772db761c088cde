#!/usr/bin/python3
"""Renders the example's calibration and evaluation images: pages of printed text.

PP-OCRv4 detection finds text regions, so its inputs are pictures of text. Each page is drawn
with Pillow and the DejaVu fonts from Debian (fonts-dejavu-core): lines of random words in
random sizes, colours and positions on a light, slightly noisy background. A fixed seed per set
makes the pages the same on every run.

Writes OUT/calib.f32 and OUT/eval.f32 (float32, N x 3 x H x W, preprocessed as PaddleOCR does
for detection: RGB / 255, minus the ImageNet mean, over its standard deviation), OUT/meta.json
(shapes) and one PNG per page for a person to look at.

usage: make_images.py OUT [--size 256] [--calib 8] [--eval 8]
"""
import argparse
import json
import os
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_DIR = "/usr/share/fonts/truetype/dejavu"
FONTS = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf"]
WORDS = ("quantization tier int8 int16 float protect group override target model layer "
         "accuracy cosine calibration node weight activation scale ladder search round "
         "Horizon Ascend export graph tensor kernel 2026 0.99 J6 nash").split()
MEAN = np.array([0.485, 0.456, 0.406], dtype=np.float32)
STD = np.array([0.229, 0.224, 0.225], dtype=np.float32)


def page(rng: random.Random, size: int) -> Image.Image:
    shade = rng.randint(215, 250)
    img = Image.new("RGB", (size, size), (shade, shade - rng.randint(0, 12), shade - rng.randint(0, 20)))
    draw = ImageDraw.Draw(img)
    y = rng.randint(4, 20)
    while y < size - 16:
        font = ImageFont.truetype(os.path.join(FONT_DIR, rng.choice(FONTS)), rng.randint(12, 28))
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4)))
        colour = tuple(rng.randint(0, 90) for _ in range(3))
        draw.text((rng.randint(2, size // 3), y), text, font=font, fill=colour)
        y += font.size + rng.randint(6, 30)
    noise = np.random.default_rng(rng.randint(0, 2**31)).normal(0, 4, (size, size, 3))
    pixels = np.clip(np.asarray(img, dtype=np.float32) + noise, 0, 255).astype(np.uint8)
    return Image.fromarray(pixels)


def preprocess(img: Image.Image) -> np.ndarray:
    x = (np.asarray(img, dtype=np.float32) / 255.0 - MEAN) / STD
    return x.transpose(2, 0, 1)


def write_set(out: str, name: str, count: int, size: int, seed: int) -> list:
    rng = random.Random(seed)
    pages = [page(rng, size) for _ in range(count)]
    for i, p in enumerate(pages):
        p.save(os.path.join(out, f"{name}-{i}.png"))
    data = np.stack([preprocess(p) for p in pages]).astype(np.float32)
    data.tofile(os.path.join(out, f"{name}.f32"))
    return list(data.shape)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--calib", type=int, default=8)
    ap.add_argument("--eval", type=int, default=8)
    a = ap.parse_args()
    if a.size % 32:
        ap.error("--size must be a multiple of 32 (the detector downsamples by 32)")
    os.makedirs(a.out, exist_ok=True)
    meta = {"calib": write_set(a.out, "calib", a.calib, a.size, 1),
            "eval": write_set(a.out, "eval", a.eval, a.size, 2)}
    with open(os.path.join(a.out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
