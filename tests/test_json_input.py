"""Untrusted JSON (replay.core.json_input and the schema check): I-JSON, structural limits
before any schema keyword, a bounded number of schema errors. Each test names the finding of
the drill it answers (D2-D5, D8)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from replay.core import json_input
from replay.core.errors import LogFormatError
from replay.core.json_input import MAX_DEPTH, MAX_ITEMS, MAX_STRING, decode
from replay.core.record import read_game, schema_check
from replay.generate import dumps, generate_log

LOG = generate_log("base", 2, 3, ("inns-cathedrals",))


def refusal(value: Any) -> LogFormatError:
    with pytest.raises(LogFormatError) as info:
        read_game(value if isinstance(value, str | bytes) else json.dumps(value))
    return info.value


def with_(**changes: Any) -> dict[str, Any]:
    log = json.loads(json.dumps(LOG))
    log.update(changes)
    return log


def test_a_long_array_is_refused_before_the_schema_sees_it(monkeypatch: Any) -> None:
    """D2: uniqueItems over 8,000 expansions never finished; the bound comes first now."""
    calls = []
    real = Draft202012Validator.iter_errors
    monkeypatch.setattr(Draft202012Validator, "iter_errors",
                        lambda self, value: calls.append(value) or real(self, value))
    err = refusal(with_(expansions=[{"a": i} for i in range(8000)]))
    assert err.path == "/expansions" and f"at most {MAX_ITEMS}" in err.message
    assert calls == []


def test_moves_failing_the_fast_check_cost_one_move_of_schema_errors(monkeypatch: Any) -> None:
    """D3: a 5 MB log whose moves all fail the fast path kept and sorted every error."""
    seen = 0
    real = Draft202012Validator.iter_errors

    def counting(self: Draft202012Validator, value: Any) -> Any:
        nonlocal seen
        for error in real(self, value):
            seen += 1
            yield error

    monkeypatch.setattr(Draft202012Validator, "iter_errors", counting)
    bad_move = {"x": "a", "y": "b", "rotation": 45, "tile": 7, "figure": [], "flock": 3}
    err = refusal(with_(moves=[bad_move] * 1000))
    assert err.path.startswith("/moves/0/")
    assert seen <= 16


def test_a_lone_surrogate_is_refused_with_its_path() -> None:
    """D4: "\\ud800" was accepted, then crashed the CLI and the viewer."""
    log = with_()
    log["moves"][3]["tile"] = "\ud800"
    assert refusal(log).path == "/moves/3/tile"
    assert decode('{"a": ["\\ud83c\\udfb2"]}') == {"a": ["\U0001f3b2"]}  # a pair is a character
    with pytest.raises(LogFormatError) as info:
        decode('{"a": {"\\udc00": 1}}')
    assert info.value.path.startswith("/a/")


@pytest.mark.parametrize(("where", "value"), [
    ("rotation", 0.0), ("x", 1.0), ("y", -0.0), ("rotation", 9e1)])
def test_a_float_is_never_read_as_an_integer(where: str, value: float) -> None:
    """D5, D8: ``"rotation": 0.0`` crashed the engine; ``"x": 1.0`` changed the state hash."""
    log = with_()
    log["moves"][1][where] = value
    err = refusal(log)
    assert err.path == f"/moves/1/{where}" and "not an integer" in err.message


def test_the_seed_is_an_integer_or_a_string_never_a_float() -> None:
    """D8: ``"seed": 1.0`` was read as the string "1.0" (another draw pile)."""
    assert refusal(with_(seed=1.0)).path == "/seed"
    assert read_game(json.dumps(with_(seed=1))).config.seed == "1"


def test_numbers_in_meta_are_free() -> None:
    assert read_game(json.dumps(with_(meta={"duration_h": 1.5}))).raw["meta"] == {
        "duration_h": 1.5}


def test_a_duplicate_key_is_refused_with_its_path() -> None:
    text = dumps(LOG)
    twice = text.replace('"rotation": ', '"rotation": 0, "rotation": ', 1)
    err = refusal(twice)
    assert "twice" in err.message and err.path.startswith("/moves/") \
        and err.path.endswith("/rotation")


@pytest.mark.parametrize(("tail", "why"), [
    ("[" * 100_000 + "]" * 100_000, "nested deeper than Python's parser goes"),
    ("1" * 5_000, "an integer over Python's 4,300 digits"),
    ('{"b": }', "a syntax error"),
    ("NaN", "a constant"),
])
def test_a_duplicate_key_before_what_a_parse_cannot_read_is_still_a_refusal(
        tail: str, why: str) -> None:
    """The first parse stops at the duplicate; the second, which looks for its path, meets
    what follows (issue 29): the key is refused all the same, without a path."""
    err = refusal('{"format": 1, "meta": [{"a": 1, "a": 2}, ' + tail + "]}")
    assert "'a' appears twice" in err.message, why
    assert err.path == "", why


def test_a_duplicate_key_in_a_foreign_file_is_refused_through_the_one_path() -> None:
    """The same inputs reach the importers: ``verify`` says unreadable (exit 2), no crash."""
    from replay.core.verify import verify

    report = verify(b'{"x": {"a": 1, "a": 2}, "b": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    assert not report.readable and report.exit_code == 2
    assert report.failure is not None and "appears twice" in report.failure.message


@pytest.mark.parametrize(("value", "path", "words"), [
    ({"meta": {"a": "x" * (MAX_STRING + 1)}}, "/meta/a", "characters"),
    ({"meta": {"a": json.loads("[" * MAX_DEPTH + "]" * MAX_DEPTH)}}, "/meta/a/0/0/0/0/0/0",
     "levels"),
    ({"claims": {"final_scores": {f"p{i}": 1 for i in range(100)}}}, "/claims/final_scores",
     "keys"),
])
def test_structural_limits_say_where(value: dict[str, Any], path: str, words: str) -> None:
    err = refusal(with_(**value))
    assert err.path == path and words in err.message


@pytest.mark.parametrize("text", [b"\xff", b"[NaN]", b"1" * 5000, b"[" * 100_000, b'{"a":'])
def test_junk_is_a_log_format_error(text: bytes) -> None:
    with pytest.raises(LogFormatError):
        decode(text)


def test_a_valid_log_passes_the_checks_unchanged() -> None:
    schema_check(LOG)
    assert read_game(dumps(LOG)).raw == LOG


# ------------------------------------------------ the fast decoder agrees with the reference

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70),
                     st.floats(allow_nan=False, allow_infinity=False),
                     st.text(alphabet=st.sampled_from('ab:"\\é\u2028{}[],'), max_size=6))
_KEYS = st.sampled_from(["a", "b", "a:b", 'q"', "é", "", "moves"])
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=4)), max_leaves=12)
# text edits that make duplicates, escapes, surrogates, big numbers, junk
_EDITS = st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(
    ['"a": 1, ', '"a":2,', ':', '"\\ud800"', '"\\u003a"', '"\\udc00\\ud800"', "1e400",
     "123456789012345678901234567890", "-0", "NaN", "\ufeff", "\t", ",", "}", "{", '"',
     "\\", "\u00e9", "\x00"])), max_size=3)


def _outcome(text: str, fast: bool) -> tuple[str, str]:
    try:
        return "value", repr(decode(text, fast=fast))  # repr: 1 and 1.0 and True differ
    except LogFormatError as exc:
        return "error", f"{exc.path} {exc.message}"


@settings(max_examples=600, derandomize=True, deadline=None)
@given(_VALUES, _EDITS)
def test_the_fast_decoder_gives_the_reference_value_or_error(value: Any,
                                                             edits: list[tuple[int, str]]) -> None:
    """orjson's value is taken only when it must equal the standard library's; every other
    text (duplicate keys, big integers, floats, surrogates, junk) gets the reference's
    value or message, word for word."""
    text = json.dumps(value, ensure_ascii=False)
    for at, piece in edits:
        text = text[:at % (len(text) + 1)] + piece + text[at % (len(text) + 1):]
    fast, slow = _outcome(text, True), _outcome(text, False)
    event(f"outcome: {slow[0]}")
    taken = json_input._fast_decode(text) is not json_input._SLOW
    event(f"taken by orjson: {taken}")
    assert fast == slow


def test_the_fast_decoder_reads_a_real_log_as_the_reference_does() -> None:
    text = dumps(generate_log("manhattan", 3, 5))
    assert decode(text) == decode(text, fast=False) == json.loads(text)
