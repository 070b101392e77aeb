"""The published log schema, ``schema/log-v1.schema.json``: generated from the built-in families.

    .venv/bin/python tools/log_schema.py          # write it
    .venv/bin/python tools/log_schema.py --check  # exit 1 when it is not what the families say

Each family supplies its part of the log schema (``Family.log_schema``: header fields, players'
fields, one move); ``replay.core.schemas.log_schema`` puts the parts of the families declared
in this project's ``pyproject.toml`` (entry point group ``carcassonne_replay.families``) in the
envelope, as one Draft 2020-12 document. Run it after changing a family's part;
``tests/test_log_schema.py`` fails while the committed file differs.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from replay.core.family import FAMILY_GROUP, Family  # noqa: E402
from replay.core.plugins import load_ref  # noqa: E402
from replay.core.schemas import FILES, SCHEMA_DIR, log_schema, schema_text  # noqa: E402

PATH = Path(SCHEMA_DIR) / FILES["log"]


def built_in() -> list[Family]:
    """The families this project's ``pyproject.toml`` declares (installed or not)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    refs: dict[str, str] = project["entry-points"][FAMILY_GROUP]
    return [load_ref(ref, Family) for ref in refs.values()]


def text() -> str:
    """The published schema's text, as the built-in families make it."""
    return schema_text(log_schema(built_in()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--check", action="store_true",
                    help="compare, write nothing; exit 1 when the file differs (default: write)")
    args = ap.parse_args()
    new = text()
    old = PATH.read_text(encoding="utf-8") if PATH.exists() else ""
    if args.check:
        if old != new:
            print(f"{PATH.relative_to(ROOT)} is not the families' schema: run "
                  "tools/log_schema.py", file=sys.stderr)
            return 1
        print(f"{PATH.relative_to(ROOT)} is up to date")
        return 0
    PATH.write_text(new, encoding="utf-8")
    print(f"wrote {PATH.relative_to(ROOT)}" + ("" if old != new else " (unchanged)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
