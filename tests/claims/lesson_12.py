"""Claims in 12_going_further_qdrant, each tied to the output that makes it true."""

import re

from lesson_claims import Claim, Lesson

LESSON = Lesson("12_going_further_qdrant")
LESSON_05 = Lesson("05_measuring_memory")


def _heldout_default_vs_seed(data_set: str) -> tuple[float, float, float]:
    """Lesson 05's held-out recall@5 difference, kit default minus seed, with its 95% interval."""
    table = LESSON_05.output("for name, split in heldout.items()")
    row = re.search(rf"^{data_set}\s+kit default vs seed \(RRF 60\)\s+\d+\s+\d+\s+\d+\s+(\S+)\s+(\S+)\s+(\S+)",
                    table, re.M)
    assert row, f"lesson 05 prints no held-out row for the kit default against the seed on {data_set}"
    return tuple(float(x) for x in row.groups())


def _default_measured_to_find_more() -> bool:
    difference, low, high = _heldout_default_vs_seed("chitchat")
    assert low > 0, (f"on held-out chitchat the default leads the seed by {difference:+.3f} "
                     f"[{low:+.3f}, {high:+.3f}]: an interval that includes 0 is not 'measured to find more'")
    return True


def _some_rank_differs() -> bool:
    same = re.search(r"(\d+) of (\d+) \(query, memory\) pairs have the same two ranks", LESSON.output("same_ranks"))
    assert same and same.group(1) != same.group(2), f"no rank differs between the backends ({same.group(0)})"
    return True


CLAIMS = [
    Claim("measured to find more on real conversations", _default_measured_to_find_more),
    Claim("a memory whose rank differed would be red", _some_rank_differs),
]
EXEMPT: dict[str, str] = {}
