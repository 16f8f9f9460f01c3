"""The phrasings sets for the conflict check on write: shape, size, and that the held-out set stays frozen.

These files were written by a writer who did not see the rules (issue 29, item 5); this test checks their
form and sizes only, never how any rule scores on them.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

WRITE_CONFLICTS = Path(__file__).resolve().parent.parent / "aria_kit" / "data" / "write_conflicts"
SPLITS = ("phrasings_dev", "phrasings_heldout")
# The held-out set was frozen before any tuning (commit "…FROZEN before tuning"); dev is pinned too, so a
# rule author who edits either file to fit a rule sees this test fail. Change a digest only with a new set.
FROZEN_SHA256 = {
    "phrasings_dev": "8d8d3407c93830054e0d47969663fda94b63012327d6905d8ae1e4a38dd88597",
    "phrasings_heldout": "53401d9b08a2268382fcdd3857de9e1b7bd593bf063747ef8d6bbd8c2717de3b",
}
KINDS_OF_DIFFERENCE = {"sign", "case", "decimal", "symbol", "emoji"}


def _sequences(split: str) -> list[dict]:
    lines = (WRITE_CONFLICTS / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def _writes(split: str) -> list[dict]:
    return [w for s in _sequences(split) for w in s["writes"]]


@pytest.mark.parametrize("split", SPLITS)
def test_the_file_is_the_one_frozen_before_tuning(split: str) -> None:
    digest = hashlib.sha256((WRITE_CONFLICTS / f"{split}.jsonl").read_bytes()).hexdigest()
    assert digest == FROZEN_SHA256[split], f"{split}.jsonl changed after it was frozen"


@pytest.mark.parametrize("split", SPLITS)
def test_every_write_has_a_label_and_every_of_points_back_to_an_earlier_write(split: str) -> None:
    sequences = _sequences(split)
    assert len({s["id"] for s in sequences}) == len(sequences), "sequence ids repeat"
    for s in sequences:
        for i, w in enumerate(s["writes"]):
            assert isinstance(w["text"], str) and w["text"].strip(), (s["id"], i)
            assert w["label"] in ("new", "replaces", "duplicate"), (s["id"], i)
            if w["label"] == "new":
                assert "of" not in w, (s["id"], i)
            else:
                assert isinstance(w["of"], int) and 0 <= w["of"] < i, (s["id"], i)


@pytest.mark.parametrize("split", SPLITS)
def test_a_replacement_never_targets_a_write_that_was_already_replaced_or_was_a_repeat(split: str) -> None:
    # In a chain A, B replaces A, C: C must replace B, the version current when C is told (README).
    for s in _sequences(split):
        stale = set()
        for i, w in enumerate(s["writes"]):
            if w["label"] != "new":
                assert w["of"] not in stale, (s["id"], i)
            if w["label"] == "replaces":
                stale.add(w["of"])
            if w["label"] == "duplicate":
                stale.add(i)


@pytest.mark.parametrize(("split", "updates", "forms", "pairs"),
                         [("phrasings_dev", 60, 10, 12), ("phrasings_heldout", 40, 10, 12)])
def test_the_set_has_enough_updates_forms_and_pairs_that_differ_only_by_a_mark(
        split: str, updates: int, forms: int, pairs: int) -> None:
    writes = _writes(split)
    replacements = [w for w in writes if w["label"] == "replaces"]
    assert all("form" in w for w in replacements), "every replacement names its form"
    by_form = Counter(w["form"] for w in replacements if w["form"] != "same_sentence_new_value")
    assert sum(by_form.values()) >= updates and len(by_form) >= forms, by_form
    marked = [w for w in writes if w.get("differs_by") in KINDS_OF_DIFFERENCE]
    assert len(marked) >= pairs and all(w.get("why") for w in marked)
    assert {w["label"] for w in marked} == {"new", "replaces", "duplicate"}


def test_no_sentence_is_in_both_dev_and_heldout() -> None:
    def texts(split: str) -> set[str]:
        return {w["text"].strip().lower() for w in _writes(split)}

    assert texts("phrasings_dev").isdisjoint(texts("phrasings_heldout"))
    assert texts("phrasings_dev").isdisjoint(texts("dev") | texts("heldout"))
    assert texts("phrasings_heldout").isdisjoint(texts("dev") | texts("heldout"))


def test_the_readme_counts_match_the_files() -> None:
    readme = (WRITE_CONFLICTS / "README.md").read_text(encoding="utf-8")
    for split, name in (("phrasings_dev", "dev"), ("phrasings_heldout", "held-out")):
        writes = _writes(split)
        labels = Counter(w["label"] for w in writes)
        claim = (f"{name}: {len(_sequences(split))} sequences, {len(writes)} writes ({labels['replaces']} replacements, "
                 f"{labels['duplicate']} duplicates)")
        assert claim in readme, claim
    for form, n_dev, n_heldout in _form_table():
        for split, n in (("phrasings_dev", n_dev), ("phrasings_heldout", n_heldout)):
            assert sum(w.get("form") == form and w["label"] == "replaces" for w in _writes(split)) == n, (form, split)


def _form_table() -> list[tuple[str, int, int]]:
    """Rows `| `form` | dev | held-out | … |` of the README's phrasings table."""
    rows = []
    for line in (WRITE_CONFLICTS / "README.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and cells[0].startswith("`") and cells[1].isdigit() and cells[2].isdigit():
            rows.append((cells[0].strip("`"), int(cells[1]), int(cells[2])))
    assert len(rows) >= 10, "the README's table of forms was not found"
    return rows
