#!/usr/bin/env python3
"""The sticker, story and share-card work of ../shared/bench/README.md done with Pillow at its
default PNG settings, for comparison with `belay render`. Prints one JSON object per template:
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
CARD_SIZE = (1200, 630)
CARD_STICKER_BOX = (64, 40, 412, 550)
CARD_COLUMN = (540, 1140)
CARD_SHADE = (0, 0, 0, 96)


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
    def __init__(self, hold_name, achievement, club_name):
        self.decoded = {}
        self.fonts = {}
        self.masks = {}
        self.hold_name, self.achievement, self.club_name = hold_name, achievement, club_name

    def font(self, weight, size):
        """NanumGothic (Bold) at `size` pixels, opened once."""
        if (weight, size) not in self.fonts:
            name = "NanumGothicBold.ttf" if weight == "bold" else "NanumGothic.ttf"
            self.fonts[(weight, size)] = ImageFont.truetype(FONT_DIR + name, size)
        return self.fonts[(weight, size)]

    def sticker(self, background_path, hold_path, place, date, scale=3):
        """The sticker at `scale` (the constants above are its 3x sizes)."""
        def px(value):
            return round(value * scale / 3)
        size = (px(STICKER_SIZE[0]), px(STICKER_SIZE[1]))
        if size not in self.masks:
            self.masks[size] = rounded_mask(size, px(RADIUS))
        background = self.load(background_path, "RGB")
        hold = self.load(hold_path, "RGBA")
        card = cover(background, size).convert("RGBA")
        card.putalpha(self.masks[size])
        x, y, w, h = (px(value) for value in HOLD_BOX)
        fit = min(w / hold.width, h / hold.height)
        fitted = hold.resize((round(hold.width * fit), round(hold.height * fit)), Image.LANCZOS)
        layer = Image.new("RGBA", size, (0, 0, 0, 0))
        layer.paste(fitted, (x + (w - fitted.width) // 2, y + (h - fitted.height) // 2))
        card = Image.alpha_composite(card, layer)
        draw = ImageDraw.Draw(card)
        bold, regular = self.font("bold", px(72)), self.font("regular", px(48))
        draw.text((px(360), px(700)), ellipsised(place, bold, px(PLACE_MAX_WIDTH)), font=bold,
                  fill=(255, 255, 255, 255), anchor="ms")
        draw.text((px(360), px(790)), date, font=regular, fill=(0xA0, 0xA0, 0xA0, 255), anchor="ms")
        return card

    def load(self, path, mode):
        if (path, mode) not in self.decoded:
            self.decoded[(path, mode)] = Image.open(path).convert(mode)
        return self.decoded[(path, mode)]

    def story(self, background_path, hold_path, place, date):
        sticker = self.sticker(background_path, hold_path, place, date)
        story = gradient(STORY_SIZE)
        story.paste(sticker, STICKER_ORIGIN, sticker)
        return story

    def card(self, background_path, hold_path, place, date):
        """The 1200x630 link preview: the gradient shaded on the right, the 2x sticker fitted on
        the left, and on the right the achievement, the hold's name, the place, the date and
        the club's row (a monogram disc and the club's name)."""
        sticker = self.sticker(background_path, hold_path, place, date, scale=2)
        card = gradient(CARD_SIZE).convert("RGBA")
        shade = Image.new("RGBA", CARD_SIZE, (0, 0, 0, 0))
        ImageDraw.Draw(shade).rectangle((CARD_COLUMN[0] - 40, 0, CARD_SIZE[0], CARD_SIZE[1]), fill=CARD_SHADE)
        card = Image.alpha_composite(card, shade)
        x, y, w, h = CARD_STICKER_BOX
        fit = min(w / sticker.width, h / sticker.height)
        fitted = sticker.resize((round(sticker.width * fit), round(sticker.height * fit)), Image.LANCZOS)
        card.alpha_composite(fitted, (x + (w - fitted.width) // 2, y + (h - fitted.height) // 2))
        overlay = Image.new("RGBA", CARD_SIZE, (0, 0, 0, 0))
        draw = ImageDraw.Draw(overlay)
        centre, width = (CARD_COLUMN[0] + CARD_COLUMN[1]) // 2, CARD_COLUMN[1] - CARD_COLUMN[0]
        for text, weight, size, baseline, fill in [
                (self.achievement, "bold", 30, 160, (255, 255, 255, 220)), (self.hold_name, "bold", 60, 250, (255, 255, 255, 255)),
                (place, "regular", 38, 330, (255, 255, 255, 255)), (date, "regular", 30, 385, (0xE0, 0xE0, 0xE0, 255))]:
            font = self.font(weight, size)
            draw.text((centre, baseline), ellipsised(text, font, width), font=font, fill=fill, anchor="ms")
        club = self.font("bold", 28)
        name_width = club.getlength(self.club_name)
        left = centre - (48 + 16 + name_width) / 2
        draw.ellipse((left, 512, left + 48, 560), fill=(255, 255, 255, 56))
        draw.text((left + 24, 536), self.club_name[:1].upper(), font=self.font("bold", 24), fill=(255, 255, 255, 255), anchor="mm")
        draw.text((left + 64, 546), self.club_name, font=club, fill=(255, 255, 255, 220), anchor="ls")
        return Image.alpha_composite(card, overlay).convert("RGB")


def gradient(size):
    """The story's two colours from top to bottom, one row at a time."""
    column = Image.new("RGB", (1, size[1]))
    last = size[1] - 1
    column.putdata([tuple(round(a + (b - a) * y / last) for a, b in zip(STORY_TOP, STORY_BOTTOM))
                    for y in range(size[1])])
    return column.resize(size, Image.NEAREST)


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
    parser.add_argument("--hold-name", default="골드 저그")
    parser.add_argument("--achievement", default="12번째 체크인")
    parser.add_argument("--club-name", default="Belay")
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--out-dir", help="also write sticker.png, story.png and card.png here")
    args = parser.parse_args()

    renderer = Renderer(args.hold_name, args.achievement, args.club_name)
    for template in ("sticker", "story", "card"):
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
