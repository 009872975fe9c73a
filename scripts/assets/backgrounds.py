"""Background artworks behind the hold on a sticker: 1080x1440, calm and dark in the lower
third so the white place name reads, with film grain so they feel photographed."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image

from raster import (fbm, gaussian_blur, hex_to_rgb, linear_to_srgb, resize_field, smoothstep,
                    srgb_to_linear, value_noise)

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


def blob_mask(cx, cy, rx, ry, harmonics, rotation):
    """Soft-edged filled blob, the outline of a hold that once sat on the wall."""
    dx, dy = XS - cx, YS - cy
    c, s = math.cos(rotation), math.sin(rotation)
    x = (dx * c + dy * s) / rx
    y = (-dx * s + dy * c) / ry
    theta = np.arctan2(y, x)
    radius = np.ones_like(theta)
    for k, amplitude, phase in harmonics:
        radius += amplitude * np.cos(k * theta + phase)
    return np.sqrt(x * x + y * y) / radius


def paint_wall_dusk(rng):
    """A painted plywood bouldering panel at dusk: t-nut grid, panel seams, chalk ghosts."""
    warp = fbm(rng, HEIGHT, WIDTH, 3, octaves=3)
    grain = np.sin(XS * 0.03 + 10.0 * warp + 2.5 * fbm(rng, HEIGHT, WIDTH, 16, octaves=2)) * 0.5 + 0.5
    roller = value_noise(rng, HEIGHT, WIDTH, 420) - 0.5
    blotch = fbm(rng, HEIGHT, WIDTH, 6, octaves=4)
    paint = srgb_to_linear(hex_to_rgb("#55627A"))
    board = paint * (0.9 + 0.05 * grain + 0.08 * roller + 0.06 * blotch)[..., None]
    # Panel seams: a dark gap with a thin lit bevel on its lower/right side.
    sx = (XS + 150) % 540
    sy = (YS + 90) % 480
    gap = np.maximum(smoothstep(3.0, 0.5, np.abs(sx - 270)), smoothstep(3.0, 0.5, np.abs(sy - 240)))
    bevel = np.maximum(np.exp(-((sx - 274) / 1.5) ** 2), np.exp(-((sy - 244) / 1.5) ** 2))
    board = board * (1.0 - 0.7 * gap)[..., None] + (0.06 * bevel)[..., None]
    # Ghosts of holds taken down at the last reset, each centred on its t-nut: the paint that
    # the hold covered stays clean, chalk from fingers fans out below and beside it.
    spacing = 100.0
    chalk = np.clip(fbm(rng, HEIGHT, WIDTH, 7, octaves=5) * 0.9 - 0.2, 0, 1) * 0.1
    dust = value_noise(rng, HEIGHT, WIDTH, 200)
    speckle = fbm(rng, HEIGHT, WIDTH, 40, octaves=3)
    for _ in range(12):
        row_index = rng.integers(1, 11)
        cy = row_index * spacing + 20.0
        cx = rng.integers(1, 10) * spacing + 30.0 - (row_index % 2) * spacing / 2
        rx, ry = rng.uniform(34, 70), rng.uniform(26, 52)
        harmonics = [(k, rng.uniform(0, 0.14 / (k - 1)), rng.uniform(0, 6.3)) for k in (2, 3, 4, 5)]
        d = blob_mask(cx, cy, rx, ry, harmonics, rng.uniform(0, 3.1))
        outside = np.clip(d - 1.0, 0, None)
        smear = np.exp(-outside / 0.35) * (d > 0.97) * smoothstep(cy - ry * 1.5, cy + ry * 0.5, YS)
        smear = smear * np.clip(0.25 + 0.75 * dust + 0.3 * speckle, 0, 1)
        inside = smoothstep(1.0, 0.93, d)
        chalk = chalk * (1 - 0.6 * inside) + 0.13 * smear
    # T-nut grid on a staggered pattern.
    row = np.floor((YS + 30) / spacing)
    gx = (XS + 20 + (row % 2) * spacing / 2) % spacing - spacing / 2
    gy = (YS + 30) % spacing - spacing / 2
    r = np.sqrt(gx * gx + gy * gy)
    flange = smoothstep(10.0, 8.5, r) * smoothstep(4.5, 6.0, r)
    hole = smoothstep(5.5, 3.8, r)
    sheen = 0.5 + 0.9 * np.clip(-(gx + gy) / 12.0, -0.4, 1.0)
    metal = np.array([0.30, 0.29, 0.27], np.float32)
    board = board * (1 - flange[..., None]) + (metal * sheen[..., None]) * flange[..., None]
    board *= (1 - 0.93 * hole)[..., None]
    chalk = np.clip(chalk + 0.05 * np.exp(-((r - 12) / 6) ** 2) * dust, 0, 0.5)
    board = board * (1 - chalk[..., None]) + 0.6 * chalk[..., None]
    # Dusk: a warm shaft of low sun through a high window, cool ambient everywhere else.
    along = (U * 0.75 - V * 0.55)
    shaft = smoothstep(-0.05, 0.12, along) * smoothstep(0.55, 0.3, along)
    shaft *= smoothstep(0.95, 0.25, V) * (0.8 + 0.2 * fbm(rng, HEIGHT, WIDTH, 3, octaves=2))
    warm = srgb_to_linear(hex_to_rgb("#FFB073"))
    cool = srgb_to_linear(hex_to_rgb("#6F86B8"))
    light = warm * (1.5 * shaft)[..., None] + cool * (0.42 + 0.2 * smoothstep(1.0, 0.0, V))[..., None]
    image = board * light
    image = lower_third_shade(image, 0.7, 0.48)
    return vignette(image, 0.45)


def shade_relief(height, light=(-0.8, -0.35, 0.5)):
    """Lambert shading of a height field (pixels) for a light direction (x, y down, z out)."""
    gy, gx = np.gradient(height)
    nx, ny, nz = -gx, -gy, np.ones_like(gx)
    norm = np.sqrt(nx * nx + ny * ny + nz * nz)
    lx, ly, lz = np.array(light) / np.linalg.norm(light)
    return np.clip((nx * lx + ny * ly + nz * lz) / norm, 0, 1)


def paint_crag_sunset(rng):
    """A granite crag against a sunset sky, the foot of the cliff and the pines in shadow."""
    sky = gradient([(0.0, "#1B2650"), (0.2, "#3E3A74"), (0.34, "#A8557A"), (0.45, "#EE8A5A"),
                    (0.53, "#FFC27A")], V)
    sun = np.exp(-(((U - 0.24) / 0.07) ** 2 + ((V - 0.515) / 0.05) ** 2))
    glow = np.exp(-(((U - 0.24) / 0.35) ** 2 + ((V - 0.5) / 0.18) ** 2))
    sky += (sun * 1.6)[..., None] * srgb_to_linear(hex_to_rgb("#FFE6B0"))
    sky += (glow * 0.35)[..., None] * srgb_to_linear(hex_to_rgb("#FF9E6B"))
    clouds = np.clip(fbm(rng, HEIGHT, WIDTH, 3, octaves=6) * 1.2 - 0.1, 0, 1)
    streak_band = smoothstep(0.08, 0.22, V) * smoothstep(0.46, 0.32, V)
    streaks = clouds * streak_band
    cloud_lit = srgb_to_linear(hex_to_rgb("#FF9A85")) * (0.4 + 0.8 * glow[..., None])
    sky = sky * (1 - 0.5 * streaks[..., None]) + cloud_lit * (0.55 * streaks)[..., None]

    # Far ridge, hazed into the sky.
    far = 0.5 + 0.035 * fbm(rng, 1, WIDTH, 5, octaves=6)[0][None, :]
    far_mask = smoothstep(far - 0.0015, far + 0.0015, V)
    far_colour = gradient([(0.0, "#7A4E72"), (1.0, "#1E1628")], (V - 0.5) / 0.3)
    image = sky * (1 - far_mask[..., None]) + far_colour * far_mask[..., None]

    # The crag: a tall granite buttress on the right, its face shaded from a relief map.
    crest = 0.2 + 0.4 * smoothstep(0.92, 0.3, U) ** 1.6
    crest = crest + fbm(rng, 1, WIDTH, 14, octaves=6)[0][None, :] * 0.03
    rock_mask = smoothstep(crest - 0.0015, crest + 0.0015, V)
    relief = 60.0 * fbm(rng, HEIGHT, WIDTH, 5, octaves=7)
    stretched = resize_field(fbm(rng, HEIGHT // 4, WIDTH, 14, octaves=5), WIDTH, HEIGHT)
    cracks = gaussian_blur(np.exp(-(stretched / 0.04) ** 2), 1.2) * 0.8
    relief -= 18.0 * cracks
    lit = shade_relief(relief)
    speckle = rng.random((HEIGHT, WIDTH)).astype(np.float32)
    granite = srgb_to_linear(hex_to_rgb("#8A7670")) * (0.85 + 0.25 * (speckle > 0.8) - 0.3 * (speckle < 0.08))[..., None]
    sunward = smoothstep(0.45, 0.0, V - crest) * (0.5 + 0.5 * smoothstep(1.0, 0.35, U))
    warm = srgb_to_linear(hex_to_rgb("#FFA36B"))
    shadow = srgb_to_linear(hex_to_rgb("#3A3356"))
    face = granite * (warm * (lit * 1.3 * sunward)[..., None] + shadow * (0.55 + 0.3 * lit)[..., None])
    face *= (1.0 - 0.45 * cracks)[..., None]
    rim = np.exp(-((V - crest) / 0.006) ** 2) * smoothstep(0.2, 0.9, U)
    face += (rim * 0.6)[..., None] * srgb_to_linear(hex_to_rgb("#FFD39A"))
    image = image * (1 - rock_mask[..., None]) + face * rock_mask[..., None]

    # Pines along the bottom in silhouette.
    trees = np.zeros((HEIGHT, WIDTH), np.float32)
    for _ in range(38):
        x = rng.uniform(-0.05, 1.05)
        base = rng.uniform(0.7, 0.76)
        top = base - rng.uniform(0.07, 0.17)
        half_width = (base - top) * rng.uniform(0.16, 0.24) * HEIGHT / WIDTH
        t = np.clip((V - top) / (base - top), 0, 1)
        jag = 0.75 + 0.25 * np.abs(np.sin(t * 34 + x * 50))
        inside = (np.abs(U - x) < half_width * t * jag) & (V > top)
        trees = np.maximum(trees, inside.astype(np.float32))
    trees = np.maximum(trees, smoothstep(0.73, 0.75, V))
    trees = gaussian_blur(trees, 0.8)
    image = image * (1 - trees[..., None]) + srgb_to_linear(hex_to_rgb("#0D0A16")) * trees[..., None]
    image = lower_third_shade(image, 0.45, 0.55)
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
    dust = np.clip(dust * wisps * 0.55, 0, 0.6)
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
