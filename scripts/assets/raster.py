"""Numeric building blocks for Belay's artwork: noise, blur, signed distances, shading.

Everything works on float32 numpy arrays indexed [y, x] with y pointing down, and every
random choice comes from a numpy Generator seeded by the caller, so the output is the same
on every run.
"""

from __future__ import annotations

import numpy as np
from PIL import Image


def resize_field(field: np.ndarray, width: int, height: int, resample=Image.BICUBIC) -> np.ndarray:
    """Resamples a 2-D float field to width x height."""
    image = Image.fromarray(np.ascontiguousarray(field, dtype=np.float32), mode="F")
    return np.asarray(image.resize((width, height), resample), dtype=np.float32)


def value_noise(rng: np.random.Generator, height: int, width: int, cells: float) -> np.ndarray:
    """Smooth noise in [0, 1] with about `cells` lattice cells across the longer side."""
    aspect = height / width
    cells_x = max(2, int(round(cells if width >= height else cells / aspect)))
    cells_y = max(2, int(round(cells * aspect if width >= height else cells)))
    lattice = rng.random((cells_y + 4, cells_x + 4)).astype(np.float32)
    # Upsample a padded lattice, then crop the middle so no edge effects show.
    scale_x = width / cells_x
    scale_y = height / cells_y
    big = resize_field(lattice, int(round((cells_x + 4) * scale_x)), int(round((cells_y + 4) * scale_y)))
    oy = int(round(2 * scale_y))
    ox = int(round(2 * scale_x))
    return big[oy:oy + height, ox:ox + width]


def fbm(rng: np.random.Generator, height: int, width: int, cells: float, octaves: int = 5,
        persistence: float = 0.5, lacunarity: float = 2.0) -> np.ndarray:
    """Fractal sum of value noise, normalised to roughly [-1, 1]."""
    total = np.zeros((height, width), np.float32)
    amplitude = 1.0
    norm = 0.0
    for _ in range(octaves):
        total += amplitude * (value_noise(rng, height, width, cells) * 2.0 - 1.0)
        norm += amplitude
        amplitude *= persistence
        cells *= lacunarity
    return total / norm * 1.6


def gaussian_blur(field: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur through the FFT; the field is padded so nothing wraps around."""
    if sigma <= 0:
        return field.astype(np.float32)
    pad = int(3 * sigma) + 1
    padded = np.pad(field, pad, mode="edge")
    h, w = padded.shape
    fy = np.fft.fftfreq(h)[:, None]
    fx = np.fft.rfftfreq(w)[None, :]
    kernel = np.exp(-2.0 * (np.pi ** 2) * (sigma ** 2) * (fx ** 2 + fy ** 2))
    blurred = np.fft.irfft2(np.fft.rfft2(padded) * kernel, s=padded.shape)
    return blurred[pad:pad + field.shape[0], pad:pad + field.shape[1]].astype(np.float32)


def polygon_sdf(points: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Signed distance from each (xs, ys) to a closed polygon: negative inside."""
    pts = np.asarray(points, np.float32)
    a = pts
    b = np.roll(pts, -1, axis=0)
    best = np.full(xs.shape, np.inf, np.float32)
    inside = np.zeros(xs.shape, bool)
    for (ax, ay), (bx, by) in zip(a, b):
        ex, ey = bx - ax, by - ay
        length2 = ex * ex + ey * ey
        px = xs - ax
        py = ys - ay
        if length2 > 0:
            t = np.clip((px * ex + py * ey) / length2, 0.0, 1.0)
        else:
            t = 0.0
        dx = px - t * ex
        dy = py - t * ey
        np.minimum(best, dx * dx + dy * dy, out=best)
        # Crossing-number test for the sign.
        crosses = ((ay > ys) != (by > ys))
        if ey != 0:
            x_at = ax + (ys - ay) * ex / ey
            inside ^= crosses & (xs < x_at)
    distance = np.sqrt(best)
    return np.where(inside, -distance, distance).astype(np.float32)


def smoothstep(edge0, edge1, x):
    t = np.clip((x - edge0) / (edge1 - edge0), 0.0, 1.0)
    return t * t * (3.0 - 2.0 * t)


def hex_to_rgb(value: str) -> np.ndarray:
    value = value.lstrip("#")
    return np.array([int(value[i:i + 2], 16) / 255.0 for i in (0, 2, 4)], np.float32)


def srgb_to_linear(c):
    c = np.asarray(c, np.float32)
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4).astype(np.float32)


def linear_to_srgb(c):
    c = np.clip(c, 0.0, 1.0)
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * np.power(c, 1 / 2.4) - 0.055).astype(np.float32)


def shift(field: np.ndarray, dx: int, dy: int, fill: float = 0.0) -> np.ndarray:
    """field moved so that out[y, x] = field[y + dy, x + dx]."""
    out = np.full_like(field, fill)
    h, w = field.shape
    ys = slice(max(0, -dy), min(h, h - dy))
    yd = slice(max(0, dy), min(h, h + dy))
    xs = slice(max(0, -dx), min(w, w - dx))
    xd = slice(max(0, dx), min(w, w + dx))
    out[ys, xs] = field[yd, xd]
    return out


def box_downsample(image: np.ndarray, factor: int) -> np.ndarray:
    """Exact area-average downscale by an integer factor (works on HxW or HxWxC)."""
    h, w = image.shape[:2]
    shape = (h // factor, factor, w // factor, factor) + image.shape[2:]
    return image[: h // factor * factor, : w // factor * factor].reshape(shape).mean(axis=(1, 3))


def save_png(image: Image.Image, path) -> None:
    """Writes a PNG at maximum zlib effort; the bytes depend only on the pixels."""
    image.save(path, format="PNG", optimize=True)
