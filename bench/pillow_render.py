#!/usr/bin/env python3
"""The sticker and story work of ../shared/bench/README.md done with Pillow at its default PNG
settings, for comparison with `belay render`. Prints one JSON object per template:
{"template": ..., "median_ms": ..., "min_ms": ..., "bytes": ...}.

The inputs are decoded once (the first, cold render does it; `cold_ms`), then each timed
repetition renders from the decoded artwork to PNG bytes in memory, as `belay render --repeat`
does.
"""
import argparse
import io
import json
import statistics
import sys
import time

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = "/usr/share/fonts/truetype/nanum/"
STICKER_SIZE = (720, 960)
RADIUS = 48
HOLD_BOX = (120, 90, 480, 480)
PLACE_MAX_WIDTH = 640
STORY_SIZE = (1080, 1920)
STORY_TOP = (0x1E, 0x3C, 0x72)
STORY_BOTTOM = (0x2A, 0x52, 0x98)
STICKER_ORIGIN = (180, 480)


def cover(image, size):
    """Scale to fill `size`, cropping the centre (Lanczos)."""
    scale = max(size[0] / image.width, size[1] / image.height)
    box_w, box_h = size[0] / scale, size[1] / scale
    left, top = (image.width - box_w) / 2, (image.height - box_h) / 2
    return image.resize(size, Image.LANCZOS, box=(left, top, left + box_w, top + box_h))


def rounded_mask(size, radius, supersample=4):
    """An anti-aliased rounded-rectangle mask: drawn 4x larger, then downsampled."""
    big = Image.new("L", (size[0] * supersample, size[1] * supersample), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, big.width - 1, big.height - 1), radius=radius * supersample, fill=255)
    return big.resize(size, Image.LANCZOS)


def ellipsised(text, font, max_width):
    if font.getlength(text) <= max_width:
        return text
    while text and font.getlength(text + "…") > max_width:
        text = text[:-1]
    return text + "…"


class Renderer:
    def __init__(self):
        self.decoded = {}
        self.bold = ImageFont.truetype(FONT_DIR + "NanumGothicBold.ttf", 72)
        self.regular = ImageFont.truetype(FONT_DIR + "NanumGothic.ttf", 48)
        self.mask = rounded_mask(STICKER_SIZE, RADIUS)

    def sticker(self, background_path, hold_path, place, date):
        background = self.load(background_path, "RGB")
        hold = self.load(hold_path, "RGBA")
        card = cover(background, STICKER_SIZE).convert("RGBA")
        card.putalpha(self.mask)
        x, y, w, h = HOLD_BOX
        scale = min(w / hold.width, h / hold.height)
        fitted = hold.resize((round(hold.width * scale), round(hold.height * scale)), Image.LANCZOS)
        layer = Image.new("RGBA", STICKER_SIZE, (0, 0, 0, 0))
        layer.paste(fitted, (x + (w - fitted.width) // 2, y + (h - fitted.height) // 2))
        card = Image.alpha_composite(card, layer)
        draw = ImageDraw.Draw(card)
        draw.text((360, 700), ellipsised(place, self.bold, PLACE_MAX_WIDTH), font=self.bold,
                  fill=(255, 255, 255, 255), anchor="ms")
        draw.text((360, 790), date, font=self.regular, fill=(0xA0, 0xA0, 0xA0, 255), anchor="ms")
        return card

    def load(self, path, mode):
        if (path, mode) not in self.decoded:
            self.decoded[(path, mode)] = Image.open(path).convert(mode)
        return self.decoded[(path, mode)]

    def story(self, background_path, hold_path, place, date):
        sticker = self.sticker(background_path, hold_path, place, date)
        column = Image.new("RGB", (1, STORY_SIZE[1]))
        last = STORY_SIZE[1] - 1
        column.putdata([tuple(round(a + (b - a) * y / last) for a, b in zip(STORY_TOP, STORY_BOTTOM))
                        for y in range(STORY_SIZE[1])])
        story = column.resize(STORY_SIZE, Image.NEAREST)
        story.paste(sticker, STICKER_ORIGIN, sticker)
        return story


def encode(image):
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")  # Pillow's defaults: zlib level 6, adaptive row filter
    return buffer.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--background", required=True)
    parser.add_argument("--hold", required=True)
    parser.add_argument("--place", required=True)
    parser.add_argument("--date", required=True)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--out-dir", help="also write sticker.png and story.png here")
    args = parser.parse_args()

    renderer = Renderer()
    for template in ("sticker", "story"):
        draw = getattr(renderer, template)
        start = time.perf_counter()
        data = encode(draw(args.background, args.hold, args.place, args.date))  # cold: decodes the inputs
        cold = (time.perf_counter() - start) * 1000
        times, cpu_times = [], []
        for _ in range(args.repeat):
            start, cpu_start = time.perf_counter(), time.process_time()
            data = encode(draw(args.background, args.hold, args.place, args.date))
            times.append((time.perf_counter() - start) * 1000)
            cpu_times.append((time.process_time() - cpu_start) * 1000)
        if args.out_dir:
            with open(f"{args.out_dir}/{template}.png", "wb") as f:
                f.write(data)
        print(json.dumps({"template": template, "median_ms": round(statistics.median(times), 2),
                          "min_ms": round(min(times), 2), "cold_ms": round(cold, 2),
                          "cpu_ms": round(statistics.median(cpu_times), 2), "bytes": len(data)}))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
