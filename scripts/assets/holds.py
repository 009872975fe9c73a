"""Climbing-hold artwork: each hold is a height field lit from the top left.

A hold type builds its outline (a signed distance field), its height field (in final
pixels, so slopes are true slopes) and a few material maps; `render` then shades it with a
Lambert + Blinn-Phong model, cast shadows marched along the light, cavity and contact
occlusion, a grippy bump texture and speckle, a countersunk bolt with its washer, optional
chalk, and downsamples the supersampled result for clean anti-aliased edges.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from PIL import Image

from raster import (box_downsample, fbm, gaussian_blur, hex_to_rgb, linear_to_srgb,
                    polygon_sdf, resize_field, shift, smoothstep, srgb_to_linear, value_noise)

SIZE = 512
SUPERSAMPLE = 3
N = SIZE * SUPERSAMPLE

LIGHT = np.array([-0.52, -0.62, 0.59], np.float32)
LIGHT /= np.linalg.norm(LIGHT)


@dataclass
class HoldSpec:
    id: str
    name: str
    type: str
    color: str
    rarity: str
    milestone_only: bool
    seed: int
    finish: str = "polyurethane"          # polyurethane, metal, glass, gem, fibreglass, wood, aurora, marble
    accent: str | None = None              # second colour for marbled / dual-texture holds
    variant: int = 0                       # shape variant within the type
    chalk: float = 0.6                     # how much chalk sits on the grip


@dataclass
class Geometry:
    sdf: np.ndarray                        # final-pixel units, negative inside
    height: np.ndarray                     # final-pixel units
    grip: np.ndarray                       # 0..1 where hands go (chalk lands there)
    bolt: tuple[float, float]              # bolt centre, final pixels
    screws: list[tuple[float, float]] = field(default_factory=list)
    facet: np.ndarray | None = None        # facet index for volumes (wood grain direction)
    seam: np.ndarray | None = None         # 0..1 facet seams for volumes
    interior: np.ndarray | None = None     # 0..1 inside an incut, where light hardly reaches


def _grid():
    coords = (np.arange(N, dtype=np.float32) + 0.5) / SUPERSAMPLE
    xs, ys = np.meshgrid(coords, coords)
    return xs, ys


XS, YS = _grid()
_SDF_COORDS = np.meshgrid((np.arange(SIZE, dtype=np.float32) + 0.5), (np.arange(SIZE, dtype=np.float32) + 0.5))


def outline_sdf(points: np.ndarray) -> np.ndarray:
    """SDF of a polygon, computed at final resolution and upsampled to the supersampled grid."""
    coarse = polygon_sdf(points, _SDF_COORDS[0], _SDF_COORDS[1])
    # Resample so sample centres line up: coarse pixel i covers fine pixels 3i..3i+2.
    return resize_field(coarse, N, N, Image.BILINEAR)


def blob_points(cx, cy, rx, ry, harmonics, rotation=0.0, count=220):
    """Closed outline r(θ) = 1 + Σ a·cos(kθ + φ), stretched to rx, ry and rotated."""
    theta = np.linspace(0, 2 * np.pi, count, endpoint=False)
    r = np.ones_like(theta)
    for k, amplitude, phase in harmonics:
        r += amplitude * np.cos(k * theta + phase)
    x = np.cos(theta) * r * rx
    y = np.sin(theta) * r * ry
    c, s = math.cos(rotation), math.sin(rotation)
    return np.stack([cx + x * c - y * s, cy + x * s + y * c], axis=1)


def superellipse_points(cx, cy, rx, ry, power, rotation=0.0, bend=0.0, taper=0.0, count=260):
    """Superellipse |x/rx|^p + |y/ry|^p = 1, optionally bent (y += bend·x²) and tapered."""
    theta = np.linspace(0, 2 * np.pi, count, endpoint=False)
    ct, st = np.cos(theta), np.sin(theta)
    x = np.sign(ct) * np.abs(ct) ** (2 / power) * rx
    y = np.sign(st) * np.abs(st) ** (2 / power) * ry
    x = x * (1 + taper * (y / ry))
    y = y + bend * (x / rx) ** 2 * ry
    c, s = math.cos(rotation), math.sin(rotation)
    return np.stack([cx + x * c - y * s, cy + x * s + y * c], axis=1)


def round_edge(depth, radius):
    """Quarter-circle profile: 0 at the outline, 1 once `radius` inside it."""
    t = np.clip(depth / radius, 0.0, 1.0)
    return np.sqrt(1.0 - (1.0 - t) ** 2)


def rotate_geometry(geo: Geometry, degrees: float) -> Geometry:
    """The same hold turned anticlockwise on the wall about the canvas centre."""
    def turn(field_values, fill):
        image = Image.fromarray(np.ascontiguousarray(field_values, np.float32), mode="F")
        return np.asarray(image.rotate(degrees, resample=Image.BILINEAR, fillcolor=fill), np.float32)

    angle = math.radians(degrees)
    c, s = math.cos(angle), math.sin(angle)
    centre = SIZE / 2

    def move(point):
        x, y = point[0] - centre, point[1] - centre
        return (centre + x * c + y * s, centre - x * s + y * c)

    return Geometry(turn(geo.sdf, 1000.0), turn(geo.height, 0.0), turn(geo.grip, 0.0), move(geo.bolt),
                    [move(p) for p in geo.screws],
                    interior=None if geo.interior is None else turn(geo.interior, 0.0))


# --------------------------------------------------------------------------- hold types


def jug_geometry(rng, variant):
    cx, cy = 256.0, 272.0
    if variant == 0:
        pts = blob_points(cx, cy, 200, 158, [(2, 0.06, 0.4), (3, 0.07, 1.9), (4, 0.025, 0.3)], rotation=-0.08)
    elif variant == 1:
        pts = blob_points(cx, cy + 6, 188, 170, [(2, 0.09, 2.0), (3, 0.05, 0.2), (5, 0.02, 1.0)], rotation=0.12)
    else:
        pts = blob_points(cx, cy, 205, 150, [(2, 0.05, 1.2), (3, 0.08, 2.8), (4, 0.03, 1.9)], rotation=0.04)
    sdf = outline_sdf(pts)
    depth = np.maximum(-sdf, 0.0)

    body = 108.0 * (1.0 - (1.0 - np.clip(depth / 150.0, 0, 1)) ** 2)
    body = gaussian_blur(body, 18 * SUPERSAMPLE) * round_edge(depth, 34.0)
    # Lean the mass towards the bottom: the handle's lip stands proud, the back sits low.
    rel_y = (YS - cy) / 160.0
    body *= 0.78 + 0.22 * np.clip(rel_y + 0.6, 0, 1.2)

    # The incut: a smile-shaped mouth in the upper half (inside the lip's ellipse, below the
    # back wall's ellipse) whose floor dives under the lip, darkest right behind the edge.
    px, py = cx + rng.uniform(-10, 10), cy - [40.0, 34.0, 44.0][variant % 3]
    ax, ay = [(150.0, 82.0), (138.0, 96.0), (158.0, 74.0)][variant % 3]
    ell = ((XS - px) / ax) ** 2 + ((YS - py) / ay) ** 2
    back = ((XS - px) / (ax * 1.08)) ** 2 + ((YS - (py - 0.62 * ay)) / (ay * 1.02)) ** 2
    mouth = np.clip(1.0 - ell, 0.0, 1.0) * smoothstep(0.9, 1.25, back)
    mouth = gaussian_blur(mouth, 2.0 * SUPERSAMPLE)
    towards_lip = np.clip((np.sqrt(back) - 1.0) / 0.6, 0, 1)
    pocket = 118.0 * smoothstep(0.0, 0.18, mouth) * (0.55 + 0.45 * towards_lip)
    # The lip: a rounded ridge along the lower rim of the mouth.
    rim_distance = (np.sqrt(ell) - 1.0) * ay
    lower = smoothstep(py - 10, py + 40, YS)
    lip = 34.0 * np.exp(-((rim_distance - 14.0) / 18.0) ** 2) * lower
    height = np.maximum(body - pocket + lip * round_edge(depth, 30.0), 4.0 * round_edge(depth, 8.0))
    height = gaussian_blur(height, 2.0 * SUPERSAMPLE) * round_edge(depth, 6.0)
    interior = (smoothstep(0.0, 0.3, mouth) * (0.45 + 0.55 * towards_lip)).astype(np.float32)

    grip = np.exp(-((rim_distance - 4.0) / 16.0) ** 2) * lower
    bolt = (cx + rng.uniform(-18, 18), cy + 88.0)
    screws = [(cx - 132.0, cy + 52.0 + rng.uniform(-10, 10))]
    geo = Geometry(sdf, height, grip.astype(np.float32), bolt, screws, interior=interior)
    if variant % 3 == 2:
        # Turned on the wall: a side-pull jug whose mouth opens up and to the left.
        geo = rotate_geometry(geo, 32.0)
    return geo


CRIMP_PROFILES = {
    # (v from the top edge to the bottom, height as a fraction of the peak): a ledge band that
    # rises to the edge (faces up, catches the light and the chalk), then the face below it.
    0: [(0.0, 0.0), (0.03, 0.22), (0.27, 0.9), (0.31, 1.0), (0.35, 0.9), (0.42, 0.72), (0.6, 0.66),
        (0.8, 0.55), (1.0, 0.3)],
    1: [(0.0, 0.0), (0.03, 0.22), (0.19, 0.88), (0.22, 1.0), (0.26, 0.88), (0.32, 0.66), (0.48, 0.5),
        (0.5, 0.48), (0.64, 0.8), (0.67, 0.86), (0.71, 0.74), (0.78, 0.6), (1.0, 0.3)],
    2: [(0.0, 0.0), (0.03, 0.25), (0.3, 0.92), (0.34, 1.0), (0.38, 0.9), (0.46, 0.7), (0.7, 0.6),
        (1.0, 0.28)],
}


def crimp_geometry(rng, variant):
    cx, cy = 256.0, 262.0
    v_index = variant % 3
    bend = [-0.16, 0.12, -0.06][v_index]
    rotation = [-0.06, 0.04, 0.02][v_index]
    rx, ry = [(222, 96), (214, 118), (226, 82)][v_index]
    pts = superellipse_points(cx, cy, rx, ry, 3.0, rotation=rotation, bend=bend, taper=0.0)
    # Squash the ends a little and roughen the lower outline: a poured hold, not a pill.
    theta = np.linspace(0, 2 * np.pi, len(pts), endpoint=False)
    wobble = 4.0 * np.sin(3 * theta + 0.7) + 3.0 * np.sin(5 * theta + 2.1)
    pts[:, 1] += wobble * (np.sin(theta) > 0)
    sdf = outline_sdf(pts)
    depth = np.maximum(-sdf, 0.0)

    # Local vertical coordinate: 0 at the top edge, 1 at the bottom, following the bend.
    c, s = math.cos(rotation), math.sin(rotation)
    lx = (XS - cx) * c + (YS - cy) * s
    ly = -(XS - cx) * s + (YS - cy) * c
    centre_line = bend * (lx / rx) ** 2 * ry
    v = np.clip((ly - centre_line + ry) / (2 * ry), 0.0, 1.0)

    peak = 74.0
    knots = CRIMP_PROFILES[v_index]
    profile = peak * np.interp(v, [k[0] for k in knots], [k[1] for k in knots]).astype(np.float32)
    # The edge fades a little towards the ends, where the rail turns into the wall.
    profile *= 0.8 + 0.2 * smoothstep(1.0, 0.55, np.abs(lx) / rx)
    height = gaussian_blur(profile * round_edge(depth, 16.0), 1.8 * SUPERSAMPLE) * round_edge(depth, 5.0)
    height = np.maximum(height, 0.0)

    edge_v = [0.31, 0.22, 0.34][v_index]
    grip = np.exp(-((v - edge_v + 0.05) / 0.08) ** 2)
    if v_index == 1:
        grip = np.maximum(grip, 0.8 * np.exp(-((v - 0.62) / 0.06) ** 2))
    interior = (np.exp(-((v - 0.02) / 0.04) ** 2) * 0.5 * round_edge(depth, 24.0)).astype(np.float32)
    bolt_v = [0.62, 0.84, 0.66][v_index]
    bolt = (cx + rng.uniform(-24, 24), cy - ry + bolt_v * 2 * ry + bend * 0.1 * ry)
    screws = [(cx - rx * 0.74, bolt[1] - 6), (cx + rx * 0.74, bolt[1] - 6)]
    return Geometry(sdf, height, grip.astype(np.float32), bolt, screws, interior=interior)


def sloper_geometry(rng, variant):
    cx, cy = 256.0, 260.0
    if variant == 0:
        pts = blob_points(cx, cy, 214, 190, [(2, 0.04, 0.9), (3, 0.035, 2.2)], rotation=0.2)
    else:
        pts = blob_points(cx, cy, 222, 176, [(2, 0.05, 2.4), (3, 0.03, 0.5), (5, 0.015, 1.0)], rotation=-0.3)
    sdf = outline_sdf(pts)
    depth = np.maximum(-sdf, 0.0)
    t = np.clip(depth / 185.0, 0, 1)
    height = 118.0 * (1.0 - (1.0 - t) ** 2.3)
    height = gaussian_blur(height, 26 * SUPERSAMPLE)
    # Gentle undulation, the way a sloper's dome is never a perfect sphere.
    height += 7.0 * gaussian_blur(fbm(rng, N, N, 4, octaves=3), 6 * SUPERSAMPLE)
    height = np.maximum(height, 0) * round_edge(depth, 44.0)
    grip = smoothstep(0.35, 0.9, t) * smoothstep(30, -80, YS - cy)
    bolt = (cx + rng.uniform(-20, 20), cy + 20 + rng.uniform(-10, 10))
    return Geometry(sdf, height.astype(np.float32), grip.astype(np.float32), bolt, [])


def pinch_geometry(rng, variant):
    cx, cy = 256.0, 262.0
    rotation = [0.16, -0.2, 0.08][variant % 3]
    pts = superellipse_points(cx, cy, 98, 224, 2.2, rotation=rotation, taper=-0.3, count=260)
    theta = np.linspace(0, 2 * np.pi, len(pts), endpoint=False)
    pts += (rng.normal(0, 1, 2) * 0).astype(np.float32)
    pts[:, 0] += 6.0 * np.sin(2 * theta + variant) * np.abs(np.cos(theta))
    sdf = outline_sdf(pts)
    depth = np.maximum(-sdf, 0.0)
    c, s = math.cos(rotation), math.sin(rotation)
    lx = (XS - cx) * c + (YS - cy) * s
    ly = -(XS - cx) * s + (YS - cy) * c
    # A fin: two flat-ish gripping faces meeting in a rounded ridge along the long axis.
    height = 1.55 * np.minimum(depth, 80.0)
    height = gaussian_blur(height, 4 * SUPERSAMPLE)
    height *= 0.8 + 0.2 * smoothstep(-230, 140, -ly)
    # Thumb catch on the left face, finger scoops on the right.
    height -= 16.0 * np.exp(-(((lx + 40) / 24) ** 2 + ((ly + 50) / 38) ** 2))
    for offset in (-70.0, 0.0, 70.0):
        height -= 9.0 * np.exp(-(((lx - 44) / 20) ** 2 + ((ly - offset) / 26) ** 2))
    if variant % 3 == 2:
        # Knapped glass: shallow conchoidal scallops all over.
        scallops = np.zeros_like(height)
        for _ in range(34):
            sx, sy = rng.uniform(-90, 90), rng.uniform(-210, 210)
            radius = rng.uniform(24, 56)
            dish = rng.uniform(7, 13) * np.clip(1.0 - ((lx - sx) ** 2 + (ly - sy) ** 2) / radius ** 2, 0, None)
            scallops = np.maximum(scallops, dish)
        height -= gaussian_blur(scallops, 0.8 * SUPERSAMPLE)
    height = np.maximum(height, 0) * round_edge(depth, 14.0)
    interior = (np.exp(-(((lx + 40) / 20) ** 2 + ((ly + 50) / 32) ** 2)) * 0.35).astype(np.float32)
    grip = np.exp(-((np.abs(lx) - 42) / 20) ** 2) * smoothstep(60, -140, ly)
    bolt = (cx - s * 120, cy + c * 120)
    return Geometry(sdf, height.astype(np.float32), grip.astype(np.float32), bolt,
                    [(cx + s * 170, cy - c * 170)], interior=interior)


def volume_geometry(rng, variant):
    if variant == 0:      # triangle with an off-centre apex
        pts = np.array([[40, 450], [472, 430], [230, 52]], np.float32)
        slopes = [0.95, 0.62, 0.8]
    elif variant == 1:    # a box: four bevelled sides around a flat top face
        pts = np.array([[56, 140], [446, 70], [482, 418], [74, 468]], np.float32)
        slopes = [0.9, 1.1, 0.75, 1.0]
    else:                 # a ridge: long pentagon with a hipped roof
        pts = np.array([[34, 330], [170, 86], [470, 120], [470, 400], [150, 470]], np.float32)
        slopes = [0.85, 0.6, 0.75, 0.7, 0.9]
    # Straight-skeleton roof: each facet is a plane rising from its own edge.
    planes = []
    centroid = pts.mean(axis=0)
    for i in range(len(pts)):
        a, b = pts[i], pts[(i + 1) % len(pts)]
        edge = b - a
        normal = np.array([-edge[1], edge[0]], np.float32)
        normal /= np.linalg.norm(normal)
        if np.dot(centroid - a, normal) < 0:
            normal = -normal
        planes.append(slopes[i] * ((XS - a[0]) * normal[0] + (YS - a[1]) * normal[1]))
    stack = np.stack(planes)
    facet = np.argmin(stack, axis=0)
    sorted_planes = np.sort(stack, axis=0)
    hard = sorted_planes[0]
    # Soft minimum rounds the ridges into narrow bevels.
    k = 3.0
    soft = -k * np.log(np.sum(np.exp(-(stack - hard[None]) / k), axis=0)) + hard
    sdf = outline_sdf(pts)
    depth = np.maximum(-sdf, 0.0)
    cap = {1: 88.0}.get(variant, 170.0)
    top = np.maximum(soft, 0.0)
    # Soft-clip at the cap so the flat top meets the sides in a narrow rounded bevel.
    top = cap - k * np.log1p(np.exp(-(top - cap) / k)) if variant == 1 else np.minimum(top, cap)
    height = np.maximum(top, 0.0) * round_edge(depth, 4.0)
    seam = np.exp(-((sorted_planes[1] - sorted_planes[0]) / 1.2) ** 2) * (depth > 3)
    if variant == 1:
        # The top face is one more facet; the side seams stop at it and a seam rings it.
        facet = np.where(hard >= cap, len(pts), facet)
        seam = seam * (hard < cap) + 0.8 * np.exp(-((hard - cap) / 1.2) ** 2)
    grip = np.zeros_like(height)
    bolt_candidates = {0: (235.0, 300.0), 1: (262.0, 272.0), 2: (300.0, 270.0)}
    bolt = bolt_candidates[variant % 3]
    screws = {0: [(150.0, 380.0), (350.0, 370.0)], 1: [(190, 210), (340, 200), (345, 345), (190, 355)],
              2: [(130, 320), (390, 200), (390, 340)]}[variant % 3]
    return Geometry(sdf, height.astype(np.float32), grip, bolt, screws, facet=facet, seam=seam.astype(np.float32))


BUILDERS = {"jug": jug_geometry, "crimp": crimp_geometry, "sloper": sloper_geometry,
            "pinch": pinch_geometry, "volume": volume_geometry}


# --------------------------------------------------------------------------- hardware


def add_bolt(height, bolt, material_metal, scale=1.0):
    """Countersinks the surface around the bolt and seats a washer and a socket-cap bolt."""
    bx, by = bolt
    r = np.sqrt((XS - bx) ** 2 + (YS - by) ** 2)
    yi = int(by * SUPERSAMPLE)
    xi = int(bx * SUPERSAMPLE)
    local = float(height[yi, xi])
    floor = local - 14.0 * scale
    washer_r, head_r = 17.0 * scale, 10.5 * scale
    cone = floor + (r - washer_r) * 2.2
    carved = np.minimum(height, cone)
    inside_washer = r < washer_r + 0.5
    washer = floor + 2.5 * scale * round_edge(washer_r - r, 2.0 * scale)
    head = floor + 2.5 * scale + 8.0 * scale * round_edge(head_r - r, 2.2 * scale)
    # Hex socket in the head.
    angle = np.arctan2(YS - by, XS - bx)
    hex_r = 4.8 * scale / np.cos(((angle + np.pi / 6) % (np.pi / 3)) - np.pi / 6)
    socket = np.clip((hex_r - r) * 2.0, 0, 1) * 6.0 * scale
    hardware = np.where(r < head_r, head - socket, washer)
    out = np.where(inside_washer, hardware, carved)
    metal = np.where(inside_washer, 1.0, material_metal)
    return out.astype(np.float32), metal.astype(np.float32), r


def add_screw_holes(height, screws):
    for sx, sy in screws:
        r = np.sqrt((XS - sx) ** 2 + (YS - sy) ** 2)
        near = r < 14
        if not near.any():
            continue
        height = height - 7.0 * smoothstep(4.6, 2.8, r) - 1.2 * smoothstep(7.0, 4.0, r)
    return height


# --------------------------------------------------------------------------- shading


def environment(rx, ry, rz):
    """A studio: soft box up-left, dim walls, dark floor. Returns linear radiance."""
    up = -ry
    sky = 0.10 + 0.55 * smoothstep(-0.2, 0.9, up)
    box_dir = np.array([-0.45, -0.75, 0.48], np.float32)
    box_dir /= np.linalg.norm(box_dir)
    box = smoothstep(0.82, 0.96, rx * box_dir[0] + ry * box_dir[1] + rz * box_dir[2]) * 2.2
    rim = smoothstep(0.85, 0.98, rx * 0.75 + ry * 0.1 + rz * 0.65) * 0.45
    return sky, box + rim


def render(spec: HoldSpec) -> Image.Image:
    rng = np.random.default_rng(spec.seed)
    geo = BUILDERS[spec.type](rng, spec.variant)
    depth = np.maximum(-geo.sdf, 0.0)

    base_metal = {"metal": 1.0}.get(spec.finish, 0.0)
    metal = np.full((N, N), base_metal, np.float32)
    height = add_screw_holes(geo.height, geo.screws)
    height, metal, bolt_r = add_bolt(height, geo.bolt, metal, scale=1.25 if spec.type == "volume" else 1.0)
    is_hardware = bolt_r < (17.0 * (1.25 if spec.type == "volume" else 1.0) + 0.5)

    # Grippy surface: fine sand-like bump, stronger on polyurethane, none on the bolt.
    grain = value_noise(rng, N, N, SIZE / 1.4) - 0.5
    grain2 = value_noise(rng, N, N, SIZE / 3.5) - 0.5
    bump_strength = {"polyurethane": 0.4, "marble": 0.4, "gem": 0.25, "glass": 0.06, "metal": 0.18,
                     "fibreglass": 0.12, "aurora": 0.1, "wood": 0.2}[spec.finish]
    bumpy = height + bump_strength * (grain * 1.0 + grain2 * 0.45) * (~is_hardware)

    gy, gx = np.gradient(bumpy * SUPERSAMPLE)
    nx, ny, nz = -gx, -gy, np.ones_like(gx)
    norm = np.sqrt(nx * nx + ny * ny + nz * nz)
    nx, ny, nz = nx / norm, ny / norm, nz / norm

    # Albedo.
    base = srgb_to_linear(hex_to_rgb(spec.color))
    albedo = np.broadcast_to(base, (N, N, 3)).copy()
    if spec.finish == "marble" and spec.accent:
        # Two resins poured together: broad swirls with soft fronts and pale veins between them.
        accent = srgb_to_linear(hex_to_rgb(spec.accent))
        warp = fbm(rng, N, N, 2.5, octaves=5)
        swirl = np.sin((XS * 0.011 - YS * 0.006) * 2.0 + 4.5 * warp)
        mix = smoothstep(-0.55, 0.55, swirl)[..., None]
        albedo = albedo * (1 - mix) + accent * mix
        vein = np.exp(-(swirl / 0.06) ** 2) * (0.5 + 0.5 * fbm(rng, N, N, 9, octaves=3))
        albedo = albedo * (1 - 0.45 * vein[..., None]) + 0.7 * 0.45 * vein[..., None]
    if spec.finish == "aurora":
        stops = [hex_to_rgb(c) for c in ("#3DF5C8", "#2FA8FF", "#7B4DFF", "#FF4FC8")]
        t = np.clip((XS * 0.6 + (SIZE - YS) * 0.4 - 70) / (SIZE - 140) + 0.12 * fbm(rng, N, N, 2, octaves=3), 0, 0.999) * 3
        idx = np.floor(t).astype(int)
        frac = (t - idx)[..., None]
        palette = srgb_to_linear(np.stack(stops))
        albedo = palette[idx] * (1 - frac) + palette[np.minimum(idx + 1, 3)] * frac
    if spec.finish == "wood" and geo.facet is not None:
        grain_field = np.zeros((N, N), np.float32)
        warp = fbm(rng, N, N, 3, octaves=3)
        for f, angle in enumerate([0.3, 1.7, 0.9, 2.4, 1.2]):
            u = XS * math.cos(angle) + YS * math.sin(angle)
            g = np.sin(u * 0.21 + 7.0 * warp + f * 2.0) * 0.5 + 0.5
            g = g ** 3 + 0.25 * (value_noise(rng, N, N, 90) - 0.5)
            grain_field = np.where(geo.facet == f, g, grain_field)
        dark = srgb_to_linear(hex_to_rgb("#A87A4A"))
        albedo = albedo * (1 - 0.45 * grain_field[..., None]) + dark * 0.45 * grain_field[..., None]
    speck = value_noise(rng, N, N, SIZE / 1.2)
    flecks = (speck > 0.86).astype(np.float32) * 0.12 - (speck < 0.12).astype(np.float32) * 0.12
    mottle = (0.02 if spec.finish == "glass" else 0.06) * fbm(rng, N, N, 12, octaves=3)
    albedo *= (1.0 + flecks * (spec.finish in ("polyurethane", "marble", "gem")) + mottle)[..., None]

    # Chalk on the grip.
    chalk_noise = 0.6 * fbm(rng, N, N, 14, octaves=3) + 0.4 * (value_noise(rng, N, N, SIZE / 2.0) * 2 - 1)
    chalk = np.clip(geo.grip * (0.45 + 0.55 * chalk_noise) * spec.chalk, 0, 0.6)
    chalk *= (~is_hardware)
    chalk_colour = np.array([0.82, 0.82, 0.80], np.float32)
    albedo = albedo * (1 - chalk[..., None]) + chalk_colour * chalk[..., None]

    hardware_albedo = np.array([0.62, 0.62, 0.64], np.float32)
    albedo = np.where(is_hardware[..., None], hardware_albedo, albedo)

    # Lighting.
    lx, ly, lz = LIGHT
    ndotl = nx * lx + ny * ly + nz * lz
    hx, hy, hz = lx, ly, lz + 1.0
    hn = math.sqrt(hx * hx + hy * hy + hz * hz)
    ndoth = np.clip((nx * hx + ny * hy + nz * hz) / hn, 0, 1)

    # Cast shadow marched towards the light.
    scaled = height * SUPERSAMPLE
    dir_xy = np.array([lx, ly]) / math.hypot(lx, ly)
    tan_elevation = lz / math.hypot(lx, ly)
    occlusion = np.zeros((N, N), np.float32)
    for step in range(3, 100 * SUPERSAMPLE // 2, 4):
        dx = int(round(dir_xy[0] * step))
        dy = int(round(dir_xy[1] * step))
        ahead = shift(scaled, dx, dy)
        occlusion = np.maximum(occlusion, ahead - scaled - step * tan_elevation)
    lit = 1.0 - smoothstep(0.0, 6.0 * SUPERSAMPLE, occlusion)
    lit = gaussian_blur(lit, 1.5 * SUPERSAMPLE)

    # Cavity and contact occlusion.
    cavity = np.zeros((N, N), np.float32)
    for sigma, weight in ((4, 0.5), (14, 0.35), (40, 0.25)):
        blurred = gaussian_blur(height, sigma * SUPERSAMPLE)
        cavity += weight * np.clip(blurred - height, 0, None) / sigma
    ao = np.clip(1.0 - 0.9 * cavity, 0.25, 1.0)
    contact = 0.55 + 0.45 * smoothstep(0.0, 26.0, height)
    ao = ao * contact
    if geo.interior is not None:
        ao = ao * (1.0 - 0.85 * geo.interior)
        lit = lit * (1.0 - 0.92 * geo.interior)

    wrap = 0.18
    diffuse = np.clip((ndotl + wrap) / (1 + wrap), 0, 1) * lit
    sky = 0.5 + 0.5 * (-ny * 0.6 + nz * 0.4)
    ambient = 0.16 * sky * ao

    finish = spec.finish
    spec_params = {
        "polyurethane": (0.16, 18.0, 0.0),
        "marble": (0.16, 18.0, 0.0),
        "gem": (0.5, 90.0, 0.35),
        "glass": (0.9, 140.0, 0.55),
        "metal": (1.0, 60.0, 0.9),
        "fibreglass": (0.45, 70.0, 0.18),
        "aurora": (0.6, 80.0, 0.28),
        "wood": (0.05, 10.0, 0.0),
    }[finish]
    ks, shininess, env_strength = spec_params
    ks_map = np.full((N, N), ks, np.float32) * (1 - 0.8 * chalk)
    shin_map = np.full((N, N), shininess, np.float32)
    env_map = np.full((N, N), env_strength, np.float32)
    ks_map = np.where(is_hardware, 0.9, ks_map)
    shin_map = np.where(is_hardware, 45.0, shin_map)
    env_map = np.where(is_hardware, 0.7, env_map)

    specular = ks_map * np.power(ndoth, shin_map) * lit * (shin_map + 8) / 40.0
    rx = 2 * nz * nx
    ry = 2 * nz * ny
    rz = 2 * nz * nz - 1
    env_sky, env_lights = environment(rx, ry, rz)
    # Black glass mirrors the lights and little of the dim room.
    env = (env_sky * (0.3 if finish == "glass" else 1.0) + env_lights) * ao
    fresnel = 0.04 + 0.96 * (1 - nz) ** 5

    colour = albedo * (diffuse * 0.95 * ao[...] ** 0.5)[..., None] + albedo * ambient[..., None]
    metal_tint = np.where(metal[..., None] > 0.5, albedo, 1.0)
    colour = colour * (1 - metal[..., None] * 0.75)
    colour += metal_tint * (specular[..., None] + (env * env_map)[..., None] * (0.35 + 0.65 * metal[..., None]))
    colour += (fresnel * 0.25 * (env_map > 0) * ao)[..., None] * 0.6
    if finish in ("gem", "aurora", "metal"):
        # Glitter: tiny flakes that catch the light.
        threshold = 0.96 if finish == "metal" else 0.93
        flakes = (value_noise(rng, N, N, SIZE / 1.0) > threshold).astype(np.float32)
        flakes = gaussian_blur(flakes, 0.8) * (value_noise(rng, N, N, 40) > 0.45)
        sparkle = flakes * np.clip(ndotl, 0, 1) * lit * (~is_hardware)
        colour += (sparkle * {"gem": 1.4, "glass": 0.6, "aurora": 1.0, "metal": 1.2}[finish])[..., None] * \
            (0.5 + 0.5 * albedo / max(float(albedo.max()), 1e-3))
    if finish == "gem":
        # Light scattered inside the resin glows where the hold is thin.
        thin = 1.0 - smoothstep(0, 60, height)
        colour += albedo * (0.35 * thin * (1 - np.clip(ndotl, 0, 1)))[..., None]
    if geo.seam is not None:
        colour *= (1 - 0.35 * geo.seam)[..., None]

    alpha = np.clip(0.5 - geo.sdf * SUPERSAMPLE, 0.0, 1.0)
    srgb = linear_to_srgb(colour)
    premultiplied = np.concatenate([srgb * alpha[..., None], alpha[..., None]], axis=2)
    small = box_downsample(premultiplied, SUPERSAMPLE)
    a = small[..., 3:4]
    rgb = np.where(a > 1e-6, small[..., :3] / np.maximum(a, 1e-6), 0.0)
    # Light dithering hides banding in the smooth gradients.
    dither = (rng.random((SIZE, SIZE, 1)) - 0.5) / 255.0
    rgb = np.clip(rgb + dither, 0, 1)
    out = np.concatenate([rgb, a], axis=2)
    pixels = np.round(out * 255).astype(np.uint8)
    pixels[..., :3][pixels[..., 3] == 0] = 0
    return Image.fromarray(pixels, "RGBA")


HOLDS = [
    # Milestones.
    HoldSpec("jug-gold", "Gold Jug", "jug", "#D4A017", "epic", True, 101, finish="metal", variant=1, chalk=0.35),
    HoldSpec("crimp-silver", "Silver Crimp", "crimp", "#C0C6CE", "epic", True, 102, finish="metal", variant=1, chalk=0.3),
    HoldSpec("sloper-emerald", "Emerald Sloper", "sloper", "#0F9D58", "rare", True, 103, finish="gem", variant=0, chalk=0.35),
    HoldSpec("pinch-obsidian", "Obsidian Pinch", "pinch", "#1B1B22", "epic", True, 104, finish="glass", variant=2, chalk=0.3),
    HoldSpec("volume-aurora", "Aurora Volume", "volume", "#7B4DFF", "epic", True, 105, finish="aurora", variant=1, chalk=0.0),
    # Regular holds.
    HoldSpec("jug-crimson", "Crimson Jug", "jug", "#C8102E", "common", False, 201, variant=0),
    HoldSpec("jug-azure", "Azure Jug", "jug", "#1E88E5", "common", False, 202, variant=2),
    HoldSpec("jug-sunflower", "Sunflower Jug", "jug", "#F6C026", "uncommon", False, 203, variant=1),
    HoldSpec("jug-nebula", "Nebula Jug", "jug", "#5B3FA8", "epic", False, 204, finish="marble", accent="#2EC4E6", variant=0),
    HoldSpec("crimp-tangerine", "Tangerine Crimp", "crimp", "#F57C00", "common", False, 211, variant=0),
    HoldSpec("crimp-violet", "Violet Crimp", "crimp", "#7E57C2", "common", False, 212, variant=2),
    HoldSpec("sloper-sand", "Sand Sloper", "sloper", "#D8C3A5", "common", False, 221, variant=0),
    HoldSpec("sloper-teal", "Teal Sloper", "sloper", "#00897B", "uncommon", False, 222, variant=1),
    HoldSpec("pinch-lime", "Lime Pinch", "pinch", "#8BC34A", "common", False, 231, variant=0),
    HoldSpec("pinch-coral", "Coral Pinch", "pinch", "#FF6F61", "uncommon", False, 232, variant=1),
    HoldSpec("volume-slate", "Slate Volume", "volume", "#5B6770", "uncommon", False, 241, finish="fibreglass", variant=0, chalk=0.0),
    HoldSpec("volume-magenta", "Magenta Volume", "volume", "#D81B79", "rare", False, 242, finish="fibreglass", variant=2, chalk=0.0),
    HoldSpec("volume-birch", "Birch Plywood Volume", "volume", "#E3C9A0", "rare", False, 243, finish="wood", variant=0, chalk=0.0),
]

# Each hold's name in the languages clubs set their stickers in (besides the English `name`),
# for the hold's line on stories and share cards; a language not listed falls back to `name`.
LOCALIZED_NAMES = {
    "jug-gold": {"ko": "골드 저그", "ja": "ゴールドガバ"},
    "crimp-silver": {"ko": "실버 크림프", "ja": "シルバーカチ"},
    "sloper-emerald": {"ko": "에메랄드 슬로퍼", "ja": "エメラルドスローパー"},
    "pinch-obsidian": {"ko": "옵시디언 핀치", "ja": "オブシディアンピンチ"},
    "volume-aurora": {"ko": "오로라 볼륨", "ja": "オーロラボリューム"},
    "jug-crimson": {"ko": "크림슨 저그", "ja": "クリムゾンガバ"},
    "jug-azure": {"ko": "애저 저그", "ja": "アズールガバ"},
    "jug-sunflower": {"ko": "해바라기 저그", "ja": "ひまわりガバ"},
    "jug-nebula": {"ko": "네뷸라 저그", "ja": "ネビュラガバ"},
    "crimp-tangerine": {"ko": "탠저린 크림프", "ja": "タンジェリンカチ"},
    "crimp-violet": {"ko": "바이올렛 크림프", "ja": "バイオレットカチ"},
    "sloper-sand": {"ko": "샌드 슬로퍼", "ja": "サンドスローパー"},
    "sloper-teal": {"ko": "틸 슬로퍼", "ja": "ティールスローパー"},
    "pinch-lime": {"ko": "라임 핀치", "ja": "ライムピンチ"},
    "pinch-coral": {"ko": "코랄 핀치", "ja": "コーラルピンチ"},
    "volume-slate": {"ko": "슬레이트 볼륨", "ja": "スレートボリューム"},
    "volume-magenta": {"ko": "마젠타 볼륨", "ja": "マゼンタボリューム"},
    "volume-birch": {"ko": "자작나무 합판 볼륨", "ja": "バーチ合板ボリューム"},
}
