"""Claims in 01_interfaces, each tied to the output or the package default that makes it true."""

from default_search import names_the_default_search
from lesson_claims import Claim, Lesson

LESSON = Lesson("01_interfaces")

CLAIMS = [
    # What the kit's memories put in a hit's score: the default fusion (issue 20).
    Claim("The kit's own memories put a", names_the_default_search(LESSON, "The kit's own memories put a")),
]

EXEMPT: dict[str, str] = {}
