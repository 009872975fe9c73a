"""Background artworks behind the hold on a sticker: 1080x1440, calm and dark in the lower
third so the white place name reads, with film grain so they feel photographed."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image

from raster import (fbm, gaussian_blur, hex_to_rgb, linear_to_srgb, smoothstep, srgb_to_linear,
                    value_noise)

WIDTH, HEIGHT = 1080, 1440
YS, XS = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
V = YS / HEIGHT
U = XS / WIDTH


@dataclass
class BackgroundSpec:
    id: str
    name: str
    seed: int
    painter: str


def gradient(stops, t):
    """Piecewise-linear colour ramp in linear light; stops = [(position, '#hex'), ...]."""
    t = np.clip(t, 0, 1)
    out = np.zeros(t.shape + (3,), np.float32)
    positions = [p for p, _ in stops]
    colours = [srgb_to_linear(hex_to_rgb(c)) for _, c in stops]
    for i in range(len(stops) - 1):
        p0, p1 = positions[i], positions[i + 1]
        w = np.clip((t - p0) / max(p1 - p0, 1e-6), 0, 1)
        inside = (t >= p0) & (t <= p1) if i < len(stops) - 2 else (t >= p0)
        value = colours[i] * (1 - w[..., None]) + colours[i + 1] * w[..., None]
        out = np.where(inside[..., None], value, out)
    out = np.where((t < positions[0])[..., None], colours[0], out)
    return out


def lower_third_shade(image, strength=0.55, start=0.58):
    """Darkens the lower part smoothly so white text on it keeps its contrast."""
    shade = 1.0 - strength * smoothstep(start, 1.0, V) ** 1.2
    return image * shade[..., None]


def vignette(image, strength=0.35):
    r = np.sqrt(((U - 0.5) / 0.75) ** 2 + ((V - 0.45) / 0.85) ** 2)
    return image * (1.0 - strength * smoothstep(0.45, 1.1, r))[..., None]


def finish(rng, linear, grain=0.012):
    """Linear light → sRGB bytes with luminance film grain."""
    srgb = linear_to_srgb(linear)
    noise = rng.normal(0.0, 1.0, (HEIGHT, WIDTH)).astype(np.float32)
    noise = 0.7 * noise + 0.3 * np.roll(noise, 1, axis=1)
    srgb = srgb + grain * noise[..., None]
    return Image.fromarray(np.clip(np.round(srgb * 255), 0, 255).astype(np.uint8), "RGB")


# --------------------------------------------------------------------------- scenes


def paint_wall_dusk(rng):
    """A plywood bouldering panel at dusk: t-nut grid, panel seams, faint chalk marks."""
    warp = fbm(rng, HEIGHT, WIDTH, 3, octaves=3)
    grain = np.sin(XS * 0.035 + 9.0 * warp + 3.0 * fbm(rng, HEIGHT, WIDTH, 14, octaves=2)) * 0.5 + 0.5
    fine = value_noise(rng, HEIGHT, WIDTH, 380) - 0.5
    paint = srgb_to_linear(hex_to_rgb("#3E4F66"))
    board = paint * (0.88 + 0.1 * grain[..., None] + 0.12 * fine[..., None])
    # Panel seams every 360 px, slightly darker bands with a bevel highlight.
    seam_x = np.abs(((XS + 120) % 540) - 270)
    seam_y = np.abs(((YS + 60) % 480) - 240)
    seam = np.maximum(smoothstep(266, 270, seam_x), smoothstep(236, 240, seam_y))
    board *= (1.0 - 0.55 * seam)[..., None]
    # T-nut grid on a staggered pattern.
    spacing = 90.0
    row = np.floor(YS / spacing)
    gx = (XS + (row % 2) * spacing / 2) % spacing - spacing / 2
    gy = YS % spacing - spacing / 2
    r = np.sqrt(gx * gx + gy * gy)
    flange = smoothstep(9.5, 8.0, r) * smoothstep(4.0, 5.5, r)
    hole = smoothstep(4.8, 3.2, r)
    metal = np.array([0.32, 0.31, 0.29], np.float32)
    board = board * (1 - flange[..., None]) + metal * (0.6 + 0.8 * smoothstep(9, -9, gx + gy))[..., None] * flange[..., None]
    board *= (1 - 0.9 * hole)[..., None]
    # Chalk: smudges near some t-nuts and ghostly handprint-like swipes.
    chalk = np.clip(fbm(rng, HEIGHT, WIDTH, 9, octaves=5) * 1.3 - 0.35, 0, 1) * 0.22
    chalk *= smoothstep(1.0, 0.35, V)
    board = board * (1 - chalk[..., None]) + 0.55 * chalk[..., None]
    # Dusk light: a warm window glow from the top left fading into cold shadow.
    glow = np.exp(-(((U - 0.1) / 0.7) ** 2 + ((V - 0.05) / 0.55) ** 2))
    warm = srgb_to_linear(hex_to_rgb("#FF9A5A"))
    cool = srgb_to_linear(hex_to_rgb("#2A3A6A"))
    light = warm * (1.6 * glow)[..., None] + cool * (0.55 * (1 - glow))[..., None]
    image = board * light
    image = lower_third_shade(image, 0.62, 0.5)
    return vignette(image, 0.4)


def paint_crag_sunset(rng):
    """A granite crag against a sunset sky, the foot of the cliff in shadow."""
    sky = gradient([(0.0, "#1B2B5A"), (0.28, "#4B3F7A"), (0.46, "#C4607A"), (0.58, "#F29A5C"),
                    (0.66, "#FFC27A")], V)
    sun = np.exp(-(((U - 0.28) / 0.09) ** 2 + ((V - 0.63) / 0.07) ** 2))
    sky += (sun * 1.4)[..., None] * srgb_to_linear(hex_to_rgb("#FFE0A8"))
    haze = np.exp(-((V - 0.62) / 0.08) ** 2) * 0.25
    sky += haze[..., None] * srgb_to_linear(hex_to_rgb("#FF9E6B"))
    clouds = np.clip(fbm(rng, HEIGHT, WIDTH, 4, octaves=5) - 0.05, 0, 1)
    streaks = clouds * smoothstep(0.15, 0.35, V) * smoothstep(0.6, 0.45, V)
    sky = sky * (1 - 0.3 * streaks[..., None]) + (streaks * 0.45)[..., None] * srgb_to_linear(hex_to_rgb("#FF8A7A"))

    # Cliff profile: rises from the right, with a detailed crest.
    crest = 0.30 + 0.42 * smoothstep(0.95, 0.35, U) ** 1.4
    ridge_noise = fbm(rng, 1, WIDTH, 12, octaves=6)[0] * 0.035
    crest = crest + ridge_noise[None, :]
    rock_mask = smoothstep(crest - 0.002, crest + 0.002, V)
    rock_tex = fbm(rng, HEIGHT, WIDTH, 10, octaves=6)
    cracks = np.abs(fbm(rng, HEIGHT, WIDTH, 5, octaves=4))
    granite = srgb_to_linear(hex_to_rgb("#6A5A58")) * (0.55 + 0.3 * rock_tex[..., None])
    granite *= (0.6 + 0.4 * smoothstep(0.0, 0.12, cracks))[..., None]
    rim = np.exp(-((V - crest) / 0.012) ** 2) * smoothstep(0.15, 0.9, U)
    sunlit = smoothstep(0.7, 0.3, V - crest + U * 0.2) * 0.9
    granite = granite * (0.35 + sunlit[..., None] * srgb_to_linear(hex_to_rgb("#FFB07A"))) + \
        (rim * 0.5)[..., None] * srgb_to_linear(hex_to_rgb("#FFC98F"))
    # Distant ridge on the left, hazed into the sky.
    far = 0.62 + 0.04 * fbm(rng, 1, WIDTH, 6, octaves=5)[0][None, :]
    far_mask = smoothstep(far - 0.002, far + 0.002, V)
    far_colour = srgb_to_linear(hex_to_rgb("#6B4A6E"))
    image = sky * (1 - far_mask[..., None]) + far_colour * far_mask[..., None] * (0.8 - 0.4 * smoothstep(0.62, 1.0, V))[..., None]
    image = image * (1 - rock_mask[..., None]) + granite * rock_mask[..., None]
    # Foreground trees/boulders in silhouette along the bottom.
    ground = 0.86 + 0.05 * fbm(rng, 1, WIDTH, 18, octaves=5)[0][None, :]
    ground_mask = smoothstep(ground - 0.003, ground + 0.003, V)
    image = image * (1 - 0.85 * ground_mask[..., None]) + srgb_to_linear(hex_to_rgb("#120E1C")) * (0.85 * ground_mask)[..., None]
    image = lower_third_shade(image, 0.5, 0.62)
    return vignette(image, 0.3)


def paint_gym_night(rng):
    """A bouldering gym after hours: spotlights on an overhang, holds blurred into bokeh."""
    base = gradient([(0.0, "#0E1526"), (0.5, "#152038"), (1.0, "#070A12")], V)
    # Angled wall panels catching the light.
    facet = np.floor((XS * 0.8 + YS * 0.35) / 300.0) + np.floor((YS - XS * 0.3) / 420.0) * 3
    shade = (np.sin(facet * 12.9898) * 43758.5453) % 1.0
    base *= (0.75 + 0.35 * shade)[..., None]
    # Spotlight cones from the ceiling.
    image = base.copy()
    for cx, spread, strength, colour in ((0.22, 0.16, 1.3, "#FFD9A0"), (0.62, 0.2, 1.0, "#A8C8FF"),
                                         (0.92, 0.12, 0.7, "#FFD9A0")):
        width = 0.03 + spread * V
        cone = np.exp(-((U - cx - 0.05 * V) / width) ** 2) * smoothstep(0.0, 0.08, V) * smoothstep(0.95, 0.3, V)
        image += (cone * strength * 0.35)[..., None] * srgb_to_linear(hex_to_rgb(colour))
        lamp = np.exp(-(((U - cx) / 0.03) ** 2 + (V / 0.02) ** 2))
        image += (lamp * 3.0)[..., None] * srgb_to_linear(hex_to_rgb(colour))
    # Out-of-focus holds: soft discs in climbing colours.
    colours = ["#E53935", "#FDD835", "#43A047", "#1E88E5", "#8E24AA", "#FB8C00", "#EC407A", "#00ACC1"]
    bokeh = np.zeros_like(image)
    for _ in range(46):
        x = rng.uniform(0, WIDTH)
        y = rng.uniform(0, HEIGHT * 0.7)
        radius = rng.uniform(14, 46)
        colour = srgb_to_linear(hex_to_rgb(colours[rng.integers(len(colours))]))
        d = np.sqrt((XS - x) ** 2 + (YS - y) ** 2)
        disc = smoothstep(radius, radius - 6, d) * (0.7 + 0.3 * smoothstep(radius * 0.5, radius, d))
        lit = 0.25 + 0.6 * np.exp(-((x / WIDTH - 0.3) ** 2) / 0.08)
        bokeh += disc[..., None] * colour * lit * rng.uniform(0.4, 0.9)
    image = image + bokeh * 0.6
    # Crash pads: a dark blue band with soft highlights along the seams.
    pad = smoothstep(0.8, 0.82, V)
    pad_colour = srgb_to_linear(hex_to_rgb("#0A1430")) * (0.9 + 0.2 * (np.sin(XS * 0.02) * 0.5 + 0.5))[..., None]
    image = image * (1 - pad[..., None]) + pad_colour * pad[..., None]
    haze = fbm(rng, HEIGHT, WIDTH, 3, octaves=4) * 0.5 + 0.5
    image += (haze * 0.015)[..., None]
    image = lower_third_shade(image, 0.45, 0.6)
    return vignette(image, 0.45)


def paint_alpine_ridges(rng):
    """Mountain ridges layered into blue haze under a star-flecked dusk sky."""
    sky = gradient([(0.0, "#0B1026"), (0.3, "#1F2A5C"), (0.55, "#5A6FA8"), (0.7, "#E8A98A")], V)
    stars = (rng.random((HEIGHT, WIDTH)) > 0.9993).astype(np.float32)
    stars = gaussian_blur(stars, 0.7) * 6 * smoothstep(0.45, 0.05, V)
    image = sky + stars[..., None]
    layers = [(0.52, "#4C5A8C", 0.05, 5), (0.6, "#36406E", 0.06, 6), (0.69, "#252C52", 0.07, 7),
              (0.79, "#171C38", 0.06, 8), (0.9, "#0C0F20", 0.05, 9)]
    for base_height, colour, amplitude, detail in layers:
        profile = base_height + amplitude * fbm(rng, 1, WIDTH, detail * 0.5, octaves=6)[0]
        # Sharpen peaks.
        profile = base_height - np.abs(profile - base_height) * 1.6 + amplitude * 0.4
        mask = smoothstep(profile - 0.0015, profile + 0.0015, V)
        fog = smoothstep(profile, profile + 0.12, V)
        layer = srgb_to_linear(hex_to_rgb(colour)) * (1.0 - 0.25 * fog)[..., None]
        image = image * (1 - mask[..., None]) + layer * mask[..., None]
    image = lower_third_shade(image, 0.35, 0.7)
    return vignette(image, 0.25)


def paint_chalk_dust(rng):
    """Chalk dust drifting over a charcoal slab, like a clap of chalked hands under a lamp."""
    base = gradient([(0.0, "#2B2F36"), (0.6, "#1C1F24"), (1.0, "#0F1114")], V)
    slab = fbm(rng, HEIGHT, WIDTH, 8, octaves=6)
    image = base * (0.85 + 0.25 * slab[..., None])
    dust = np.zeros((HEIGHT, WIDTH), np.float32)
    for _ in range(5):
        cx, cy = rng.uniform(0.15, 0.85), rng.uniform(0.12, 0.55)
        sx, sy = rng.uniform(0.15, 0.3), rng.uniform(0.1, 0.2)
        cloud = np.exp(-(((U - cx) / sx) ** 2 + ((V - cy) / sy) ** 2))
        dust += cloud * rng.uniform(0.4, 0.8)
    wisps = np.clip(fbm(rng, HEIGHT, WIDTH, 5, octaves=7) + 0.25, 0, 1)
    dust = np.clip(dust * wisps * 0.9, 0, 1)
    particles = (rng.random((HEIGHT, WIDTH)) > 0.996).astype(np.float32)
    particles = gaussian_blur(particles, 0.9) * 3.5 * smoothstep(0.15, 0.6, dust)
    light = np.exp(-(((U - 0.4) / 0.6) ** 2 + ((V - 0.25) / 0.5) ** 2))
    chalk = np.array([0.92, 0.92, 0.9], np.float32)
    image = image * (1 - 0.7 * dust[..., None]) + chalk * ((0.7 * dust + particles) * (0.3 + 0.9 * light))[..., None]
    image = lower_third_shade(image, 0.55, 0.55)
    return vignette(image, 0.35)


PAINTERS = {
    "wall_dusk": paint_wall_dusk,
    "crag_sunset": paint_crag_sunset,
    "gym_night": paint_gym_night,
    "alpine_ridges": paint_alpine_ridges,
    "chalk_dust": paint_chalk_dust,
}

BACKGROUNDS = [
    BackgroundSpec("wall-dusk", "Dusk Wall", 301, "wall_dusk"),
    BackgroundSpec("crag-sunset", "Granite Sunset", 302, "crag_sunset"),
    BackgroundSpec("gym-night", "Night Session", 303, "gym_night"),
    BackgroundSpec("alpine-ridges", "Alpine Ridges", 304, "alpine_ridges"),
    BackgroundSpec("chalk-dust", "Chalk Dust", 305, "chalk_dust"),
]


def render(spec: BackgroundSpec) -> Image.Image:
    rng = np.random.default_rng(spec.seed)
    linear = PAINTERS[spec.painter](rng)
    return finish(rng, np.clip(linear, 0, None))


def edge_colours(image: Image.Image, band: int = 24):
    """The average colour of the top and bottom bands, as #RRGGBB: the story gradient's ends."""
    pixels = np.asarray(image, np.float32)
    top = pixels[:band].reshape(-1, 3).mean(axis=0)
    bottom = pixels[-band:].reshape(-1, 3).mean(axis=0)
    as_hex = lambda c: "#" + "".join(f"{int(round(v)):02X}" for v in c)
    return as_hex(top), as_hex(bottom)
