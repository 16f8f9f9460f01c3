"""Sentences the scanner's architecture and chart rules flag in lessons due for a rewrite, parked until then.

When the scanner learned to flag sentences about the architecture (what the system message holds, where
recalled memories go, which fusion) and about charts (lines, slopes, crossings, bars), these sentences of
lessons owned by other work were flagged. Their lessons are rewritten after the two memory issues land;
until then each is listed here with that reason, and tests/test_claims.py counts it as covered. Work the
list down: give the sentence a claim in tests/claims/lesson_NN.py (or an exemption with its own reason) and
delete it here. A parked fragment that is in no sentence any more fails as stale, and only a sentence the
new rules flag may be parked (a number or an order still needs its claim).
"""

REWRITE = "lesson rewritten after the memory issues land"

PENDING: dict[str, dict[str, str]] = {
}
