"""Small drawings used on the board: buildings, symbols, animals and figures.

Each drawing is centred on (0, 0) in tile units (a tile is 100 wide) and is placed with
``<use href="#…" x y>``. Figures leave ``fill`` unset so that the ``<use>`` gives the player colour.
"""

from __future__ import annotations

from ..core.svgtext import wrap

INK = "#3b2d1c"

ICONS: dict[str, str] = {
    "cloister": (
        f'<g stroke="{INK}" stroke-width="1.4">'
        '<rect x="-11" y="-5" width="22" height="15" fill="#f1e6c8"/>'
        '<path d="M-13.5,-5L0,-15L13.5,-5Z" fill="#b4442e"/>'
        '<rect x="-3" y="3" width="6" height="7" fill="#5b4630"/>'
        '<path d="M0,-22V-15M-3,-19H3" fill="none"/></g>'),
    "cathedral": (
        f'<g stroke="{INK}" stroke-width="1.3">'
        '<rect x="-10" y="-4" width="20" height="14" fill="#efe6d0"/>'
        '<path d="M-11,-4L0,-11L11,-4Z" fill="#8a3b2a"/>'
        '<rect x="-15" y="-10" width="6" height="20" fill="#efe6d0"/>'
        '<rect x="9" y="-10" width="6" height="20" fill="#efe6d0"/>'
        '<path d="M-15.5,-10L-12,-17L-8.5,-10ZM8.5,-10L12,-17L15.5,-10Z" fill="#8a3b2a"/>'
        '<path d="M-2.5,10V5A2.5,2.5 0 0 1 2.5,5V10Z" fill="#5b4630"/></g>'),
    "pennants": (
        '<path d="M-5,-6H5V0C5,4.5 0,7 0,7C0,7 -5,4.5 -5,0Z" fill="#2456a6" '
        'stroke="#f5f0e0" stroke-width="1.3"/>'
        '<path d="M0,-4V4M-3,-1H3" stroke="#f5f0e0" stroke-width="1.2"/>'),
    "inn": (
        f'<g stroke="{INK}" stroke-width="1.1">'
        '<ellipse cx="5" cy="5" rx="7" ry="3.2" fill="#5ba8e8" stroke="#2a6aaa"/>'
        '<rect x="-7" y="-4" width="10" height="8" fill="#f2e6c8"/>'
        '<path d="M-8.5,-4L-2,-10L4.5,-4Z" fill="#b4442e"/></g>'),
    "house": (
        f'<g stroke="{INK}" stroke-width="1.2">'
        '<rect x="-6" y="-3" width="12" height="9" fill="#f2e6c8"/>'
        '<path d="M-8,-3L0,-10L8,-3Z" fill="#b4442e"/></g>'),
    "fish": (
        '<path d="M-5,0C-3,-3 2,-3 4,0C2,3 -3,3 -5,0ZM3.5,0L7,-2.6V2.6Z" fill="#f08a24" '
        'stroke="#7a3d0a" stroke-width="0.7"/>'),
    "gold": (
        '<path d="M-5.5,2L-3,-3L1,-4.5L5.5,-1L4,3.5L-1,4.5Z" fill="#f2c21b" stroke="#8a6a00" '
        'stroke-width="1.1"/><path d="M-2,-1.5L1,-2.5" stroke="#fff6c2" stroke-width="1.2"/>'),
    "mushrooms": (
        '<path d="M-1.2,1V6H1.2V1Z" fill="#f4ecd8" stroke="#6b5a3a" stroke-width=".7"/>'
        '<path d="M-6,1.5C-6,-5 6,-5 6,1.5Z" fill="#d23b2b" stroke="#6b1d14" stroke-width=".8"/>'
        '<circle cx="-2.5" cy="-1" r="1" fill="#fff"/><circle cx="2" cy="-2" r="1" fill="#fff"/>'),
    "deer": (
        '<g stroke="#4a2e12" stroke-width=".8">'
        '<path d="M-5,3V8M-2.5,3V8M2.5,3V8M5,3V8" stroke-width="1.4"/>'
        '<ellipse cx="0" cy="1" rx="7" ry="3.4" fill="#b0742f"/>'
        '<path d="M4.5,0L7.5,-5L10.5,-4.5L9,-2L6.5,1Z" fill="#b0742f"/>'
        '<path d="M8,-5L6.5,-9.5M7.2,-7.5L5,-8.8M9,-5L10.5,-9.5M9.8,-7.5L12,-8.5" '
        'fill="none"/></g>'),
    "mammoth": (
        '<g stroke="#3b3b3b" stroke-width=".8">'
        '<path d="M-5,3V8.5M-1.5,3V8.5M2.5,3V8.5M5.5,3V8.5" stroke-width="2.2"/>'
        '<path d="M-8.5,3C-9.5,-6 6,-8.5 8,-2C9,1 8,4 6,4H-7Z" fill="#8c7b6b"/>'
        '<path d="M8,-2C11.5,0 11.5,5 9,8.5" fill="none" stroke="#8c7b6b" stroke-width="2.2"/>'
        '<path d="M7,1.5C9,2.5 11.5,1.5 12.5,-1" fill="none" stroke="#f4efe2" '
        'stroke-width="1.4"/></g>'),
    "aurochs": (
        '<g stroke="#2a1a0c" stroke-width=".8">'
        '<path d="M-5.5,3V8M-2.5,3V8M3,3V8M6,3V8" stroke-width="1.7"/>'
        '<path d="M-8,3.5C-8.5,-3 5,-4 7,-2L10.5,-1L9.5,3.5H-8Z" fill="#5a3a1c"/>'
        '<path d="M7,-2C7,-5 9,-6 10.5,-6M8.5,-2C10,-4 12,-4 12.5,-3" fill="none" '
        'stroke="#efe6cf" stroke-width="1.2"/></g>'),
    "tiger": (
        '<g stroke="#3a2208" stroke-width=".8">'
        '<path d="M-5,3V8M-2.5,3V8M2.5,3V8M5,3V8" stroke-width="1.4"/>'
        '<path d="M-7,0C-10,-2 -11,-5 -9,-7" fill="none" stroke="#f08c1e" stroke-width="1.6"/>'
        '<ellipse cx="0" cy="1" rx="7.5" ry="3.3" fill="#f08c1e"/>'
        '<circle cx="8" cy="-1.5" r="3" fill="#f08c1e"/>'
        '<path d="M-4,-2V3.5M-1,-2.3V4M2,-2.3V4" stroke="#222" stroke-width="1.1"/>'
        '<path d="M8.3,1.3L8.8,4.5M9.8,0.8L10.6,3.8" stroke="#fff" stroke-width=".9"/></g>'),
    "fire": (
        '<path d="M0,8C-6,8 -8,3 -5,-2C-4,1 -2,1 -2,-1C-2,-5 1,-7 2,-10C3,-6 7,-4 6,2C6,6 3,8 '
        '0,8Z" fill="#f26b1d" stroke="#9c2b0b" stroke-width="1"/>'
        '<path d="M0,7C-3,7 -3,3 -1,1C0,3 2,3 1.5,0C4,2 4,7 0,7Z" fill="#ffd23f"/>'),
    "sacred": (
        '<g fill="#a3a39a" stroke="#4b4b45" stroke-width=".8">'
        '<rect x="-2" y="-10" width="4" height="8" rx="1"/>'
        '<rect x="-10" y="-4" width="4" height="7" rx="1"/>'
        '<rect x="6" y="-4" width="4" height="7" rx="1"/>'
        '<rect x="-6.5" y="3.5" width="4" height="6" rx="1"/>'
        '<rect x="2.5" y="3.5" width="4" height="6" rx="1"/></g>'),
    "hill": (
        '<path d="M-15,7C-10,-10 10,-10 15,7Z" fill="#6f8f2f" stroke="#43591a" '
        'stroke-width="1.3"/><path d="M-6,-1C-3,-5 2,-5 5,-2" fill="none" stroke="#a7c763" '
        'stroke-width="1.6"/>'),
    "vineyard": (
        '<path d="M-9,-7V8M0,-7V8M9,-7V8" stroke="#6b4a25" stroke-width="1.3"/>'
        '<g fill="#6a2c82" stroke="#3a1447" stroke-width=".5">'
        '<circle cx="-9" cy="-3" r="2.2"/><circle cx="-9" cy="3" r="2.2"/>'
        '<circle cx="0" cy="-1" r="2.2"/><circle cx="0" cy="5" r="2.2"/>'
        '<circle cx="9" cy="-3" r="2.2"/><circle cx="9" cy="3" r="2.2"/></g>'),
    "volcano": (
        '<path d="M-0.5,-9C-2.5,-12 0.5,-14 -1.5,-17" fill="none" stroke="#8a8a8a" '
        'stroke-width="1.8"/><path d="M-13,9L-4,-7H4L13,9Z" fill="#6b4a35" stroke="#3a2618" '
        'stroke-width="1"/><path d="M-4,-7C-2,-3.5 2,-3.5 4,-7Z" fill="#e8401c"/>'),
}

