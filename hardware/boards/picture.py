"""A PNG picture of a routed board, top view: front copper red, back copper blue, pads and
vias gold, drills black, the outline and the front silkscreen white on green."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

SCALE = 12  # pixels per millimetre
MARGIN = 20


def render(geometry: dict, width: float, height: float, path: Path) -> None:
    w, h = int(width * SCALE) + 2 * MARGIN, int(height * SCALE) + 2 * MARGIN
    img = Image.new("RGB", (w, h), (40, 40, 40))
    d = ImageDraw.Draw(img, "RGBA")

    def p(xy: list[float]) -> tuple[float, float]:
        return (MARGIN + xy[0] * SCALE, MARGIN + xy[1] * SCALE)

    edges = geometry["edges"]
    d.rectangle([p([0, 0]), p([width, height])], fill=(20, 90, 50))
    for t in geometry["tracks"]:
        if t["layer"] == "B":
            d.line([p(t["a"]), p(t["b"])], fill=(70, 110, 230, 200), width=max(1, int(t["w"] * SCALE)))
    for t in geometry["tracks"]:
        if t["layer"] == "F":
            d.line([p(t["a"]), p(t["b"])], fill=(225, 70, 60, 220), width=max(1, int(t["w"] * SCALE)))
    for pad in geometry["pads"]:
        colour = (212, 175, 55) if pad["layer"] != "B" else (150, 130, 60)
        if len(pad["pts"]) > 2:
            d.polygon([p(q) for q in pad["pts"]], fill=colour)
        if pad["drill"]:
            r = pad["drill"] * SCALE / 2
            cx, cy = p(pad["at"])
            d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(10, 10, 10))
    for v in geometry["vias"]:
        cx, cy = p(v["at"])
        r = v["d"] * SCALE / 2
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(212, 175, 55))
        d.ellipse([cx - r / 2, cy - r / 2, cx + r / 2, cy + r / 2], fill=(10, 10, 10))
    for a, b in geometry["silk"]:
        d.line([p(a), p(b)], fill=(240, 240, 240), width=2)
    for a, b in edges:
        d.line([p(a), p(b)], fill=(255, 230, 0), width=2)
    for t in geometry["texts"]:
        size = max(10, int(t["size"] * SCALE))
        try:
            font = ImageFont.truetype("DejaVuSans.ttf", size)
        except OSError:
            font = ImageFont.load_default()
        angle = round(t.get("angle", 0)) % 360
        if not angle:
            d.text(p(t["at"]), t["text"], fill=(255, 255, 255), font=font, anchor="mm")
            continue
        box = d.textbbox((0, 0), t["text"], font=font)
        label = Image.new("RGBA", (box[2] - box[0] + 4, box[3] - box[1] + 4), (0, 0, 0, 0))
        ImageDraw.Draw(label).text((2 - box[0], 2 - box[1]), t["text"], fill=(255, 255, 255), font=font)
        label = label.rotate(angle, expand=True)
        cx, cy = p(t["at"])
        img.paste(label, (int(cx - label.width / 2), int(cy - label.height / 2)), label)
    img.save(path, optimize=True)
