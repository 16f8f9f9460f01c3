"""Claims in 00_welcome, each tied to the output or the package default that makes it true."""

from default_search import names_the_default_search
from lesson_claims import Claim, Lesson

LESSON = Lesson("00_welcome")

CLAIMS = [
    # The default fusion, stated in the opening, the lesson table and quiz Q1's explanation (issue 20).
    Claim("Aria's memory search is the heart of the course", names_the_default_search(LESSON, "Aria's memory search is the heart of the course", stems=True)),
    Claim("your own hybrid memory", names_the_default_search(LESSON, "your own hybrid memory")),
    Claim("vector search finds paraphrases", names_the_default_search(LESSON, "vector search finds paraphrases")),
]

EXEMPT: dict[str, str] = {}
