"""Claims in 03_bm25, each tied to the output that makes it true or computed with aria_kit."""

import inspect
import math
from functools import partial

from lesson_claims import Claim, Lesson, quiz_key_holds
from rank_bm25 import BM25Okapi

from aria_kit.bm25 import STOPWORDS, BM25Index, tokenize
from aria_kit.demo_data import DEMO_FACTS
from aria_kit.evaluation import EVAL_MEMORIES
from aria_kit.exercises import lesson03
from aria_kit.hybrid_memory import HybridMemory

LESSON = Lesson("03_bm25")
DOCS = [tokenize(text) for text, _ in DEMO_FACTS]
QUERY = tokenize("What consensus algorithm does VelocityDB use?")


def rows(fragment: str) -> dict[str, list[str]]:
    """A printed table's rows by their first cell (two header lines and a rule skipped)."""
    lines = LESSON.output(fragment).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("---")) + 1
    return {line.split()[0]: line.split()[1:] for line in lines[start:] if line.strip()}


def n(term: str) -> int:
    return sum(term in doc for doc in DOCS)


IDF_QUERY = "for term in query]"  # cell 6's table: n and idf of each query term
IDF_31 = "rows = [(term, *idf_in(term, demo_texts)"
BY_HAND = "by_hand = bm25_by_hand(query)"
OKAPI_IDF = 'for term in ["consensus", "on", "velocitydb", "alice"]'
FOUR_DOCS = 'compare(["Alice likes Rust", "Alice likes Go", "Alice likes Python", "Bob likes Go"], "Alice")'
TWO_DOCS = 'compare(["Alice likes Rust", "Bob likes Go"], "Rust")'


def _by_hand_order() -> list[str]:
    return list(rows(BY_HAND))


def _raft_wins() -> bool:
    table = rows(BY_HAND)
    order = _by_hand_order()
    assert order[0] == "mem_0003" and float(table["mem_0003"][1]) > 4 * float(table[order[1]][1]), table
    return True


def _two_velocitydb_facts_then_zeros() -> bool:
    table = rows(BY_HAND)
    assert [float(table[i][1]) > 0 for i in _by_hand_order()] == [True] * 3 + [False] * 4, table
    assert all("velocitydb" in DOCS[int(i[4:]) - 1] for i in _by_hand_order()[1:3])
    return True


def _the_against_velocitydb_on_31() -> bool:
    table = rows(IDF_31)
    assert table["the"][2:] == ["13", "0.8630"] and table["velocitydb"][2:] == ["14", "0.7916"], table
    return True


def _okapi_alice_above_velocitydb() -> bool:
    table = rows(OKAPI_IDF)
    assert table["alice"][0] == "5" and table["velocitydb"][0] == "3", table
    assert float(table["alice"][2]) > float(table["velocitydb"][2]), table
    assert math.log((7 - 5 + 0.5) / (5 + 0.5)) < 0  # its raw idf was negative, so the floor took over
    return True


def _after_removal() -> bool:
    index = BM25Index()
    for doc in DOCS:
        index.add(doc)
    index.remove(2)
    assert len(index) == 6 and abs(index.idf("consensus") - math.log(1 + 6.5 / 0.5)) < 1e-12  # n = 0 of N = 6
    return "mem_0003     0.0000" in LESSON.output("kit.remove(2)")


def _floor_negative() -> bool:
    table = [line.split() for line in LESSON.output(FOUR_DOCS).splitlines() if "likes" in line]
    assert [row[-2] for row in table] == ["-0.0209"] * 3 + ["0.0000"], table
    okapi = BM25Okapi([tokenize(t) for t in ["Alice likes Rust", "Alice likes Go", "Alice likes Python", "Bob likes Go"]])
    assert okapi.average_idf < 0 and okapi.idf["likes"] < 0, okapi.idf
    return True


def _floor_is_each_matchs_score() -> bool:
    """The floor, 0.25 × the mean idf, is −0.0209, and each match's whole score: every document has avgdl tokens."""
    corpus = [tokenize(t) for t in ["Alice likes Rust", "Alice likes Go", "Alice likes Python", "Bob likes Go"]]
    okapi = BM25Okapi(corpus)
    floor = okapi.epsilon * okapi.average_idf
    assert f"{floor:.4f}" == "-0.0209" and okapi.idf["alice"] == floor, (floor, okapi.idf)
    assert len({len(doc) for doc in corpus}) == 1, "the four documents should have one length, the average"
    scores = okapi.get_scores(["alice"])
    return all(abs(score - floor) < 1e-15 for score in scores[:3]) and _floor_negative()


