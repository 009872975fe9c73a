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
        w = w * w * (3.0 - 2.0 * w)   # eased, so no Mach bands at the stops
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
    """A bouldering gym after hours, shot wide open: a set wall blurred by the shallow depth
    of field, pools of spotlight on it, dark crash pads at the bottom."""
    # Wall panels at different angles: each facet gets its own tone.
    facet_edges = [(-1.0, 0.38), (0.38, 0.7), (0.7, 2.0)]
    wall = np.zeros((HEIGHT, WIDTH), np.float32)
    tones = [0.16, 0.24, 0.12]
    kink = 0.04 * np.sin(V * 3.0)
    for (left, right), tone in zip(facet_edges, tones):
        inside = (U >= left + kink) & (U < right + kink)
        wall = np.where(inside, tone * (0.85 + 0.3 * V), wall)
    band = smoothstep(0.34, 0.36, V) * smoothstep(0.56, 0.54, V)          # an overhanging band
    wall = wall * (1 - 0.35 * band)
    base = srgb_to_linear(hex_to_rgb("#3A4660"))
    image = base * wall[..., None] * 2.0
    # Holds set on the wall: shaded blobs in climbing colours, with t-nuts between them.
    colours = ["#E53935", "#FDD835", "#43A047", "#1E88E5", "#8E24AA", "#FB8C00", "#EC407A", "#00ACC1",
               "#F5F5F5", "#212121"]
    # A few big volumes first, their facets lit unevenly.
    for _ in range(4):
        cx, cy = rng.uniform(0.1, 0.9) * WIDTH, rng.uniform(0.1, 0.65) * HEIGHT
        size = rng.uniform(90, 160)
        angle = rng.uniform(0, 2 * np.pi)
        corners = [(cx + size * math.cos(angle + k * 2.1), cy + size * math.sin(angle + k * 2.1)) for k in range(3)]
        tone = srgb_to_linear(hex_to_rgb(["#2B3A55", "#4A3A2A", "#3C3C44"][rng.integers(3)]))
        for k in range(3):
            (ax, ay), (bx, by) = corners[k], corners[(k + 1) % 3]
            # Facet k is the triangle (corner k, corner k+1, centre).
            def side(px, py, qx, qy):
                return (qx - px) * (YS - py) - (qy - py) * (XS - px)
            s1, s2, s3 = side(ax, ay, bx, by), side(bx, by, cx, cy), side(cx, cy, ax, ay)
            inside = ((s1 >= 0) & (s2 >= 0) & (s3 >= 0)) | ((s1 <= 0) & (s2 <= 0) & (s3 <= 0))
            shade = 0.6 + 0.5 * math.cos(angle + k * 2.1 + 1.05 - 3.9)
            image = np.where(inside[..., None], tone * shade * 1.6, image)
    for _ in range(80):
        cx, cy = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT * 0.8)
        rx = rng.uniform(8, 34)
        ry = rx * rng.uniform(0.5, 1.0)
        x0, x1 = int(max(0, cx - 2 * rx)), int(min(WIDTH, cx + 2 * rx))
        y0, y1 = int(max(0, cy - 2 * rx)), int(min(HEIGHT, cy + 2 * rx))
        if x1 <= x0 or y1 <= y0:
            continue
        harmonics = [(2, rng.uniform(0, 0.2), rng.uniform(0, 6.3)), (3, rng.uniform(0, 0.12), rng.uniform(0, 6.3))]
        d = blob_mask(cx, cy, rx, ry, harmonics, rng.uniform(0, 3.1))[y0:y1, x0:x1]
        body = smoothstep(1.0, 0.9, d)
        light = 1.0 - 0.5 * np.clip(((XS[y0:y1, x0:x1] - cx) + (YS[y0:y1, x0:x1] - cy)) / (rx + ry), -1, 1)
        colour = srgb_to_linear(hex_to_rgb(colours[rng.integers(len(colours))]))
        region = image[y0:y1, x0:x1]
        image[y0:y1, x0:x1] = region * (1 - body[..., None]) + colour * (0.22 * light * body)[..., None]
    # The lens: everything on the wall is soft.
    image = np.stack([gaussian_blur(image[..., c], 10.0) for c in range(3)], axis=2)
    # Pools of light from the ceiling spots, and a little haze in their beams.
    lights = np.full((HEIGHT, WIDTH), 0.22, np.float32)[..., None] * srgb_to_linear(hex_to_rgb("#7A8CC8"))
    for cx, cy, sx, sy, strength, colour in ((0.22, 0.3, 0.22, 0.3, 2.4, "#FFD9A0"),
                                             (0.63, 0.38, 0.2, 0.32, 2.0, "#BFD4FF"),
                                             (0.95, 0.25, 0.14, 0.25, 1.6, "#FFD9A0")):
        pool = np.exp(-(((U - cx) / sx) ** 2 + ((V - cy) / sy) ** 2))
        lights = lights + (pool * strength)[..., None] * srgb_to_linear(hex_to_rgb(colour))
    image = image * lights
    for cx, colour in ((0.22, "#FFD9A0"), (0.63, "#BFD4FF"), (0.95, "#FFD9A0")):
        beam = np.exp(-((U - cx) / (0.02 + 0.12 * V)) ** 2) * smoothstep(0.0, 0.05, V) * smoothstep(0.8, 0.2, V)
        image += (beam * 0.05)[..., None] * srgb_to_linear(hex_to_rgb(colour))
        lamp = np.exp(-(((U - cx) / 0.025) ** 2 + (V / 0.015) ** 2))
        image += (lamp * 3.0)[..., None] * srgb_to_linear(hex_to_rgb(colour))
    # Crash pads: a dark band with soft seams, catching a little light on their top edge.
    pad = smoothstep(0.79, 0.8, V)
    seams = 1.0 - 0.3 * np.exp(-(((XS % 270) - 135) / 3.0) ** 2)
    pad_colour = srgb_to_linear(hex_to_rgb("#0C1530")) * seams[..., None]
    lip = np.exp(-((V - 0.802) / 0.004) ** 2) * 0.025
    image = image * (1 - pad[..., None]) + pad_colour * pad[..., None] + lip[..., None]
    image = lower_third_shade(image, 0.45, 0.6)
    return vignette(image, 0.45)


