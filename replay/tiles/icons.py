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
}

# How much larger than its drawing a symbol is shown (1.3 unless named here).
ICON_SCALE = {"pennants": 1.6, "cloister": 1.2, "cathedral": 1.2}


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
CROOK = "M11,10V-5A3,3 0 0 0 5,-5"
SHEEP = (
    '<g stroke="#444" stroke-width=".8"><path d="M-4,3V6M3,3V6" stroke-width="1.4"/>'
    '<path d="M-7,1C-9,-2 -6,-5 -3,-4C-2,-7 3,-7 4,-4C7,-5 9,-1 6,2C5,5 -5,5 -7,1Z" '
    'fill="#fbfbf5"/><ellipse cx="7" cy="-1" rx="2.6" ry="2" fill="#333"/></g>')
