"""``python -m replay serve``: the web app as a command of the replay's command line.

The command line finds it through the entry point group ``carcassonne_replay.commands``
(``pyproject.toml``), so that the library (``replay``) never imports the web app: the
distribution wires them together. ``add_serve`` is called with the parser's sub-commands and
its factory of commands (description, examples, numbering).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from replay.agents.analyse_command import DEFAULT_AGENT
from replay.cli_help import whole_number

from .guard import host_name, served_names
from .limits import parse_rate
from .server import Settings

EXAMPLES = """examples:
  python -m replay serve                                    # http://127.0.0.1:5000/, games.db here
  python -m replay serve --host 0.0.0.0 --port 8080 --db /var/lib/replay/games.db
  python -m replay serve --host 0.0.0.0 --allowed-host replay.example.org   # its public name
  python -m replay serve --debug                            # Werkzeug, one process"""


def _rate(text: str) -> str | None:
    if text.strip().lower() in ("off", "none", "0"):
        return None
    try:
        parse_rate(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_serve(sub: Any, command: Callable[..., argparse.ArgumentParser]) -> None:
    """Add ``serve`` to the sub-commands ``sub``; ``command(sub, name, help, description,
    examples)`` makes a sub-command as the others are made."""
    defaults = Settings()
    s = command(sub, "serve", "serve the web viewer and the JSON API",
                "Serve the upload page, the viewer and the JSON API (waitress; Werkzeug with "
                "--debug).", EXAMPLES)
    s.add_argument("--host", default=defaults.host, help="address to listen on; 0.0.0.0 for "
                   f"every interface (default: {defaults.host})")
    s.add_argument("--port", type=int, default=defaults.port,
                   help=f"TCP port (default: {defaults.port})")
    s.add_argument("--db", default="games.db", metavar="PATH",
                   help="SQLite file holding the games, made when missing (default: games.db "
                        "in the current directory)")
    s.add_argument("--processes", type=whole_number(1, 64), default=defaults.processes, metavar="N",
                   help=f"server processes sharing the port (default: {defaults.processes})")
    s.add_argument("--threads", type=whole_number(1, 64), default=defaults.threads, metavar="N",
                   help="requests handled at once per process; more wait their turn "
                        f"(default: {defaults.threads})")
    s.add_argument("--timeout", type=whole_number(1, 64), default=defaults.channel_timeout,
                   metavar="S", help="close a connection that makes no progress this many "
                                     "seconds, one that does not read its answer too "
                                     f"(default: {defaults.channel_timeout})")
    s.add_argument("--client-connections", type=whole_number(0, 100000),
                   default=defaults.client_connections, metavar="N",
                   help="connections one client (an IP address, an IPv6 /64) may hold at once "
                        "in each process; more are answered 429; 0: no cap, e.g. behind a "
                        "proxy, where every client has the proxy's address "
                        f"(default: {defaults.client_connections})")
    s.add_argument("--client-queued", type=whole_number(0, 100000),
                   default=defaults.client_queued // 2**20, metavar="MB",
                   help="megabytes of answers one client may leave unread in each process; "
                        "past them its further requests wait, or are answered 429; 0: no bound "
                        f"(default: {defaults.client_queued // 2**20})")
    s.add_argument("--allowed-host", type=host_name, action="append", default=[],
                   metavar="NAME",
                   help="a name the server answers to (the Host header), besides localhost, "
                        "IP addresses, this machine's name and --host; repeat it for more. "
                        "A request naming any other host is refused (421), so that another "
                        "site whose name points here (DNS rebinding) cannot use the service "
                        "(default: none besides those)")
    s.add_argument("--rate-limit", type=_rate, default="60/60", metavar="N/S",
                   help="uploads and verifications a client may make in S seconds, or "
                        "'off'; above it: 429 with Retry-After (default: 60/60)")
    s.add_argument("--analysis-rate-limit", type=_rate, default="600/60", metavar="N/S",
                   help="requests of the analysis board (explored pages, variations, their "
                        "API) a client may make in S seconds, or 'off' (default: 600/60)")
    s.add_argument("--computer-rate-limit", type=_rate, default="20/3600", metavar="N/S",
                   help="computer analyses a client may ask for in S seconds, or 'off' "
                        "(default: 20/3600)")
    s.add_argument("--analysis-agent", type=_searching_agent, default=DEFAULT_AGENT,
                   metavar="SPEC", help="the agent of the computer analyses (an mcts spec; "
                                        f"default: {DEFAULT_AGENT}); see docs/agents.md")
    s.add_argument("--analysis-workers", type=whole_number(0, 64), default=1, metavar="N",
                   help="computer analyses running at once, each in a worker process of low "
                        "priority, in the whole library; 0: computer analysis off (default: 1)")
    s.add_argument("--analysis-queue", type=whole_number(1, 100000), default=16, metavar="N",
                   help="computer analyses queued or running at most; more: 429 (default: 16)")
    s.add_argument("--analysis-per-client", type=whole_number(1, 100000), default=2,
                   metavar="N", help="of them, one client's at most (default: 2)")
    s.add_argument("--debug", action="store_true",
                   help="Werkzeug's development server: one process, reloads nothing "
                        "(default: off)")
    s.set_defaults(func=cmd_serve)


def _searching_agent(text: str) -> str:
    """An argparse ``type``: an agent spec ``analyse`` takes (an mcts with a count of
    simulations), written back in full."""
    from replay.agents import AgentSpecError
    from replay.agents.analysis import searching_agent

    try:
        return searching_agent(text).spec
    except AgentSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


DEFAULT_GC = (700, 10, 10)  # CPython's thresholds of the cycle collector


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the web app (SQLite file ``--db``): waitress, or Werkzeug's development server
    with ``--debug``."""
    import gc

    from .server import serve

    # the collector's default pace again: ``python -m replay`` slows it for a short verify
    # (replay/__main__.py), and a server running for hours at that pace kept its cycles (game
    # states, requests) so long that its workers grew to 250-540 MB under the soak
    gc.set_threshold(*DEFAULT_GC)
    config: dict[str, Any] = {"DATABASE": args.db, "RATE_LIMIT": args.rate_limit,
                              "ANALYSIS_RATE_LIMIT": args.analysis_rate_limit,
                              "COMPUTER_RATE_LIMIT": args.computer_rate_limit,
                              "ANALYSIS_AGENT": args.analysis_agent,
                              "ANALYSIS_WORKERS": args.analysis_workers,
                              "ANALYSIS_QUEUE": args.analysis_queue,
                              "ANALYSIS_PER_CLIENT": args.analysis_per_client,
                              "ALLOWED_HOSTS": served_names(args.host, args.allowed_host)}
    if args.debug:
        from .app import create_app
        from .server import open_library

        problem = open_library(args.db)
        if problem is not None:
            print(problem, file=sys.stderr)
            return 2
        app = create_app(config)
        app.run(host=args.host, port=args.port, debug=True, use_reloader=False, threaded=True)
        return 0
    return serve(config, Settings(host=args.host, port=args.port, processes=args.processes,
                                  threads=args.threads, channel_timeout=args.timeout,
                                  client_connections=args.client_connections,
                                  client_queued=args.client_queued * 2**20))
