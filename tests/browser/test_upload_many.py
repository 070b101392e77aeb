"""Several files on the upload page (issue 35, item 11): dropped on the page, each is sent to
the API with its progress and listed with its verdict and a link to the stored game; without
script, the form posts them all and the server's page lists the same verdicts."""

from __future__ import annotations

import json
from typing import Any

import pytest

from replay.generate import dumps, generate_log

from .support import CHROMIUM, OUT, PHONE, expect

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")

FILES = [("first.json", dumps(generate_log("base", 2, 31))),
         ("second.json", dumps(generate_log("base", 3, 32))),
         ("broken.json", '{"format": "carcassonne-replay/log", "version": 1')]


def drop(pg: Any, files: list[tuple[str, str]]) -> None:
    """Drag ``files`` (name, text) over the page and drop them on it, as a file manager does."""
    transfer = pg.evaluate_handle(
        """(files) => {
             const dt = new DataTransfer();
             for (const [name, text] of files)
               dt.items.add(new File([text], name,
                                    {type: "application/json", lastModified: 1.7e12}));
             return dt;
           }""", files)
    pg.dispatch_event("main", "dragenter", {"dataTransfer": transfer})
    pg.dispatch_event("main", "dragover", {"dataTransfer": transfer})
    expect(pg.locator("body")).to_have_class("dropping")
    pg.dispatch_event("main", "drop", {"dataTransfer": transfer})
    expect(pg.locator("body")).not_to_have_class("dropping")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_dropped_files_are_stored_one_by_one_with_their_verdicts(
        server: str, browser: Any, size: str) -> None:
    names = [(f"{size}-{n}", text.replace('"Ada"', f'"Ada {size}"')) for n, text in FILES]
    viewport = PHONE if size == "phone" else {"width": 1400, "height": 900}
    context = browser.new_context(viewport=viewport, has_touch=size == "phone")
    context.set_default_timeout(10_000)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    sent: list[str] = []
    pg.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    pg.goto(f"{server}/upload")
    expect(pg.locator("#drop-hint")).to_be_visible()
    drop(pg, names[:2])
    drop(pg, names[1:])  # the second file twice: listed once
    chosen = pg.locator("#chosen li")
    expect(chosen).to_have_count(3)
    expect(chosen.nth(0)).to_contain_text(f"{size}-first.json ready")
    expect(pg.locator("#store")).to_have_text("Store 3 files")
    expect(pg.locator("#log")).to_have_class("set-aside")
    expect(pg.locator("#source-note")).to_contain_text("The chosen files are what will be")
    pg.screenshot(path=str(OUT / f"upload-many-chosen-{size}.png"), full_page=True)
    pg.click("#store")
    expect(pg.locator("#feedback")).to_have_text("3 files: 2 stored, 1 not stored.")
    rows = pg.locator("#chosen li")
    expect(rows.nth(0)).to_have_class("verdict valid")
    expect(rows.nth(0)).to_contain_text(f"{size}-first.json valid: ")
    expect(rows.nth(1)).to_have_class("verdict valid")
    expect(rows.nth(2)).to_have_class("verdict unreadable")
    expect(rows.nth(2)).to_contain_text("unreadable: ")
    expect(rows.nth(2).locator("a")).to_have_count(0)
    assert [u.split("?")[0].removeprefix(server) for u in sent] == ["/api/games"] * 3
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], width  # nothing wider than the phone
    pg.screenshot(path=str(OUT / f"upload-many-verdicts-{size}.png"), full_page=True)
    pg.click("#store")  # nothing left to send: each file has its verdict
    expect(pg.locator("#feedback")).to_contain_text("Nothing left to store")
    assert len(sent) == 3
    rows.nth(1).locator("a").click()  # the link opens the stored game in the viewer
    pg.wait_for_url("**/games/*/moves/*")
    expect(pg.locator("h1")).to_contain_text(f"Ada {size}")
    context.close()
    assert not errors, errors


def test_without_script_the_form_posts_every_file(server: str, browser: Any,
                                                  tmp_path: Any) -> None:
    context = browser.new_context(viewport={"width": 1400, "height": 900},
                                  java_script_enabled=False)
    pg = context.new_page()
    pg.goto(f"{server}/upload")
    expect(pg.locator("#drop-hint")).to_be_hidden()  # dropping needs the script
    files = []
    for name, text in FILES:
        path = tmp_path / f"noscript-{name}"
        path.write_text(text.replace('"Ada"', '"Ada noscript"'), encoding="utf-8")
        files.append(str(path))
    pg.set_input_files("input[type=file]", files)
    pg.click("#store")
    expect(pg.locator("#verdicts-title")).to_have_text("3 files: 2 stored, 1 not stored")
    rows = pg.locator("#verdict-list li")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_have_class("verdict valid")
    expect(rows.nth(2)).to_have_class("verdict unreadable")
    expect(rows.nth(2)).to_contain_text("noscript-broken.json unreadable: ")
    pg.screenshot(path=str(OUT / "upload-many-noscript.png"), full_page=True)
    href = rows.nth(0).locator("a").get_attribute("href")
    assert href and "/games/" in href
    context.close()


def test_the_api_answers_are_what_the_list_reads(server: str) -> None:
    """The script reads ``report`` and ``viewer_url`` of POST /api/games."""
    import urllib.request
    request = urllib.request.Request(f"{server}/api/games?name=x.json",
                                     data=FILES[0][1].replace('"Ada"', '"Ada api"').encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        body = json.loads(response.read())
    assert body["report"]["valid"] is True and "/moves/" in body["viewer_url"]



def test_files_past_the_rate_limit_wait_and_are_sent_again(server: str, page: Any) -> None:
    """A 429 stops the batch: that file and the rest say when to send them again, and
    "Store" sends only them."""
    names = [(f"limit-{n}", text.replace('"Ada"', '"Ada limit"')) for n, text in FILES[:2]]
    names.append(("limit-third.json", FILES[0][1].replace('"Ada"', '"Ada third"')))
    answered: list[int] = []

    def limited(route: Any) -> None:
        if answered:
            answered.append(429)
            route.fulfill(status=429, headers={"Retry-After": "17"},
                          content_type="application/json",
                          body='{"error": {"code": 429, "message": "Too many uploads"}}')
        else:
            answered.append(201)
            route.continue_()

    page.route("**/api/games?*", limited)
    page.goto(f"{server}/upload")
    drop(page, names)
    page.click("#store")
    expect(page.locator("#feedback")).to_have_text("3 files: 1 stored, 2 not stored.")
    rows = page.locator("#chosen li")
    for k in (1, 2):
        expect(rows.nth(k)).to_have_class("verdict not-stored")
        expect(rows.nth(k)).to_contain_text("over the upload limit of this address; press "
                                            "Store again in 17 seconds")
    assert answered == [201, 429]  # the third was not sent after the refusal
    expect(page.locator("#store")).to_have_text("Store 2 files")
    page.unroute("**/api/games?*")
    page.click("#store")
    expect(page.locator("#feedback")).to_have_text("3 files: 3 stored.")
    expect(page.locator("#chosen li.valid")).to_have_count(3)
