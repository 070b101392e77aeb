"""docs/rules.md, the in-repo copy of the normative rules, defines every rule id the project uses.

An id is *defined* in a rules file where it opens a bold run at the start of a line, the way
RULES.md marks its rules: ``- **G5 Unplaceable tile.**``, ``- **L1** A log ...`` and the
continuation line ``  **B4a small city (option):** ...``. Mentions elsewhere (decisions, prose)
do not count.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"
SHARED_RULES = ROOT / "docs" / "reference" / "RULES.md"  # the shared folder's, unchanged

ID = r"(?:G|B|IC|HS|HG|L|M)\d+[a-z]?"
DEFINED = re.compile(rf"^[ \t]*(?:-[ \t]+)?\*\*({ID})\b", re.MULTILINE)
# in a test name: an id between underscores (or at the end), e.g. test_B4a_..., test_..._L4;
# a lower-case id right after ``test_`` (test_hg13_...) counts too
IN_TEST_NAME = re.compile(rf"(?<=_)({ID})(?=_|$)")
LOWER_PREFIX = re.compile(r"^test_(g|b|ic|hs|hg|l|m)(\d+[a-z]?)_")
QUOTED = re.compile(rf"""(["'])({ID})\1""")


def defined_ids(text: str) -> set[str]:
    return set(DEFINED.findall(text))


def doc_ids() -> set[str]:
    return defined_ids(RULES_DOC.read_text(encoding="utf-8"))


def collect_test_names() -> list[tuple[str, str]]:
    """(file name, function name) of every test function under tests/, methods included."""
    names: list[tuple[str, str]] = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
                "test_"
            ):
                names.append((path.name, node.name))
    return names


def ids_in_test_name(name: str) -> set[str]:
    found = set(IN_TEST_NAME.findall(name))
    lower = LOWER_PREFIX.match(name)
    if lower:
        found.add(lower.group(1).upper() + lower.group(2))
    return found


def test_defined_ids_regex_reads_the_rules_format() -> None:
    text = (
        "- **G5 Unplaceable tile.** If ...\n"
        "  **B4a small city (option):** a complete ...\n"
        "- **L1** A log names ...\n"
        "- **Decision (HG7).** not a definition; nor is **HG7** in prose\n"
    )
    assert defined_ids(text) == {"G5", "B4a", "L1"}
    assert ids_in_test_name("test_B4a_small_city_scores_2") == {"B4a"}
    assert ids_in_test_name("test_golden_playthrough_L4") == {"L4"}
    assert ids_in_test_name("test_hg13_land_totals") == {"HG13"}
    assert ids_in_test_name("test_same_bytes_under_two_PYTHONHASHSEEDs") == set()


def test_ids_in_test_names_are_defined_in_rules_doc() -> None:
    defined = doc_ids()
    missing = sorted(
        f"{rule} ({file}::{name})"
        for file, name in collect_test_names()
        for rule in ids_in_test_name(name)
        if rule not in defined
    )
    assert not missing, f"rule ids in test names but not in docs/rules.md: {missing}"


def test_ids_quoted_in_engine_code_are_defined_in_rules_doc() -> None:
    defined = doc_ids()
    used: dict[str, set[str]] = {}
    for path in sorted((ROOT / "replay").rglob("*.py")):
        for _, rule in QUOTED.findall(path.read_text(encoding="utf-8")):
            used.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    assert used, "no quoted rule id found in replay/"
    missing = {rule: sorted(files) for rule, files in sorted(used.items()) if rule not in defined}
    assert not missing, f"rule ids quoted in replay/ but not in docs/rules.md: {missing}"


def test_every_id_of_the_shared_rules_is_in_rules_doc() -> None:
    defined = doc_ids()
    shared = defined_ids(SHARED_RULES.read_text(encoding="utf-8"))
    assert len(shared) >= 60, f"only {len(shared)} rule ids found in {SHARED_RULES}"
    missing = sorted(shared - defined)
    assert not missing, f"rule ids of docs/reference/RULES.md missing from docs/rules.md: {missing}"


TITLED = re.compile(rf"^[ \t]*(?:-[ \t]+)?\*\*({ID})\b([^*]*)\*\*", re.MULTILINE)


def test_every_rule_id_has_the_name_of_its_title_in_rules_doc() -> None:
    """``replay.core.rule_names`` (what reports show beside a rule id) names every id of
    docs/rules.md by its title there: the bold words after the id, without their closing stop
    (the untitled L1-L4 by a name of their own), and names nothing else."""
    from replay.core.rule_names import RULE_NAMES, UNTITLED, rule_label

    titles = {}
    for rule, title in TITLED.findall(RULES_DOC.read_text(encoding="utf-8")):
        title = title.strip().rstrip(".:")
        titles[rule] = title[:1].upper() + title[1:]
    assert set(RULE_NAMES) == set(titles) == doc_ids()
    assert {r for r, t in titles.items() if not t} == UNTITLED
    differ = {r: (RULE_NAMES[r], t) for r, t in titles.items() if t and RULE_NAMES[r] != t}
    assert not differ, f"names that are not the titles of docs/rules.md: {differ}"
    assert rule_label("G5") == "G5 · Unplaceable tile" and rule_label("L2") == "L2 · Claimed scores"
    assert rule_label("not UTF-8") == "not UTF-8" and rule_label(None) == ""
