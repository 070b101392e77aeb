"""``python -m replay balance`` (issue 37, item 3): rule variants measured by self-play.

The counts of a measure add up (the seats' score rates to 1, the points by kind to the mean
scores); the report is the same with one worker and with two; a rule set that gives the first
seat 10 points (the test family ``tests/handicap_family.py``, installed as another
distribution's family is) shows a seat advantage whose intervals leave the fair value out
while the fair set's hold it; hostile arguments exit 2 with one clear line; the HTML page
parses and escapes an option's markup.

The runs are in-process (``replay.cli.main``) with the ``random`` agent, a few games each (a
random base game takes about 0.1 s), every seed fixed: the same figures every run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from replay.cli import main
from replay.core import plugins

ROOT = Path(__file__).resolve().parent.parent


def balance(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    """``python -m replay balance WORDS`` in-process: the exit code, stdout, stderr (a
    parser's refusal exits through ``SystemExit``: its code)."""
    try:
        code = main(["balance", *words])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def measure(capsys: pytest.CaptureFixture[str], *words: str) -> dict:  # type: ignore[type-arg]
    code, out, err = balance(capsys, *words, "--format", "json")
    assert code == 0, err
    return json.loads(out)["summary"]  # type: ignore[no-any-return]


@pytest.fixture
def handicap(tmp_path: Path) -> Iterator[str]:
    """The family ``handicap`` installed for one test (a scratch ``dist-info`` on
    ``sys.path``, the registry told to read it again), and forgotten after it."""
    info = tmp_path / "handicap-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: handicap\nVersion: 0.1\n",
                                   encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[carcassonne_replay.families]\nhandicap = tests.handicap_family:HANDICAP\n",
        encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    plugins.forget()
    try:
        yield "handicap"
    finally:
        sys.path.remove(str(tmp_path))
        plugins.forget()


def test_the_counts_add_up(capsys: pytest.CaptureFixture[str]) -> None:
    """Each set plays --games games; the seats' score rates add up to 1 a game (a shared
    best score split), the ties are among them, every mean is over every game, the points by
    kind add up to the mean scores, and the paired differences of the seats cancel out."""
    s = measure(capsys, "--game", "base", "--b", "small_city=4", "--agent", "random",
                "--games", "6", "--seed", "3", "--jobs", "1")
    assert (s["games"], s["players"], s["agent"], s["same_rules"]) == (6, 2, "random", False)
    assert list(s["sets"]) == ["A", "B"]
    for label, x in s["sets"].items():
        assert x["games"] == 6 and x["options"]["small_city"] == (2 if label == "A" else 4)
        assert sum(r["points"] for r in x["seat_score_rate"]) == pytest.approx(6)
        assert all(r["n"] == 6 and r["ci95"][0] <= r["rate"] <= r["ci95"][1]
                   for r in x["seat_score_rate"])
        assert 0 <= x["ties"]["points"] <= 6
        means = [x["first_seat_margin"], x["score_spread"], x["length"],
                 *x["mean_score"], *x["points_by_kind"].values()]
        assert all(m["n"] == 6 for m in means)
        assert {"city", "road", "cloister", "farm"} <= set(x["points_by_kind"])
        by_kind = sum(m["mean"] for m in x["points_by_kind"].values())
        assert by_kind == pytest.approx(sum(m["mean"] for m in x["mean_score"]))
        first, second = (m["mean"] for m in x["mean_score"])
        assert x["first_seat_margin"]["mean"] == pytest.approx(first - second)
    d = s["difference"]
    assert sum(r["mean"] for r in d["seat_score_rate"]) == pytest.approx(0)
    # the random agent plays the same moves under both: only the small cities score otherwise
    assert d["length"]["mean"] == 0 and d["points_by_kind"]["road"]["mean"] == 0
    assert d["points_by_kind"]["city"]["mean"] > 0


def test_the_report_is_the_same_with_one_worker_or_two(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Games merged in game order: one process or two give the same bytes, in each format."""
    for fmt in ("text", "json", "html"):
        words = ("--game", "base", "--players", "3", "--b", "farm_scoring=per-field",
                 "--agent", "random", "--games", "5", "--format", fmt)
        one = balance(capsys, *words, "--jobs", "1")
        two = balance(capsys, *words, "--jobs", "2")
        assert one[0] == two[0] == 0
        assert one[1] == two[1] and one[1].strip()


def test_a_handicap_of_10_points_shows_as_a_first_seat_advantage(
        capsys: pytest.CaptureFixture[str], handicap: str) -> None:
    """Rule set B gives the first seat 10 points at the end: its score rate's Wilson
    interval and its margin's t-interval leave the fair values (1/2, 0) out, and the text
    flags them; the fair set's intervals hold them. The random agent plays the same moves
    under both, so the paired margin B - A is 10 in every game."""
    s = measure(capsys, "--game", handicap, "--a", "handicap=0", "--b", "handicap=10",
                "--agent", "random", "--games", "40", "--jobs", "2")
    a, b = s["sets"]["A"], s["sets"]["B"]
    assert s["fair_score_rate"] == 0.5
    low, high = a["seat_score_rate"][0]["ci95"]
    assert low < 0.5 < high and not a["seat_score_rate"][0]["excludes_fair"]
    low, high = a["first_seat_margin"]["ci95"]
    assert low < 0 < high and not a["first_seat_margin"]["excludes_fair"]
    assert b["seat_score_rate"][0]["ci95"][0] > 0.5 and b["seat_score_rate"][0]["excludes_fair"]
    assert b["seat_score_rate"][1]["ci95"][1] < 0.5
    assert b["first_seat_margin"]["ci95"][0] > 0 and b["first_seat_margin"]["excludes_fair"]
    d = s["difference"]
    assert d["first_seat_margin"] == {"n": 40, "mean": 10.0, "ci95": [10.0, 10.0]}
    assert d["points_by_kind"]["handicap"]["mean"] == 10.0
    assert a["points_by_kind"]["handicap"]["mean"] == 0.0
    assert d["seat_score_rate"][0]["ci95"][0] > 0
    code, out, _ = balance(capsys, "--game", handicap, "--a", "handicap=0", "--b",
                           "handicap=10", "--agent", "random", "--games", "40")
    rows = {line[:17].strip(): line for line in out.splitlines()}
    assert code == 0 and rows["seat 1 score rate"].count("*") == 1
    assert rows["first seat margin"].count("*") == 1
    assert "+10.00 [+10.00, +10.00]" in rows["first seat margin"]


def test_a_rule_set_may_be_another_family(capsys: pytest.CaptureFixture[str],
                                         handicap: str) -> None:
    """``game=NAME`` plays the set as another family, as ``diff`` reads it."""
    s = measure(capsys, "--game", "base", "--b", "game=handicap", "--b", "handicap=10",
                "--agent", "random", "--games", "2")
    assert s["sets"]["A"]["game"] == "base" and s["sets"]["B"]["game"] == "handicap"
    assert s["difference"]["first_seat_margin"]["mean"] == 10.0


def test_the_same_rules_are_played_once(capsys: pytest.CaptureFixture[str]) -> None:
    """A and B the same rules once the defaults are filled in (small_city=2 is the default):
    one set, no difference."""
    s = measure(capsys, "--game", "base", "--a", "small_city=2", "--agent", "random",
                "--games", "2")
    assert s["same_rules"] and list(s["sets"]) == ["A"] and s["difference"] is None
    code, out, _ = balance(capsys, "--game", "base", "--agent", "random", "--games", "2")
    assert code == 0 and "(the same rules: played once)" in out and "B - A" not in out


@pytest.mark.parametrize(("words", "said"), [
    (["--a", "nosuch=1"], "'nosuch' is not an option of any installed game"),
    (["--a", "small_city=3"], "'3' is not a value of small_city (choose from 2, 4)"),
    (["--b", "small_city"], "give KEY=VALUE"),
    (["--b", "small_city=4", "--b", "small_city=2"], "small_city is given twice"),
    (["--b", "return_timing=immediate"],
     "rule set B (return_timing=immediate): 'return_timing' is not an option of Carcassonne"),
    (["--b", "game=nosuch"], "nosuch"),
    (["--games", "0"], "0 is not from 1 to 100000"),
    (["--games", "100000000"], "100000000 is not from 1 to 100000"),
    (["--games", "lots"], "'lots' is not a whole number"),
    (["--agent", "nosuch"], "'nosuch' is not an agent"),
    (["--agent", "mcts:abc"], "mcts"),
    (["--agent", "greedy:3"], "greedy takes at most 0 positional parameters"),
    (["--agent", "greedy,random"], "give one agent (every seat plays it)"),
    (["--players", "9"], "9 is not from 2 to 6"),
    (["--game", "manhattan", "--players", "6"], "6 players; Manhattan takes 2 to 4"),
    (["--game", "nosuch"], "nosuch"),
    (["--jobs", "0"], "0 is not from 1 to 256"),
    (["--format", "csv"], "invalid choice: 'csv'"),
    (["--out", "/nonexistent/dir/report.txt"], "cannot write /nonexistent/dir/report.txt"),
])
def test_hostile_arguments_exit_2_with_a_clear_line(capsys: pytest.CaptureFixture[str],
                                                    words: list[str], said: str) -> None:
    """Every bad argument: exit 2, what is wrong said on stderr, no traceback, no report."""
    base = {"--game": "base", "--agent": "random", "--games": "2"}
    for i in range(0, len(words) - 1):
        base.pop(words[i], None)
    args = [w for kv in base.items() for w in kv] + words
    code, out, err = balance(capsys, *args)
    assert code == 2, (out, err)
    assert said in err, err
    assert "Traceback" not in err and out == ""


class Page(HTMLParser):
    """The tags and the text of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag not in ("meta", "br"):
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, (tag, self.open[-5:])
        self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_the_page_parses_and_escapes_an_option_s_markup(
        capsys: pytest.CaptureFixture[str], handicap: str, tmp_path: Path) -> None:
    """The HTML report (--out) is well nested, has the seat advantage chart (a whisker per
    seat and set) and shows the option value ``<script>...`` as text, never as markup."""
    from tests.handicap_family import HOSTILE

    out = tmp_path / "balance.html"
    code, stdout, err = balance(capsys, "--game", handicap, "--b", f"banner={HOSTILE}",
                                "--b", "handicap=10", "--agent", "random", "--games", "3",
                                "--format", "html", "--out", str(out))
    assert code == 0 and stdout == "", err
    text = out.read_text(encoding="utf-8")
    page = Page()
    page.feed(text)
    page.close()
    assert page.open == [] and "script" not in page.tags
    assert page.tags.count("svg") == 3 and page.tags.count("circle") == 4
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;" in text
    assert any(HOSTILE in t for t in page.text)
    code, stdout, _ = balance(capsys, "--game", handicap, "--b", f"banner={HOSTILE}",
                              "--agent", "random", "--games", "1")
    assert code == 0 and f"B: banner={HOSTILE}" in stdout


def test_the_report_is_the_same_under_any_hash_seed(tmp_path: Path) -> None:
    """Two interpreters with other ``PYTHONHASHSEED``s (and two workers) write the same
    JSON."""
    outs = []
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-m", "replay", "balance", "--game", "base", "--b",
             "small_city=4", "--agent", "greedy", "--games", "2", "--jobs", "2", "--format",
             "json"], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
            env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert done.returncode == 0, done.stderr
        outs.append(done.stdout)
    assert outs[0] == outs[1] and json.loads(outs[0])["summary"]["games"] == 2
