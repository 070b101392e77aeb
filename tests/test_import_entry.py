"""Foreign files wherever a log goes: ``import``, ``verify``, ``render``, the upload form and the
API (the importers themselves: tests/test_import_jcz.py, tests/test_import_bga.py)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from flask import Flask

from replay.core.record import read_game

ROOT = Path(__file__).resolve().parent.parent
JCZ = ROOT / "fixtures" / "import" / "jcz-mit"
SCORING = JCZ / "basic" / "scoring.jcz"
ABBEY = JCZ / "hills_and_sheep" / "multi_city_merge_abbey.jcz"
RULEBOOK = next((ROOT / "fixtures" / "rulebook").glob("*.json"))
pytestmark = pytest.mark.app_config(RATE_LIMIT=None)  # the ``app`` of tests/conftest.py


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "replay", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_import_writes_a_log_that_verifies(tmp_path: Path) -> None:
    one = run("import", str(SCORING))
    assert one.returncode == 0, one.stderr
    log = json.loads(one.stdout)
    assert log["format"] == "carcassonne-replay/log" and "seed" not in log
    several = run("import", str(SCORING), str(JCZ / "basic" / "scoringFarms.jcz"), "-o",
                  str(tmp_path))
    assert several.returncode == 0, several.stderr
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["scoring.json", "scoringFarms.json"]
    check = run("verify", *(str(p) for p in sorted(tmp_path.iterdir())))
    assert check.returncode == 0, check.stdout


def test_saves_of_one_name_are_all_kept(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 35, item 7: saves of the same name from two folders (and ``x.jcz`` beside
    ``x.json``) each get a file, the later ones with a suffix, and stderr says so."""
    from replay.cli import main

    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "scoring.jcz").write_bytes(SCORING.read_bytes())
    (tmp_path / "b" / "Scoring.json").write_bytes(
        (ROOT / "fixtures" / "import" / "bga" / "finished-2p.json").read_bytes())
    sources = [str(tmp_path / "a" / "scoring.jcz"), str(tmp_path / "b" / "scoring.jcz"),
               str(tmp_path / "b" / "Scoring.json"), str(SCORING.with_name("scoringFarms.jcz"))]
    out = tmp_path / "out"
    assert main(["import", *sources, "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == [
        "Scoring-3.json", "scoring-2.json", "scoring.json", "scoringFarms.json"]
    assert f"{sources[1]}: JCloisterZone" in err and f"-> {out / 'scoring-2.json'} " \
        f"(scoring.json is {sources[0]}'s)" in err
    assert (f"import: 4 saves converted, 4 files written in {out}; 2 with a suffix (-2, -3, "
            "...) because an earlier save had the same name") in err
    assert read_game(str(out / "scoring-2.json")).config.game == "base"
    assert (out / "scoring.json").read_text() == (out / "scoring-2.json").read_text()


@pytest.mark.parametrize(("args", "words"), [
    (["import", str(ABBEY)], "Abbey & Mayor"),
    (["import", str(RULEBOOK)], "a log v1 needs no import"),
    (["import", str(SCORING), str(SCORING)], "several sources need -o DIR"),
])
def test_import_refusals_say_why_with_exit_2(args: list[str], words: str) -> None:
    proc = run(*args)
    assert proc.returncode == 2 and words in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_truncated_save_is_unreadable(tmp_path: Path) -> None:
    cut = tmp_path / "cut.jcz"
    cut.write_bytes(SCORING.read_bytes()[:300])
    proc = run("verify", str(cut))
    assert proc.returncode == 2 and "unreadable" in proc.stdout


def test_verify_and_render_read_a_save_directly(tmp_path: Path) -> None:
    proc = run("verify", "--json", str(SCORING))
    report = json.loads(proc.stdout)
    assert proc.returncode == 0
    assert report["format"].startswith("JCloisterZone") and report["valid"] is True
    assert report["final_scores"] == {"Alice": 14, "Bob": 11}
    refused = json.loads(run("verify", "--json", str(ABBEY)).stdout)
    assert refused["format"].startswith("JCloisterZone") and refused["valid"] is False
    assert any(p["fatal"] for p in refused["import_problems"])
    out = tmp_path / "b.svg"
    assert run("render", str(SCORING), "-o", str(out)).returncode == 0
    assert out.read_text().startswith("<svg")
    assert read_game(SCORING).imported.format.startswith("JCloisterZone")


def test_an_uploaded_save_is_stored_with_its_original(app: Flask) -> None:
    client = app.test_client()
    data = SCORING.read_bytes()
    created = client.post("/api/games", data=data)
    assert created.status_code == 201
    body = created.get_json()
    assert body["source_format"].startswith("JCloisterZone")
    assert body["verdict"]["valid"] is True
    assert [p["score"] for p in body["players"]] == [14, 11]
    assert client.get(body["original_url"]).data == data
    again = client.post("/upload", data={"file": (io.BytesIO(data), "scoring.jcz")},
                        content_type="multipart/form-data")
    assert again.status_code == 303
    library = client.get("/games").data.decode()
    assert 'class="source">JCloisterZone' in library
    page = client.get(client.get(f"/games/{body['id']}").headers["Location"]).data.decode()
    assert "Imported from a JCloisterZone" in page and "original" in page


def test_a_refused_save_is_a_400_and_nothing_is_stored(app: Flask) -> None:
    client = app.test_client()
    refused = client.post("/api/games", data=ABBEY.read_bytes())
    assert refused.status_code == 400
    assert "Abbey & Mayor" in refused.get_json()["error"]["message"]
    form = client.post("/upload", data={"file": (io.BytesIO(ABBEY.read_bytes()), "a.jcz")},
                       content_type="multipart/form-data")
    assert form.status_code == 400 and b"Abbey &amp; Mayor" in form.data
    assert client.get("/api/games").get_json()["total"] == 0
    verified = client.post("/api/verify", data=ABBEY.read_bytes()).get_json()
    assert verified["valid"] is False and verified["format"].startswith("JCloisterZone")


def test_a_board_game_arena_log_goes_where_a_log_goes(app: Flask) -> None:
    path = ROOT / "fixtures" / "import" / "bga" / "finished-2p.json"
    proc = run("verify", str(path))
    assert proc.returncode == 0 and "Board Game Arena" in proc.stdout
    created = app.test_client().post("/api/games", data=path.read_bytes())
    assert created.status_code == 201
    assert created.get_json()["source_format"] == "Board Game Arena log"


TRADERS = JCZ / "traders_and_builders" / "tradeGoodsScoring.jcz"
UNSUPPORTED = ("unsupported: this save uses Traders & Builders; this service plays "
               "Carcassonne: the base game, Inns & Cathedrals and Hills & Sheep")


def test_an_unsupported_expansion_is_not_a_malformed_file(app: Flask) -> None:
    """verify, import, the API and the upload page say what the save uses and what the
    service plays (exit 2 / 400), not "unreadable" nor "The log is not readable" (issue 29)."""
    from replay.cli import main

    err = io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "stdout", err)
        assert main(["verify", str(TRADERS)]) == 2
        mp.setattr(sys, "stderr", err)
        assert main(["import", str(TRADERS)]) == 2
    lines = err.getvalue().splitlines()
    assert f"(JCloisterZone 4.x save, 3 import problems): {UNSUPPORTED} (" in lines[0]
    assert f"tradeGoodsScoring.jcz: {UNSUPPORTED} (JCloisterZone 4.x save, " in lines[1]
    assert "unreadable" not in err.getvalue() and ": refused: " not in err.getvalue()
    client = app.test_client()
    data = TRADERS.read_bytes()
    api = client.post("/api/games", data=data, content_type="application/json")
    assert api.status_code == 400
    assert api.get_json()["error"]["message"].startswith(UNSUPPORTED)
    checked = client.post("/api/verify", data=data, content_type="application/json")
    assert checked.get_json()["error"]["message"].startswith(UNSUPPORTED)
    form = client.post("/upload", data={"file": (io.BytesIO(data), "t.jcz")},
                       content_type="multipart/form-data")
    page = form.data.decode()
    assert form.status_code == 400 and "not readable" not in page
    assert UNSUPPORTED.replace("&", "&amp;") in page
    assert "unsupported: " in (ROOT / "web" / "static" / "upload.js").read_text()
