"""Several files in one post of the upload page (issue 35, item 11): each checked and stored on
its own, the page listing every file's verdict; the rate limit counts each file; a file over
the size limit, unreadable or past the budget gets its verdict and leaves nothing stored; a
post past the cap of files lists the rest as not read. (The page's script, which sends the
files one by one to the API: tests/browser/test_upload_many.py.)"""

from __future__ import annotations

import copy
import io
import re
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from replay.generate import dumps, generate_log
from replay.library.spellings import SOURCES
from web.uploads import BATCH_BYTES

from .test_service import Server

GOOD = [dumps(generate_log("base", 2, seed)) for seed in (21, 22, 23)]
XSS = "<script>alert(1)</script>"


def illegal() -> str:
    bad = copy.deepcopy(generate_log("base", 2, 24))
    bad["moves"][5].update({"x": 0, "y": 0})  # on the start tile's cell: G4
    bad.pop("claims", None)
    return dumps(bad)


def post(client: FlaskClient, files: Sequence[tuple[str, str | bytes]]) -> Any:
    data = {"file": [(io.BytesIO(t.encode() if isinstance(t, str) else t), name)
                     for name, t in files], "log": ""}
    return client.post("/upload", data=data, content_type="multipart/form-data")


def verdicts(page: str) -> list[tuple[str, str, str | None]]:
    """(kind, file name, link) of each listed verdict, in order."""
    out = []
    for kind, body in re.findall(r'<li class="verdict ([\w-]+)">(.*?)</li>', page, re.S):
        link = re.search(r'<a class="fname" href="([^"]+)">', body)
        out.append((kind, re.sub(r"<[^>]+>", "", body).split(" ")[0],
                    link.group(1) if link else None))
    return out


def counts(app: Flask) -> tuple[int, int]:
    """Games and sources stored."""
    from web import db as store
    with app.app_context():
        db = store.get_db()
        return db.table("games").count, db.table(SOURCES).count


def test_several_files_each_get_their_verdict_and_link(app: Flask) -> None:
    r = post(app.test_client(), [("a.json", GOOD[0]), ("b.json", GOOD[1]),
                                 ("bad.json", '{"format": "carcassonne-replay/log"'),
                                 ("wrong.json", illegal())])
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    found = verdicts(page)
    assert [(k, n) for k, n, _ in found] == [("valid", "a.json"), ("valid", "b.json"),
                                            ("unreadable", "bad.json"),
                                            ("illegal", "wrong.json")]
    assert "4 files: 3 stored, 1 not stored" in page
    assert "unreadable: invalid JSON" in page
    assert re.search(r"illegal at move 6 \(\w+\): G4: ", page)
    links = [url for _, _, url in found]
    assert links[2] is None and all(links[i] for i in (0, 1, 3))
    client = app.test_client()
    # a game's link opens where the viewer opens it: the failing move of an illegal game
    # (at move 0 with "hide results" on, tests/test_web_spoiler.py)
    assert links[3] is not None
    assert client.get(links[3]).headers["Location"].endswith("/moves/6")
    assert all(client.get(str(url), follow_redirects=True).status_code == 200
               for url in links if url)
    assert counts(app) == (3, 3)  # nothing of the unreadable file


def test_a_file_over_the_size_limit_is_one_verdict_not_a_failed_post(
        make_app: Any) -> None:
    """Before: the post as a whole over the log limit answered 413, whatever was in it."""
    app = make_app(MAX_CONTENT_LENGTH=60_000)
    big = GOOD[0][:-2] + " " * 70_000 + GOOD[0][-2:]
    fine = [GOOD[1][:-2] + " " * 40_000 + GOOD[1][-2:], GOOD[2]]  # 2 files: over 60 kB in all
    r = post(app.test_client(), [("big.json", big), ("one.json", fine[0]),
                                 ("two.json", fine[1])])
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert [(k, n) for k, n, _ in verdicts(page)] == [
        ("too-large", "big.json"), ("valid", "one.json"), ("valid", "two.json")]
    assert f"too large: {len(big):,} bytes; the limit is 60,000 bytes" in page
    assert counts(app) == (2, 2)


def test_a_post_over_the_batch_limit_is_413_saying_so(make_app: Any) -> None:
    app = make_app(MAX_CONTENT_LENGTH=60_000, UPLOAD_BATCH_BYTES=100_000)
    pad = " " * 55_000
    files = [(f"{i}.json", g[:-2] + pad + g[-2:]) for i, g in enumerate(GOOD)]
    r = post(app.test_client(), files)
    assert r.status_code == 413
    page = r.get_data(as_text=True)
    assert "one upload of several files at most 100000 bytes" in page
    assert "Send fewer files" in page
    assert counts(app) == (0, 0)


