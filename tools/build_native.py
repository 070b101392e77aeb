"""Compile the hot modules (``MODULES``) with mypyc into ``build/native/``.

    .venv/bin/python tools/build_native.py [--force]   # ./run does it at set-up

It does nothing while the build is fresh (see ``replay/native.py``). The pure-Python modules
stay the reference: the compiled ones are used only while no source of ``replay`` has changed
since the build. A failed build leaves no compiled module and says why; the engine then runs
in pure Python, and so does everything else.
"""

from __future__ import annotations

import argparse
import fcntl
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from build_progress import BuildProgress, follow

ROOT = Path(__file__).resolve().parent.parent
PURE_ASKED = bool(os.environ.get("REPLAY_PURE"))
os.environ["REPLAY_PURE"] = "1"  # this process must not load the build it replaces
# replay/native.py alone, not the whole package: ./run calls this at every start
_spec = importlib.util.spec_from_file_location("replay_native", ROOT / "replay" / "native.py")
assert _spec is not None and _spec.loader is not None
native = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(native)
NATIVE = Path(native.NATIVE)
NATIVE_ROOT = Path(native.ROOT)

# the hot paths of verification and generation, by family (module paths from ROOT)
MODULES: tuple[str, ...] = (
    *(f"replay/core/{m}.py" for m in ("scan", "header_check", "hashing", "rng", "loop", "sink")),
    *(f"replay/tiles/{m}.py" for m in
      ("state", "board", "figures", "features", "moves", "scoring", "policy", "tileset",
       "copies")),
    *(f"replay/games/carcassonne/{m}.py" for m in
      ("state", "rules", "scoring", "hills_sheep", "sheep_moves", "inns_cathedrals",
       "policy")),
    *(f"replay/games/hunters_gatherers/{m}.py" for m in ("state", "scoring")),
    *(f"replay/games/manhattan/{m}.py" for m in
      ("state", "deck", "scoring", "log", "policy", "moves", "hashes")),
)


def build() -> str:
    """Compile into ``native.NATIVE``; returns what happened, in one line."""
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        return "no C compiler; the engine runs in pure Python"
    start = time.monotonic()
    shutil.rmtree(NATIVE, ignore_errors=True)
    before = {str(p.relative_to(NATIVE_ROOT)): native.fingerprint(p) for p in native.sources()}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(Path(native.PACKAGE), work / "replay",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        process = subprocess.Popen([sys.executable, "-m", "mypyc", *MODULES], cwd=work,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, bufsize=1)
        output = follow(process, BuildProgress(len(MODULES), start))
        if process.returncode != 0:
            return "mypyc failed; the engine runs in pure Python\n" + output[-6000:]
        modules: dict[str, str] = {}
        for lib in work.rglob("*.so"):
            if "build" in lib.relative_to(work).parts:
                continue
            rel = lib.relative_to(work)
            target = NATIVE / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(lib, target)
            name = ".".join((*rel.parent.parts, lib.name.split(".")[0]))
            modules[name] = rel.as_posix()
    after = {str(p.relative_to(NATIVE_ROOT)): native.fingerprint(p) for p in native.sources()}
    if after != before:  # edited while compiling: this build matches neither version
        shutil.rmtree(NATIVE, ignore_errors=True)
        return "a source changed during the build; run it again"
    manifest = {"tag": native.tag(), "modules": modules, "sources": after}
    Path(native.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return (f"{len(MODULES)} modules compiled into "
            f"{NATIVE.relative_to(NATIVE_ROOT)} in {time.monotonic() - start:.0f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--force", action="store_true", help="rebuild even when fresh")
    args = parser.parse_args()
    os.environ.pop("REPLAY_PURE", None)
    if PURE_ASKED and not args.force:
        return 0  # REPLAY_PURE: the build would not be used
    if not args.force and native.compiled():
        native.restamp()
        return 0
    NATIVE.parent.mkdir(parents=True, exist_ok=True)
    with open(NATIVE.parent / "native.lock", "w") as lock:
        # one build at a time (two ./run started together); the second finds it fresh
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not args.force and native.compiled():
            return 0
        print(f"build_native: compiling the {len(MODULES)} hot modules with mypyc (about a "
              "minute on an idle machine, some minutes on a busy one; each stage is said as "
              "it starts)", file=sys.stderr)
        print(f"build_native: {build()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