def _okapi_ranks_like_the_kit() -> bool:
    """rank_bm25 and the kit order the seven facts alike for the section's query (the printed rows and all seven)."""
    table = rows("okapi = BM25Okapi(docs)")
    printed_kit = sorted(table, key=lambda i: -float(table[i][0]))
    printed_okapi = sorted(table, key=lambda i: -float(table[i][1]))
    assert printed_kit == printed_okapi, table
    okapi = BM25Okapi(DOCS).get_scores(QUERY)
    index = BM25Index()
    for doc in DOCS:
        index.add(doc)
    kit = index.scores(QUERY)
    order = sorted(range(len(DOCS)), key=lambda i: (-kit[i], i))
    return order == sorted(range(len(DOCS)), key=lambda i: (-okapi[i], i))


def _carol_floor() -> bool:
    docs = [tokenize(t) for t in ["Carol plays chess", "Carol plays tennis", "Carol sings", "Dan paints"]]
    okapi = BM25Okapi(docs)
    once = [term for term in okapi.idf if sum(term in doc for doc in docs) == 1]
    assert len(okapi.idf) == 7 and len(once) == 5 and okapi.average_idf > 0 and okapi.epsilon == 0.25
    return okapi.idf["carol"] > 0


_key_holds = partial(quiz_key_holds, "03")  # Q{number}'s computed key is its answer


def _idf_never_zero() -> bool:
    """Lucene's idf at n = N, as BM25Index computes it: a single document of one word, queried with it."""
    index = BM25Index()
    for _ in range(4):
        index.add(["tea"])
    assert all(x > 0 for x in index.scores(["tea"])), "idf reached 0 for a word in every document"
    return all(math.log(1 + 0.5 / (big + 0.5)) > 0 for big in (1, 4, 10**6)) and _key_holds(2)


def _kit_skips_removed_slots() -> bool:
    """BM25Index keeps a removed document's postings (numpy arrays) and skips the slot when it scores."""
    import numpy as np

    index = BM25Index()
    for tokens in (["a", "b"], ["a"], ["a", "c"]):
        index.add(tokens)
    index.remove(1)
    postings = index._postings["a"]
    assert isinstance(postings.slots, np.ndarray) and postings.size == 3 and postings.df == 2
    return index.scores(["a"])[1] == 0.0


def _small_first_then_190_random() -> bool:
    runs = lesson03._runs()
    small = [script for script, _, _ in runs[:len(lesson03.SCRIPTS)]]
    assert small == lesson03.SCRIPTS and all(len(s) <= 8 for s in small), "the hand-made scripts come first"
    assert len(runs) - len(lesson03.SCRIPTS) - 1 == 190, len(runs)  # the last run is the lesson's demo facts
    return True


def _within_1e9() -> bool:
    """A score off by 1e-8 (relative) is refused, one off by 1e-11 passes: the tolerance is 1e-9."""
    from aria_kit.solutions.lesson03 import DictIndex

    def off_by(relative):
        class Off(DictIndex):
            def scores(self, query_tokens):
                return [x * (1 + relative) for x in super().scores(query_tokens)]
        return Off

    script = [("add", ["a"]), ("add", ["b"]), ("query", ["a"])]
    return (lesson03._failure(off_by(1e-8), script, 1.5, 0.75) is not None
            and lesson03._failure(off_by(1e-11), script, 1.5, 0.75) is None)


TEA = ["tea is hot", "green tea", "iced tea please", "tea"]
RUST = ["Rust, Rust, Rust, Rust!", "Rust is fun here"]