def paint_alpine_ridges(rng):
    """Mountain ridges layered into blue haze under a starry dusk sky, alpenglow behind them."""
    sky = gradient([(0.0, "#0A0F24"), (0.24, "#18224C"), (0.4, "#32427A"), (0.47, "#6A6A9C"),
                    (0.53, "#E0A08A")], V)
    # Stars: many faint, a few bright, fading out towards the glow.
    magnitude = rng.random((HEIGHT, WIDTH)).astype(np.float32)
    stars = np.where(magnitude > 0.9992, (magnitude - 0.9992) / 0.0008, 0.0).astype(np.float32)
    stars = stars ** 3 * 2.5 + (magnitude > 0.9992) * 0.25
    stars = gaussian_blur(stars, 0.6) * 4.0 * smoothstep(0.42, 0.05, V)
    milky = np.clip(fbm(np.random.default_rng(9041), HEIGHT, WIDTH, 6, octaves=5) * 0.5 + 0.5, 0, 1)
    band = np.exp(-((U * 0.6 + V - 0.45) / 0.12) ** 2) * smoothstep(0.45, 0.1, V)
    image = sky + stars[..., None] + (band * milky * 0.03)[..., None] * srgb_to_linear(hex_to_rgb("#B8C4FF"))
    layers = [(0.52, "#5A5A8C", 0.05, 5), (0.6, "#3A4272", 0.06, 6), (0.69, "#262C54", 0.07, 7),
              (0.79, "#161B38", 0.06, 8), (0.9, "#0B0E1F", 0.05, 9)]
    for index, (base_height, colour, amplitude, detail) in enumerate(layers):
        profile = base_height + amplitude * fbm(rng, 1, WIDTH, detail * 0.5, octaves=6)[0]
        # Sharpen peaks.
        profile = base_height - np.abs(profile - base_height) * 1.6 + amplitude * 0.4
        mask = smoothstep(profile - 0.0012, profile + 0.0012, V)
        fog = smoothstep(profile, profile + 0.12, V)
        layer = srgb_to_linear(hex_to_rgb(colour)) * (1.0 - 0.3 * fog)[..., None]
        if index < 2:
            # Alpenglow: the upper slopes of the far ridges still catch the last light.
            glow = np.clip(1.0 - (V - profile) / 0.05, 0, 1) ** 2 * (0.22 - 0.1 * index)
            layer = layer * (1 - glow[..., None]) + glow[..., None] * srgb_to_linear(hex_to_rgb("#C98A8C"))
        image = image * (1 - mask[..., None]) + layer * mask[..., None]
    image = lower_third_shade(image, 0.35, 0.7)
    return vignette(image, 0.25)


def paint_chalk_dust(rng):
    """A clap of chalk drifting through a lamp's beam over a charcoal slab: soft filaments of
    dust, lit warm from the top left, fading into the dark at the bottom."""
    base = gradient([(0.0, "#2A2C33"), (0.55, "#1A1C21"), (1.0, "#0C0D10")], V)
    slab = fbm(rng, HEIGHT, WIDTH, 8, octaves=6)
    image = base * (0.85 + 0.2 * slab[..., None])
    # Filaments: ridged noise (1 - |n|) gives thin, smoky strands; broad noise groups them.
    strands = np.zeros((HEIGHT, WIDTH), np.float32)
    for cells, weight in ((3.0, 0.6), (6.0, 0.4)):
        strands += weight * (1.0 - np.abs(fbm(rng, HEIGHT, WIDTH, cells, octaves=5))) ** 4
    clouds = np.zeros((HEIGHT, WIDTH), np.float32)
    for _ in range(4):
        cx, cy = rng.uniform(0.2, 0.8), rng.uniform(0.15, 0.45)
        sx, sy = rng.uniform(0.2, 0.35), rng.uniform(0.12, 0.2)
        clouds += np.exp(-(((U - cx) / sx) ** 2 + ((V - cy) / sy) ** 2)) * rng.uniform(0.5, 0.9)
    haze = gaussian_blur(clouds * (0.5 + 0.5 * fbm(rng, HEIGHT, WIDTH, 4, octaves=4)), 6.0)
    dust = np.clip(0.22 * haze + 0.5 * strands * clouds, 0, 0.7) * smoothstep(0.85, 0.45, V)
    draw = rng.random((HEIGHT, WIDTH)).astype(np.float32)
    fine = np.where(draw > 0.9988, ((draw - 0.9988) / 0.0012) ** 2, 0.0).astype(np.float32)
    coarse = np.where(draw < 0.00025, 1.0, 0.0).astype(np.float32)
    particles = gaussian_blur(fine, 0.7) * 2.5 + gaussian_blur(coarse, 1.8) * 6.0
    particles *= smoothstep(0.05, 0.5, clouds)
    lamp = np.exp(-(((U - 0.3) / 0.55) ** 2 + ((V - 0.18) / 0.45) ** 2))
    warm = srgb_to_linear(hex_to_rgb("#FFE2C4"))
    image = image * (1 - 0.6 * dust[..., None]) + warm * ((0.75 * dust + particles) * (0.25 + 0.9 * lamp))[..., None]
    image = lower_third_shade(image, 0.55, 0.55)
    return vignette(image, 0.4)


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