def test_every_file_counts_against_the_rate_limit(make_app: Any) -> None:
    app = make_app(RATE_LIMIT="3/60")
    client = app.test_client()
    names = [f"{i}.json" for i in range(5)]
    files = list(zip(names, [*GOOD, illegal(), GOOD[0].replace('"Ada"', '"Eve"')],
                     strict=True))
    r = post(client, files)
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert [k for k, _, _ in verdicts(page)] == ["valid"] * 3 + ["not-stored"] * 2
    assert re.search(r"not stored: over the upload limit of this address; send it again in "
                     r"\d+ seconds", page)
    assert counts(app) == (3, 3)
    again = post(client, files[3:])  # not one fits: the whole post is refused
    assert again.status_code == 429 and 1 <= int(again.headers["Retry-After"]) <= 60
    assert client.post("/api/verify", data=GOOD[0]).status_code == 429


def test_files_past_the_cap_are_not_read(make_app: Any) -> None:
    app = make_app(UPLOAD_BATCH_FILES=2)
    r = post(app.test_client(), [("a.json", GOOD[0]), ("b.json", GOOD[1]),
                                 ("c.json", GOOD[2])])
    page = r.get_data(as_text=True)
    assert [(k, n) for k, n, _ in verdicts(page)] == [
        ("valid", "a.json"), ("valid", "b.json"), ("not-stored", "c.json")]
    assert "not read: one upload takes at most 2 files; send this one again" in page
    assert counts(app) == (2, 2)
    assert "up to 2 at once" in app.test_client().get("/upload").get_data(as_text=True)


def test_nothing_stored_is_400_and_names_are_escaped(app: Flask) -> None:
    r = post(app.test_client(), [(f"{XSS}.json", b"\xff\xfe"), ("empty.json", b"")])
    assert r.status_code == 400
    page = r.get_data(as_text=True)
    assert XSS not in page and "&lt;script&gt;alert(1)&lt;/script&gt;.json" in page
    assert "not UTF-8 text" in page
    assert "2 files: 0 stored, 2 not stored" in page
    assert counts(app) == (0, 0)


def test_the_same_game_twice_is_stored_once(app: Flask) -> None:
    r = post(app.test_client(), [("a.json", GOOD[0]), ("again.json", GOOD[0])])
    page = r.get_data(as_text=True)
    found = verdicts(page)
    assert [k for k, _, _ in found] == ["valid", "valid"]
    assert found[0][2] == found[1][2]
    assert "(already in the library)" in page.split("again.json")[1]
    assert counts(app)[0] == 1


def test_one_file_still_opens_in_the_viewer(client: FlaskClient) -> None:
    r = post(client, [("a.json", GOOD[0])])
    assert r.status_code == 303 and "/games/" in r.headers["Location"]


def test_the_page_offers_several_files_and_a_drop(client: FlaskClient) -> None:
    page = client.get("/upload").get_data(as_text=True)
    assert re.search(r'<input type="file" name="file" multiple', page)
    assert 'data-store="/api/games"' in page and 'id="drop-hint"' in page


# ----------------------------------------------------------------- through the real server

def multipart(files: list[tuple[str, bytes]]) -> tuple[bytes, str]:
    boundary = uuid.UUID(int=35).hex
    parts = [b"--" + boundary.encode() + b'\r\nContent-Disposition: form-data; name="file"; '
             b'filename="' + name.encode() + b'"\r\nContent-Type: application/json\r\n\r\n'
             + data + b"\r\n" for name, data in files]
    return b"".join(parts) + b"--" + boundary.encode() + b"--\r\n", \
        f"multipart/form-data; boundary={boundary}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("many") / "games.db", "--rate-limit", "off")
    yield srv
    log = srv.stop()
    assert "Traceback" not in log, log


def test_the_server_takes_a_post_larger_than_one_log(server: Server) -> None:
    """waitress kept 5 MB of any body: a post of two 3 MB logs was refused (413)."""
    pad = b" " * (3 * 1024 * 1024)
    files = [(f"{i}.json", g[:-2].encode() + pad + g[-2:].encode())
             for i, g in enumerate(GOOD[:2])]
    files.append(("big.json", GOOD[2][:-2].encode() + pad * 2 + GOOD[2][-2:].encode()))
    body, kind = multipart(files)
    assert 5 * 1024 * 1024 < len(body) < BATCH_BYTES
    origin = f"http://{server.host}:{server.port}"
    status, _, payload = server.request("POST", "/upload", body, {
        "Content-Type": kind, "Origin": origin, "Host": f"{server.host}:{server.port}"})
    assert status == 200, payload[:300]
    page = payload.decode()
    assert [(k, n) for k, n, _ in verdicts(page)] == [
        ("valid", "0.json"), ("valid", "1.json"), ("too-large", "big.json")]
    too_big, _, _ = server.request("POST", "/api/games", body,
                                   {"Content-Type": "application/json"})
    assert too_big == 413  # the API still takes one log's size


def test_a_post_past_the_batch_limit_is_answered_413(server: Server, tmp_path: Path) -> None:
    body, kind = multipart([("huge.json", b" " * (BATCH_BYTES + 10))])
    status, _, payload = server.request("POST", "/upload", body, {
        "Content-Type": kind, "Origin": f"http://{server.host}:{server.port}"})
    assert status == 413 and b"Send fewer files at once" in payload