CLAIMS = [
    Claim("drops the words of `aria_kit.bm25.STOPWORDS` from queries by default",
          lambda: tokenize("the data is") == ["the", "data", "is"] and {"the", "is"} <= STOPWORDS
          and inspect.signature(HybridMemory).parameters["stopwords"].default is STOPWORDS),
    Claim("vector search ranked the wrong order first for \"order 4812\"",
          lambda: "order 4812  mem_0014         2  mem_0007" in Lesson("02_embeddings").output('("order 4812", "mem_0014")')),
    Claim("`4821` is one token", lambda: tokenize("Order #4821") == ["order", "4821"]),
    Claim("`HybridMemory` stems by default, a choice",
          lambda: inspect.signature(HybridMemory).parameters["stemming"].default is True),
    Claim("`aria_kit` uses $k_1 = 1.5$", lambda: BM25Index().k1 == 1.5 and "k1 = 1.5 (limit 2.5)" in LESSON.output("k1 = 1.5")),
    Claim("`aria_kit` uses $b = 0.75$", lambda: BM25Index().b == 0.75),
    Claim("The idf of each query word over the seven demo facts", lambda: len(DOCS) == 7 and "N = 7 facts" in LESSON.output(IDF_QUERY)),
    Claim("\"consensus\" and \"algorithm\" are in one fact each and weigh most",
          lambda: rows(IDF_QUERY)["consensus"] == rows(IDF_QUERY)["algorithm"] == ["1", "1.6740"]
          and all(float(v[1]) <= 1.6740 for k, v in rows(IDF_QUERY).items() if v[0] != "0")),
    Claim("\"velocitydb\" is in three and weighs less", lambda: rows(IDF_QUERY)["velocitydb"] == ["3", "0.8267"]),
    Claim("are in no fact (\"use\" is not \"uses\")",
          lambda: all(rows(IDF_QUERY)[t][0] == "0" for t in ("what", "does", "use"))),
    Claim("\"the\" and \"is\" are each in three facts", lambda: rows(IDF_31)["the"][:2] == rows(IDF_31)["is"][:2]
          == rows(IDF_31)["velocitydb"][:2] == ["3", "0.8267"]),
    Claim("with the 31 memories of", lambda: len(EVAL_MEMORIES) == 31 and EVAL_MEMORIES[:7] == DEMO_FACTS),
    Claim("a made-up collection of 1,000 documents", lambda: "990 of 1,000" in LESSON.output("'the' in 990")),
    Claim("Even on 31 memories \"the\" (in 13)", _the_against_velocitydb_on_31),
    Claim("does its idf fall close to 0", lambda: "idf = 0.0105" in LESSON.output("'the' in 990")),
    Claim("The Raft fact wins by far", _raft_wins),
    Claim("The other two VelocityDB facts score a little", _two_velocitydb_facts_then_zeros),
    Claim("small ones first, then 190 at random", _small_first_then_190_random),
    Claim("and wants the same slots, the same refusals and scores within", _within_1e9),
    Claim("then both forget the Raft fact (slot 2)", lambda: DEMO_FACTS[2][0].startswith("VelocityDB uses the Raft")),
    Claim("$N$ drops to 6", _after_removal),
    Claim("uses the same $k_1$ and $b$ by default",
          lambda: (BM25Okapi(DOCS).k1, BM25Okapi(DOCS).b) == (BM25Index().k1, BM25Index().b)),
    Claim("$\\varepsilon = 0.25$", lambda: BM25Okapi(DOCS).epsilon == 0.25),
    Claim("It is positive when most words of the corpus are rare", lambda: BM25Okapi(DOCS).average_idf > 0),
    Claim("On the demo facts the two rankings agree for this query", _okapi_ranks_like_the_kit),
    Claim("\"alice\" is in five of the seven facts", lambda: n("alice") == 5 and n("velocitydb") == 3),
    Claim("Under `rank_bm25`, \"alice\" (five facts)", _okapi_alice_above_velocitydb),
    Claim("for a corpus of 7 documents", lambda: any("plot_idf(7)" in cell.source for cell in LESSON.notebook.cells)),
    Claim("It agrees with the hand computation of section 5",
          lambda: "agrees with the hand computation: True" in LESSON.output('print("BM25Index agrees')),
    Claim("is one such design (postings in numpy arrays, removed slots skipped", _kit_skips_removed_slots),
    Claim("crosses zero at n = N/2", lambda: abs(math.log((7 - 3.5 + 0.5) / (3.5 + 0.5))) < 1e-12),
    Claim("Two documents, and a query word in exactly one of them",
          lambda: [line.split()[-2] for line in LESSON.output(TWO_DOCS).splitlines()[3:]] == ["0.0000", "0.0000"]),
    Claim("`rank_bm25` scores both documents 0", lambda: math.log(1.5 / 1.5) == 0
          and [line.split()[-2] for line in LESSON.output(TWO_DOCS).splitlines()[3:]] == ["0.0000", "0.0000"]),
    Claim("so that \"alice\" is in three of four", lambda: LESSON.output(FOUR_DOCS).count("Alice likes") == 3),
    Claim("\"likes\" is in all four and \"alice\" in three", _floor_negative),
    Claim("In these four documents most words are common", _floor_negative),
    Claim("here −0.0209: each match's whole score", _floor_is_each_matchs_score),
    Claim("and a search would rank \"Bob likes Go\" first", _floor_negative),
    Claim("For the query 'Carol', how do the three documents with 'carol' score?", lambda: _carol_floor() and _key_holds(4)),
    Claim("five of its seven words occur once, so the mean is positive", _carol_floor),
    Claim("in the lesson's four documents most words were common and the mean idf negative",
          lambda: _floor_negative() and _carol_floor()),
    # The quiz's predict questions: each key is what the kit does on the question's case.
    Claim("bob | ssd | 2tb | arrived", lambda: _key_holds(1)),
    Claim("'2tb' stays whole, as 'v1' and 'ddr5' do",
          lambda: tokenize("v1 DDR5") == ["v1", "ddr5"] and _key_holds(1)),
    Claim("Four memories: 'tea is hot', 'green tea', 'iced tea please' and 'tea'.", lambda: _key_holds(2)),
    Claim("Every one contains 'tea'.", lambda: all("tea" in tokenize(text) for text in TEA)),
    Claim("stays above 0 even for n = N", _idf_never_zero),
    Claim("so it never reaches 0", _idf_never_zero),
    Claim("but b = 0.75 scales each match by the memory's length", lambda: BM25Index().b == 0.75 and _key_holds(2)),
    Claim("Two memories of four tokens each", lambda: [len(tokenize(text)) for text in RUST] == [4, 4] and _key_holds(3)),
    Claim("1 for tf = 1 and 4 × 2.5/5.5 ≈ 1.82 for tf = 4",
          lambda: BM25Index().k1 == 1.5 and round(4 * 2.5 / 5.5, 2) == 1.82 and _key_holds(3)),
    Claim("About 1.8 times: each extra occurrence adds less", lambda: _key_holds(3)),
    Claim("four occurrences are well short of it", lambda: 4 * 2.5 / 5.5 < 2.5 and _key_holds(3)),
]

