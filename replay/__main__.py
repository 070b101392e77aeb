"""``python -m replay``: the command line (``replay.cli``).

Two things here keep a one-file ``verify`` short, where start-up is most of the time:

- the collector of reference cycles runs after 20,000 new objects rather than 700: the
  imports make thousands of objects that live as long as the process (classes, functions,
  tables), and the default had it walk them over and over (about 9M of the 177M instructions
  of a one-file verify);
- ``verify`` leaves by ``os._exit`` once its output is flushed: it starts no thread or process
  and registers nothing to run at exit, so the interpreter's tear-down (every module emptied,
  a last collection: about 19M instructions) would only throw away what the exit frees anyway.
"""

import gc
import os
import sys

gc.set_threshold(20_000)

from .cli import main  # noqa: E402 (after the threshold: the imports are what it is for)

code = main()
if sys.argv[1:2] == ["verify"]:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)
sys.exit(code)
