"""What every browser test shares: the app on a temporary database in a background thread,
Debian's chromium (headless, driven by Playwright), a desktop page (1400x900) and a phone page
(390x844, touch); screenshots go to ``test-output/browser/``. ``support`` holds the helpers.

The app runs on 127.0.0.1 with an ephemeral port (werkzeug's ``make_server``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from werkzeug.serving import make_server

from replay.generate import generate_log
from web.app import create_app

from .support import ARGS, CHROMIUM, OUT, PHONE, sync_api


@contextmanager
def serving(config: dict[str, Any]) -> Iterator[str]:
    """The app with ``config`` served on 127.0.0.1 in a background thread: its base URL."""
    srv = make_server("127.0.0.1", 0, create_app(config), threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()
        thread.join(10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving({"DATABASE": str(tmp_path_factory.mktemp("browser") / "games.db")}) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    context.set_default_timeout(10_000)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("dialog", lambda dialog: errors.append(f"dialog: {dialog.message}"))
    yield pg
    context.close()
    assert not errors, errors


@pytest.fixture(scope="module")
def game4() -> dict[str, Any]:
    return generate_log("base", 4, 7)




@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(10_000)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, errors