EXEMPT = {
    "(\"best match 25\")": "the name BM25",
    "Will the three documents that contain \"alice\" score": "a prediction prompt; the table below it answers",
    "A word mentioned twice suggests a document": "the idea of saturation, shown by cell 4's table",
    "BM25 makes each extra occurrence count less": "a property of the formula, shown by cell 4's table",
    "tells us nothing; one found in a single document": "the idea of idf, shown by cell 6's table",
    "That is one reason small or specialised collections": "a general remark; 'one reason' is no count",
    "where it is one word among many": "the idea of length normalisation, shown by cell 11's table",
    "0 ignores length, 1 scales fully": "the definition of b",
    "without the \"1 +\"": "names a term of the formula",
    "That is 0 for a word in exactly half the documents": "a property of the formula; cell 34 shows it",
    "idf can be negative, so on small corpora a match can lower": "recap of cells 33–35",
        "with three methods.": "names the three methods listed below it",
    "stores one document and returns its **slot**": "the exercise's specification, checked by check_bm25_index",
    "returns one BM25 score per slot ever handed out": "the exercise's specification, checked by check_bm25_index",
    "reduce word families to one token": "the stretch task's specification, checked by check_stemmer",
    "(the worked answer is one)": "'is one' names the worked answer",
    "fuses the vector and the BM25 ranking into one": "announces lesson 04, which shows it",
        "bob | ssd | 2 | tb | arrived": "a wrong option; the computed key rules it out",
    "bob | ssd | 2tb | arriv": "a wrong option; the computed key rules it out",
    "splitting on spaces alone would keep the punctuation": "why a wrong option fails: what splitting on spaces does",
    "A negative score each: the word is in more than half the memories.": "a wrong option; the computed key rules it out",
    "0 each: a word found in every memory carries no information.": "a wrong option; the computed key rules it out",
    "The same positive score each": "a wrong option; the computed key rules it out",
    "4 times: four occurrences, four times the evidence.": "a wrong option; the computed key rules it out",
    "2.5 times: with k1 = 1.5 a repeated word jumps": "a wrong option; the computed key rules it out",
    "carol is in 3 of 4 documents, so its idf is negative": "a wrong option; the computed key rules it out",
    "rank_bm25's floor stops a negative idf at 0": "a wrong option; the computed key rules it out",
    "Above 'Dan paints', all three equal": "a wrong option; the computed key rules it out",
    "the floor is not 0 but 0.25 × the mean idf": "how rank_bm25's floor is defined (epsilon = 0.25); section 7 shows it",
}
