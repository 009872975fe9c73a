"""Draws Belay's hold and background artworks and writes their catalogues.

Usage: generate.py --out Assets [--only ID ...] [--check]

Every image comes from a fixed seed, so running this twice gives the same bytes. With
--check nothing is written: the artwork is drawn into memory and compared with the files
under --out, and the exit status says whether they are up to date.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import time
from pathlib import Path

import backgrounds
import holds

HOLD_TYPES = {"jug", "crimp", "sloper", "pinch", "volume"}
RARITIES = {"common", "uncommon", "rare", "epic"}
MILESTONE_IDS = {"jug-gold", "crimp-silver", "sloper-emerald", "pinch-obsidian", "volume-aurora"}


def png_bytes(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def validate_specs() -> None:
    ids = [spec.id for spec in holds.HOLDS]
    if len(ids) != len(set(ids)):
        raise SystemExit("error: duplicate hold ids in holds.HOLDS; give every hold its own id")
    for spec in holds.HOLDS:
        if spec.type not in HOLD_TYPES:
            raise SystemExit(f"error: hold {spec.id} has type {spec.type!r}; use one of {sorted(HOLD_TYPES)}")
        if spec.rarity not in RARITIES:
            raise SystemExit(f"error: hold {spec.id} has rarity {spec.rarity!r}; use one of {sorted(RARITIES)}")
    milestones = {spec.id for spec in holds.HOLDS if spec.milestone_only}
    if milestones != MILESTONE_IDS:
        raise SystemExit(f"error: milestone holds are {sorted(milestones)}, expected {sorted(MILESTONE_IDS)}")


def hold_catalog() -> dict:
    return {
        "version": 1,
        "holds": [
            {
                "id": spec.id,
                "name": spec.name,
                "type": spec.type,
                "color": spec.color.upper(),
                "rarity": spec.rarity,
                "artwork": f"{spec.id}.png",
                "milestone_only": spec.milestone_only,
                "names": holds.LOCALIZED_NAMES.get(spec.id, {}),
            }
            for spec in holds.HOLDS
        ],
    }


def catalog_bytes(catalog: dict) -> bytes:
    return (json.dumps(catalog, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


class Writer:
    """Writes files, or in check mode compares them with what is on disk."""

    def __init__(self, check: bool):
        self.check = check
        self.stale: list[Path] = []

    def put(self, path: Path, data: bytes) -> None:
        if self.check:
            if not path.exists() or path.read_bytes() != data:
                self.stale.append(path)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(path.suffix + ".tmp")
        temporary.write_bytes(data)
        temporary.replace(path)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Draw Belay's hold and background artwork.")
    parser.add_argument("--out", required=True, type=Path, help="the Assets directory")
    parser.add_argument("--only", nargs="*", default=None, help="draw only these hold/background ids")
    parser.add_argument("--check", action="store_true", help="compare with the files on disk, write nothing")
    args = parser.parse_args(argv)

    validate_specs()
    writer = Writer(args.check)
    wanted = set(args.only) if args.only else None
    holds_dir = args.out / "holds"
    backgrounds_dir = args.out / "backgrounds"

    for spec in holds.HOLDS:
        if wanted and spec.id not in wanted:
            continue
        started = time.monotonic()
        data = png_bytes(holds.render(spec))
        writer.put(holds_dir / f"{spec.id}.png", data)
        print(f"hold {spec.id:<18} {len(data) / 1024:7.1f} KB  {time.monotonic() - started:5.1f} s", file=sys.stderr)

    background_entries = []
    for spec in backgrounds.BACKGROUNDS:
        path = backgrounds_dir / f"{spec.id}.png"
        if wanted and spec.id not in wanted:
            if not path.exists():
                raise SystemExit(f"error: {path} is missing; run without --only to draw every artwork")
            from PIL import Image
            with Image.open(path) as existing:
                top, bottom = backgrounds.edge_colours(existing.convert("RGB"))
        else:
            started = time.monotonic()
            image = backgrounds.render(spec)
            top, bottom = backgrounds.edge_colours(image)
            data = png_bytes(image)
            writer.put(path, data)
            print(f"background {spec.id:<14} {len(data) / 1024:7.1f} KB  {time.monotonic() - started:5.1f} s",
                  file=sys.stderr)
        background_entries.append({"id": spec.id, "name": spec.name, "file": f"{spec.id}.png",
                                   "top_color": top, "bottom_color": bottom})

    writer.put(holds_dir / "catalog.json", catalog_bytes(hold_catalog()))
    writer.put(backgrounds_dir / "catalog.json",
               catalog_bytes({"version": 1, "backgrounds": background_entries}))

    if args.check:
        if writer.stale:
            for path in writer.stale:
                print(f"stale: {path} differs from what the generator draws", file=sys.stderr)
            print("Run scripts/generate-assets and commit the result.", file=sys.stderr)
            return 1
        print("Assets are up to date with the generator.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
