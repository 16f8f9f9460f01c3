"""A development set for the offline stand-in: user messages of many shapes, with the expected tool and answer.

Written by hand, not taken from the demo: each message is phrased the way a person
might type it, and none was tuned after the fact. ``Case.tool`` is the tool the
first model call should ask for (None: a reply with no tool). What the answer
must contain depends on the tool:

- calculator: ``value`` (computed here by Python) and ``unit`` appear as "= value unit";
- memory_store: the stored ``text`` and ``category``;
- memory_search: exactly the memory ids in ``cites`` are quoted (empty: the answer says
  memory has no answer);
- web_search: the ``query`` sent.

``fails`` names what the stand-in cannot do yet, for the cases it gets wrong: the test
suite expects those to fail (strict xfail), so fixing one is noticed.

History (2026-11-30): the first run of ``CASES`` against the rules as first written passed
90 of 98; the misses were fixed by general rules (a remainder sign, the typographic minus,
"take X from Y", "P% tip on X", irregular unit plurals, "could you remember that …",
acronyms are not names, "what does X stand for"), then all 98 passed. ``HELD_OUT`` was
written after that and passed 29 of 30 on its first run; it was not used to change a rule.
``python tests/test_offline_devset.py`` prints the current rates by category.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from aria_kit.demo_data import DEMO_FACTS

MEMORIES = DEMO_FACTS + [  # stored in this order: mem_0001 … mem_0012 (the seven demo facts first)
    ("Bob lives in Lisbon.", "fact"),
    ("Bob's cat is called Miso.", "fact"),
    ("The staging server is called Tern.", "fact"),
    ("My dentist appointment is on Tuesday at 9 am.", "calendar"),
    ("We chose PostgreSQL for the billing service.", "decision"),
]


@dataclass(frozen=True)
class Case:
    category: str
    message: str
    tool: str | None
    value: float | None = None
    unit: str = ""
    text: str = ""
    stored_category: str = ""
    cites: frozenset[str] = field(default_factory=frozenset)
    query: str = ""
    fails: str = ""


def calc(category: str, message: str, value: float, unit: str = "", fails: str = "") -> Case:
    return Case(category, message, "calculator", value=value, unit=unit, fails=fails)


def store(message: str, text: str, category: str, fails: str = "") -> Case:
    return Case("remember", message, "memory_store", text=text, stored_category=category, fails=fails)


def search(message: str, *ids: str, category: str = "recall", fails: str = "") -> Case:
    return Case(category, message, "memory_search", cites=frozenset(ids), fails=fails)


def web(message: str, query: str, fails: str = "") -> Case:
    return Case("lookup", message, "web_search", query=query, fails=fails)


CASES = [
    # arithmetic written as expressions
    calc("expression", "What is 12 * 7?", 12 * 7),
    calc("expression", "calculate (15 + 27) / 6", (15 + 27) / 6),
    calc("expression", "19.99 * 3 = ?", 19.99 * 3),
    calc("expression", "how much is 1,250 - 380", 1250 - 380),
    calc("expression", "what's 7 x 8", 7 * 8),
    calc("expression", "2^16", 2**16),
    calc("expression", "Compute 100 / 8 + 3.5", 100 / 8 + 3.5),
    calc("expression", "What is 45 % 7?", 45 % 7),
    calc("expression", "14 × 3 − 2?", 14 * 3 - 2),
    calc("expression", "Evaluate sqrt(2) * 10", 2**0.5 * 10),
    # arithmetic written in words
    calc("words", "What is seven times eight?", 7 * 8),
    calc("words", "what is twelve plus thirty", 12 + 30),
    calc("words", "How much is one hundred and five minus six?", 105 - 6),
    calc("words", "add 17 and 25", 17 + 25),
    calc("words", "subtract 9 from 40", 40 - 9),
    calc("words", "divide 144 by 12", 144 / 12),
    calc("words", "multiply 6 by 7", 6 * 7),
    calc("words", "What is twenty-one divided by three?", 21 / 3),
    calc("words", "what's the sum of 120 and 80?", 120 + 80),
    calc("words", "What is half of 90?", 90 / 2),
    calc("words", "What is the product of 4 and 12?", 4 * 12),
    calc("words", "What do you get if you take 8 from 20?", 20 - 8),
    # percentages
    calc("percent", "What is 17% of 2450?", 17 / 100 * 2450),
    calc("percent", "What is 17% of 2450 plus 3 squared?", 17 / 100 * 2450 + 3**2),
    calc("percent", "how much is 15 percent of 80", 15 / 100 * 80),
    calc("percent", "Increase 200 by 15%", 200 * 1.15),
    calc("percent", "What is 25% off 60?", 60 * 0.75),
    calc("percent", "Calculate 8.5% of 1,200", 8.5 / 100 * 1200),
    calc("percent", "decrease 500 by 20 percent", 500 * 0.8),
    calc("percent", "A 12% tip on a 45 euro bill — how much is the tip?", 0.12 * 45, "euros"),
    # powers and roots
    calc("power", "What is 5 cubed?", 5**3),
    calc("power", "what's 12 squared", 12**2),
    calc("power", "2 to the power of 10", 2**10),
    calc("power", "What is 3 to the 4th power?", 3**4),
    calc("power", "What is the square root of 144?", 12),
    calc("power", "cube root of 27", 3),
    calc("power", "What is 9 squared minus 4 cubed?", 9**2 - 4**3),
    calc("power", "10 raised to 6", 10**6),
    # units
    calc("units", "How many minutes are in 3.5 hours?", 3.5 * 60, "minutes"),
    calc("units", "Convert 5 km to miles", 5 * 1000 / 1609.344, "miles"),
    calc("units", "How many seconds are in a day?", 86400, "seconds"),
    calc("units", "10 kg in pounds?", 10 * 1000 / 453.59237, "pounds"),
    calc("units", "how many hours in a week", 168, "hours"),
    calc("units", "What is 90 minutes in hours?", 1.5, "hours"),
    calc("units", "How many feet is 3 metres?", 3 / 0.3048, "feet"),
    # rate problems, many phrasings
    calc("rate", "The audit runs for 12 days, 8.5 hours each day — total hours?", 12 * 8.5, "hours"),
    calc("rate", "There are 22 working days until March 31 at 6.5 hours a day — how many hours are left?",
         22 * 6.5, "hours"),
    calc("rate", "If I read 30 pages per day for 14 days, how many pages will I read?", 420, "pages"),
    calc("rate", "A car travels at 60 km per hour for 3 hours. How far does it go?", 180, "km"),
    calc("rate", "Each of the 8 servers uses 250 watts; what's the total?", 2000, "watts"),
    calc("rate", "5 boxes with 24 bottles in each box, how many bottles?", 120, "bottles"),
    calc("rate", "I earn $18 an hour and work 37.5 hours a week. What is my weekly pay?", 675, "dollars"),
    calc("rate", "15 people at 12.5 euros each — what do they pay in total?", 187.5, "euros"),
    calc("rate", "We have 40 sprints left at 3 tickets per sprint. How many tickets?", 120, "tickets"),
    calc("rate", "How many days will 300 pages take at 30 pages a day?", 10, "days"),
    calc("rate", "Tickets cost 42 euros apiece and we need 6. Total cost?", 252, "euros"),
    calc("rate", "The pump moves 35 litres every minute. How much in 90 minutes?", 3150, "litres"),
    calc("rate", "Over 4 weeks, 3 releases a week — how many releases?", 12, "releases"),
    # remember
    store("Please remember that my favourite editor is Vim", "My favourite editor is Vim.", "user_pref"),
    store("Remember: the dentist appointment moved to Thursday at 4 pm.",
          "The dentist appointment moved to Thursday at 4 pm.", "calendar"),
    store("Bob ordered two monitors — note that.", "Bob ordered two monitors.", "order"),
    store("Keep in mind that we switched the CI to GitHub Actions", "We switched the CI to GitHub Actions.",
          "decision"),
    store("Don't forget the deadline for the report is June 2.", "The deadline for the report is June 2.", "task"),
    store("Save this: the Wi-Fi network is called Heron.", "The Wi-Fi network is called Heron.", "fact"),
    store("Note that Carol hates early meetings", "Carol hates early meetings.", "user_pref"),
    store("Could you remember that the office closes at 6 pm on Fridays?",
          "The office closes at 6 pm on Fridays.", "calendar"),
    store("My sister's birthday is on 12 May, please remember it.", "My sister's birthday is on 12 May.", "fact"),
    store("Memorise this: the backup runs nightly at 1 am.", "The backup runs nightly at 1 am.", "calendar"),
    # recall, including questions about what was remembered
    search("What is Alice's project?", "mem_0002"),
    search("When is the VelocityDB deadline?", "mem_0005"),
    search("Where does Bob live?", "mem_0008"),
    search("What is Bob's cat called?", "mem_0009"),
    search("Do you remember what the staging server is called?", "mem_0010"),
    search("Which consensus algorithm does VelocityDB use?", "mem_0003"),
    search("What did Alice order?", "mem_0007"),
    search("When is my dentist appointment?", "mem_0011"),
    search("What database did we choose for billing?", "mem_0012"),
    search("Which programming language does Alice like best?", "mem_0001"),
    search("When does Alice meet the infrastructure team?", "mem_0004"),
    search("What is Alice's shoe size?"),
    search("Who is the CEO of VelocityDB?"),
    # lookups
    web("Explain BM25 please", "BM25 please"),
    web("look up RAG", "RAG"),
    web("What is a B-tree?", "B-tree"),
    web("Tell me about OpenAI", "OpenAI"),
    web("What does RAG stand for?", "RAG"),
    web("Define BM25", "BM25"),
    # small talk
    Case("small talk", "hello", None),
    Case("small talk", "Hi Aria!", None),
    Case("small talk", "thanks a lot", None),
    Case("small talk", "How are you?", None),
    Case("small talk", "bye", None),
    Case("small talk", "good morning", None),
    # nonsense: nothing to compute, store or look up; memory has nothing to say
    search("asdfgh qwerty zxcv", category="nonsense"),
    search("purple elephants dance quietly", category="nonsense"),
    Case("nonsense", "???", None),
    Case("nonsense", "...!", None),
    search("blorp the snazzle", category="nonsense"),
]

# Written after the rules were fixed against CASES, and run once before any change: a held-out check that the
# rules generalise rather than fit the cases above. Its first-run pass rate is the honest figure.
HELD_OUT = [
    calc("expression", "what is 3.75 + 18.4 - 2", 3.75 + 18.4 - 2),
    calc("expression", "(120 - 45) * 3 please", (120 - 45) * 3),
    calc("words", "what is nine times nine", 81),
    calc("words", "How much is forty plus two?", 42),
    calc("words", "divide 1000 by 8", 125),
    calc("percent", "What's 30% of 150?", 45),
    calc("percent", "how much is 7.5 percent of 400", 30),
    calc("power", "what is 11 squared", 121),
    calc("power", "What is 4 cubed plus 2?", 66),
    calc("units", "How many minutes are in 2 days?", 2880, "minutes"),
    calc("units", "convert 1500 m to km", 1.5, "km"),
    calc("rate", "A team of 6 people works 7.5 hours each. How many hours in total?", 45, "hours"),
    calc("rate", "We ship 250 parcels per day. How many parcels in 12 days?", 3000, "parcels"),
    calc("rate", "The printer does 18 pages a minute; how many pages in 25 minutes?", 450, "pages"),
    calc("rate", "Rent is 950 euros a month. What do I pay over 12 months?", 11400, "euros"),
    calc("rate", "How many weeks will 84 lessons take at 4 lessons per week?", 21, "weeks"),
    store("Remember that the printer on floor 3 is broken.", "The printer on floor 3 is broken.", "fact"),
    store("please note that Dave prefers tea over coffee", "Dave prefers tea over coffee.", "user_pref"),
    store("Don't forget: the quarterly review is on Monday at 10 am.",
          "The quarterly review is on Monday at 10 am.", "calendar"),
    search("Where does Bob live again?", "mem_0008"),
    search("What's the name of Bob's cat?", "mem_0009"),
    search("Which database is used for billing?", "mem_0012"),
    search("What is Alice's favourite colour?", fails="quotes hits that match one word of the question "
           "('favourite') although none mentions the word that matters ('colour')"),
    search("Can you remember the deadline for VelocityDB?", "mem_0005"),
    web("Explain RAG to me", "RAG to me"),
    web("What is a BM25 score?", "BM25 score"),
    Case("small talk", "hey there", None),
    Case("small talk", "thank you!", None),
    search("lorem ipsum dolor", category="nonsense"),
    Case("nonsense", "?!?!", None),
]