# How much larger than its drawing a symbol is shown (1.3 unless named here).
ICON_SCALE = {"pennants": 1.6, "cloister": 1.2, "cathedral": 1.2, "deer": 1.4, "mammoth": 1.4,
              "aurochs": 1.4, "tiger": 1.4}


def icon_def(prefix: str, name: str) -> str:
    """The definition of symbol ``name`` for ``<use href="#{prefix}i-{name}">`` ("" for a
    name without a drawing)."""
    drawing = ICONS.get(name)
    if drawing is None:
        return ""
    return wrap("g", drawing, id=f"{prefix}i-{name}",
                transform=f"scale({ICON_SCALE.get(name, 1.3)})")


# Figures (no fill: the <use> gives the player colour).
MEEPLE = (
    "M-2.4,-3.8A3.7,3.7 0 1 1 2.4,-3.8C5,-3.6 8.5,-2.6 9.6,-1.2C10.6,0.2 9.6,1.6 8,1.4"
    "L4.4,0.8L7.8,8.4C8.2,9.4 7.6,10 6.6,10L2.2,10L0,5.8L-2.2,10L-6.6,10"
    "C-7.6,10 -8.2,9.4 -7.8,8.4L-4.4,0.8L-8,1.4C-9.6,1.6 -10.6,0.2 -9.6,-1.2"
    "C-8.5,-2.6 -5,-3.6 -2.4,-3.8Z")
HUT = "M-8,9V-1L0,-9L8,-1V9ZM-2.5,9V3H2.5V9Z"
CROOK = "M11,10V-5A3,3 0 0 0 5,-5"
SHEEP = (
    '<g stroke="#444" stroke-width=".8"><path d="M-4,3V6M3,3V6" stroke-width="1.4"/>'
    '<path d="M-7,1C-9,-2 -6,-5 -3,-4C-2,-7 3,-7 4,-4C7,-5 9,-1 6,2C5,5 -5,5 -7,1Z" '
    'fill="#fbfbf5"/><ellipse cx="7" cy="-1" rx="2.6" ry="2" fill="#333"/></g>')
