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
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import request
from werkzeug.exceptions import Forbidden, UnsupportedMediaType

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
