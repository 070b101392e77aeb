"""Cross-site requests: no page of another site may store a game in this library.

A browser sends some requests to any site without asking it first (CORS "simple" requests:
a form post, or a ``fetch`` with a ``text/plain`` body), carrying the user's access to a local
library with them. So:

* a state-changing API request (``POST`` under ``/api/``) that says its body is anything but
  JSON (``application/json`` or ``*+json``) is refused with 415: a JSON body is what a browser
  will not send to another site without asking it first (a CORS preflight, which this service
  never grants); a request that names no type at all (``curl --data-binary``, scripts) is
  taken as JSON unless it comes from another site's page (its ``Origin``);
* a form post (``POST`` of a page) must come from a page of this site: its ``Origin`` header,
  or when a browser sends none its ``Referer``, must name this host (``Host``); 403 otherwise.
  Browsers send ``Origin`` with every form post, so the upload page keeps working.

Both compare with ``Host``, which a page of another site controls when its name is pointed at
this machine (DNS rebinding: ``evil.example`` resolves to 127.0.0.1 once the page is loaded,
and the browser sends ``Host`` and ``Origin`` both naming ``evil.example``). So any request
whose ``Host`` names something else than the names this server answers to is refused first,
with 421: ``localhost`` (and ``*.localhost``), any IP address (a page is never served from
an attacker's name then), and ``ALLOWED_HOSTS`` (``serve`` puts there ``--host``, this
machine's name and every ``--allowed-host``). Ports are not compared: a rebinding page differs
by its name; a page of this machine on another port is told apart by the ``Origin`` check.
A request without ``Host`` (HTTP/1.0; no browser) is let through.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

from flask import current_app, request
from werkzeug.exceptions import Forbidden, MisdirectedRequest, UnsupportedMediaType

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _same_origin(url: str | None) -> bool | None:
    """Whether ``url`` (an Origin or Referer) names this host; None when there is none."""
    if url is None or url == "":
        return None
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == request.host.lower()


def check_origin() -> None:
    """Refuse a cross-site state-changing request (before any other work): 415 for an API
    body that is not JSON, 403 for a post from another site's page (see the module)."""
    if request.method in SAFE_METHODS:
        return
    origin = request.headers.get("Origin")
    if request.path.startswith("/api/"):
        kind = request.mimetype
        if kind and kind != "application/json" and not kind.endswith("+json"):
            raise UnsupportedMediaType(
                f"The API takes JSON: send the body with 'Content-Type: application/json' "
                f"(not {kind!r}).")
        if _same_origin(origin) is False:
            raise Forbidden("This request comes from another site's page.")
        return
    verdict = _same_origin(origin)
    if verdict is None and origin is None:
        verdict = _same_origin(request.headers.get("Referer"))
    if not verdict:
        raise Forbidden("This form must be sent from this site's own page (its Origin or "
                        "Referer header names another site, or none): open the upload page "
                        "and send it from there.")


NAME = re.compile(r"[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*")


def host_name(text: str) -> str:
    """An argparse ``type``: a host name as ``--allowed-host`` takes it (lower case, no final
    dot), refused with a line that says why."""
    import argparse  # here: the web app never parses a command line

    name = text.strip().lower().rstrip(".")
    if not NAME.fullmatch(name):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a host name: give a name alone, without a scheme, port or path "
            "(e.g. replay.example.org)")
    return name


def served_names(host: str, extra: Iterable[str] = ()) -> list[str]:
    """The names a server listening on ``host`` answers to besides localhost and IP
    addresses: ``host`` itself (when it is a name), this machine's name (alone, whole and with
    ``.local``) and ``extra``."""
    names = [*extra]
    machine = socket.gethostname().lower().rstrip(".")
    if machine:
        short = machine.split(".")[0]
        names += [machine, short, f"{short}.local"]
    if host and not _is_address(host.strip("[]")):
        names.append(host.lower().rstrip("."))
    return sorted(set(names))


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _name_of(host: str) -> str | None:
    """The name of a ``Host`` header without its port; None when it is no host at all."""
    text = host.strip().lower()
    if text.startswith("["):
        name, bracket, rest = text[1:].partition("]")
        if not bracket:
            return None
    else:
        name, colon, port = text.partition(":")
        rest = colon + port
    if rest and not (rest[0] == ":" and rest[1:].isdigit()):
        return None
    return name.rstrip(".")


def check_host() -> None:
    """Refuse (421) a request whose ``Host`` names another site than this one (see the
    module)."""
    host = request.environ.get("HTTP_HOST")
    if not host:
        return
    name = _name_of(host)
    if name is not None and (name == "localhost" or name.endswith(".localhost")
                             or _is_address(name)):
        return
    allowed = current_app.config.get("ALLOWED_HOSTS") or ()
    if name is not None and name in {n.lower().rstrip(".") for n in allowed}:
        return
    shown = host if len(host) <= 100 else host[:100] + "..."
    raise MisdirectedRequest(
        f"This server does not answer to the name {shown!r} (the request's Host header): "
        "it answers to localhost, its IP addresses and the names its operator gave it "
        "(serve --allowed-host NAME). A page of another site cannot use it.")
