"""Write the kit's own paraphrase set: memories, and questions that ask for them in other words.

Authored for Aria Kit (MIT, like the rest of the repository), not cut from an upstream file: the
text below IS the data. Each topic is a block of lines::

    beagle                                            <- topic key (decides the split)
      M I adopted a beagle from the shelter last spring.    <- the memory the questions ask for
      Q What kind of dog did I get?                          <- a question for it, in other words
      D The kind lady next door walks her dog at six.        <- a distractor: shares the question's words, answers nothing

Questions name a category, a description or a synonym where the memory names the thing ("dog" for
"beagle", "sibling" for "sister"), and distractors reuse the questions' surface words, so words
alone mislead and meaning has to do the work. ``OTHER`` holds background memories no question asks
for (metadata ``topic`` "none"). ``BOTH`` lists a few questions whose answer is two
memories of different topics. Documents get neutral ids (``p001``…, in an order fixed by the
SHA-256 of their text, so the id says nothing about which line kind a memory was); questions get
``q001``…. The split is ``cutting.split_of(topic key)``: both questions about one memory are in
one split. The split was fixed, and the files written, before any search was run on them.

Run: ``python scripts/make_paraphrase.py aria_kit/data/paraphrase``.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from cutting import split_of, write_jsonl  # scripts/cutting.py: the split rule and the writer, shared

TOPICS = """
beagle
  M I adopted a beagle from the shelter last spring.
  Q What kind of dog did I get?
  Q Which breed is my new puppy?
  D The kind lady next door walks her dog at six every morning.
  D I get the puppy calendar for my mum every Christmas.
sister_nurse
  M My sister Priya works night shifts at the children's hospital.
  Q What does my sibling do for a living?
  Q Where is Priya employed?
  D I do my living-room workout before breakfast.
cello
  M Ravi has played the cello since he was eight.
  Q What instrument does Ravi perform on?
  Q What music does Ravi make?
  D Ravi's music teacher retired to Portugal.
  D The instrument panel in my car lights up orange.
lactose
  M Mei can't digest milk, so she drinks oat lattes.
  Q Is Mei lactose intolerant?
  Q What dairy problem does Mei have?
  D Mei had a problem with her laptop battery last week.
lisbon_trip
  M We're flying to Lisbon for our anniversary in May.
  Q Where are we travelling to celebrate being married?
  Q Which Portuguese city is our holiday in?
  D Married friends of ours are celebrating with a barbecue in July.
  D The holiday rota at work is pinned in the kitchen.
tomas_vegan
  M Tomás stopped eating meat, fish, eggs and cheese two years ago.
  Q Is Tomás vegan?
  Q What diet does Tomás follow?
  D The vegan bakery on Mill Street closes on Mondays.
  D Tomás is on a diet of detective novels this summer.
marathon
  M Noor finished the Berlin marathon in under four hours.
  Q How fast did Noor run 42 kilometres?
  Q What long-distance race did Noor complete?
  D Noor's commute is forty kilometres by train.
allergy_peanut
  M Kenji carries an EpiPen because nuts can make him stop breathing.
  Q What food allergy does Kenji have?
  Q Which snack is dangerous for Kenji?
  D Kenji's favourite snack is salted popcorn.
  D Kenji's food blog has three hundred readers.
piano_lessons
  M Lena started taking piano lessons on Thursday evenings.
  Q When does Lena study keyboard?
  Q What instrument is Lena learning?
  D Lena spilled coffee on her keyboard at the office.
moving_house
  M Dave is relocating to Manchester when his lease ends.
  Q Where is Dave moving?
  Q Which city will Dave live in next?
  D Dave's city bike has a flat tyre.
  D Moving the sofa took four of us.
grandma_birthday
  M Grandma Rose turns ninety on the third of March.
  Q How old will my grandmother be this year?
  Q When is Rose's birthday?
  D My birthday card list is in the blue notebook.
coffee_black
  M I take my espresso without sugar or milk.
  Q How do I like my coffee?
  Q What do I drink in the morning?
  D The coffee machine at work leaks in the morning.
oskar_job
  M Oskar was hired as a data analyst at the city council.
  Q What is Oskar's new job?
  Q Who employs Oskar now?
  D Oskar's new job title is on his email signature, he says it is too long.
bike_stolen
  M Someone took my bicycle from outside the library on Friday.
  Q What was stolen from me?
  Q When did I lose my bike?
  D I lost my library card and had to pay two pounds.
fear_heights
  M Alice gets dizzy and panicky on balconies and ladders.
  Q Is Alice afraid of heights?
  Q What phobia does Alice have?
  D Alice's flat is on the ninth floor, with great views.
wedding_june
  M Sam and Jo are getting married on a farm in June.
  Q When is the wedding?
  Q Where will the couple tie the knot?
  D The wedding photographer we used has retired.
  D The couple upstairs argue about the bins.
garden_tomatoes
  M I grow cherry tomatoes and basil on the balcony.
  Q What vegetables do I cultivate?
  Q What's in my little garden?
  D The garden centre sells vegetables on Saturdays only.
mei_daughter
  M Mei's little girl Lily starts school in September.
  Q How old is Mei's child?
  Q Does Mei have kids?
  D The kids' football club trains on Tuesdays.
  D Mei's old school friend lives in Leeds.
spanish_class
  M Ravi is studying Spanish on an app for his trip to Mexico.
  Q What language is Ravi learning?
  Q Why does Ravi practise every day?
  D Ravi's favourite language for scripts is Python.
car_electric
  M Noor traded her diesel hatchback for a battery-powered Kia.
  Q Does Noor drive an electric car?
  Q What vehicle does Noor own?
  D The car park by the station has electric chargers now.
insomnia
  M Kenji has trouble falling asleep and is up until three.
  Q Does Kenji have insomnia?
  Q Why is Kenji so tired?
  D Kenji gets tired of long meetings.
vegetarian_mum
  M My mother gave up meat after watching a documentary.
  Q What does my mum eat?
  Q Is my mum vegetarian?
  D Mum's documentary club meets on Wednesdays.
  D The vegetarian option at the canteen is always pasta.
climbing
  M Lena goes bouldering at the indoor wall twice a week.
  Q What sport does Lena do?
  Q What is Lena's hobby?
  D Lena watches sport on TV with her dad.
dentist
  M I have a filling appointment on Tuesday at 9.
  Q When do I see the dentist?
  Q What is booked for my teeth?
  D I booked the meeting room for Tuesday afternoon.
cat_name
  M Dave's tabby is called Biscuit.
  Q What is the name of Dave's cat?
  Q What pet does Dave have?
  D Dave's name is spelled with one v.
  D The pet shop on the corner closed down.
promotion
  M Priya was made head of the ward last month.
  Q Did my sister get promoted?
  Q What is Priya's new role?
  D Priya's new role in the choir is alto.
knee_surgery
  M Tomás is recovering from an operation on his knee.
  Q Why is Tomás on crutches?
  Q What surgery did Tomás have?
  D The crutches in the hall cupboard are from Dave's ski accident.
pizza_favourite
  M Noor's go-to takeaway is a margherita from Luigi's.
  Q What is Noor's favourite food?
  Q Which Italian dish does Noor order?
  D Noor's favourite film is Amélie.
spicy
  M Oskar can't handle chilli at all.
  Q Does Oskar like spicy food?
  Q What food does Oskar avoid?
  D Oskar likes food markets on holiday.
anniversary_date
  M Alice and Ben met at a friend's party in 2015.
  Q How long have Alice and her partner been together?
  Q Where did Alice meet her boyfriend?
  D Alice's partner at the tennis club is called Joan.
glasses
  M Ravi is short-sighted and wears contact lenses.
  Q Does Ravi need glasses?
  Q What's wrong with Ravi's eyes?
  D Ravi needs new glasses for the wine rack he built.
twins
  M Kenji's wife is expecting twins in the autumn.
  Q Is Kenji going to be a father?
  Q How many babies is Kenji's family having?
  D Kenji's father lives in Osaka.
  D The babies' clothes shop has a sale on.
allotment
  M Lena rents a plot at the community allotments.
  Q Where does Lena grow vegetables?
  Q Does Lena have a garden?
  D Lena's flat has no garden, only a window box of herbs.
guitar_band
  M Dave sings and plays bass in a pub covers band.
  Q Is Dave in a group?
  Q Which instrument does Dave perform with?
  D Dave's group chat is always full of memes.
divorce
  M Oskar and Eva separated last year and share custody.
  Q Is Oskar still married?
  Q What happened to Oskar's marriage?
  D Oskar's brother is still married to his school sweetheart.
bake_sourdough
  M Mei feeds her starter every night and bakes a loaf on Sundays.
  Q Does Mei make bread?
  Q What does Mei cook every week?
  D The weekend market sells bread and cheese.
job_interview
  M I have a second-round interview with a design studio on Monday.
  Q Am I applying for a new job?
  Q What company is hiring me?
  D My new job board subscription costs five pounds.
rome_honeymoon
  M Sam and Jo plan to spend their honeymoon in Rome.
  Q Where are the newlyweds going after the ceremony?
  Q What Italian city will Sam and Jo visit?
  D The ceremony at the town hall took only twenty minutes.
retired
  M My father stopped working at sixty-two and now volunteers at the museum.
  Q Is my dad retired?
  Q What does my dad do these days?
  D My dad's car is retired to the garage.
tea_green
  M Priya only drinks jasmine tea after lunch.
  Q What is Priya's favourite hot drink?
  Q What does my sister drink in the afternoon?
  D The hot water tap in the office is broken.
swimming
  M Tomás does forty lengths at the leisure centre before work.
  Q What exercise does Tomás do?
  Q Does Tomás swim?
  D Tomás does the exercise sheets with his son.
cousin_visit
  M Our cousins from Toronto are staying with us over New Year.
  Q Who is visiting for the holidays?
  Q Which relatives are coming from Canada?
  D The holidays at the office mean the printer is off.
book_club
  M Noor hosts a reading group on the first Sunday of the month.
  Q Is Noor in a book club?
  Q What does Noor organise monthly?
  D Noor's club card gives her ten percent off.
headache
  M Kenji gets migraines when he skips meals.
  Q What gives Kenji headaches?
  Q Why does Kenji feel ill sometimes?
  D Kenji feels fine about the new office.
stamp_collection
  M Oskar collects postage stamps from former Soviet countries.
  Q What is Oskar's hobby?
  Q What does Oskar collect?
  D Oskar's hobby horse is bad parking.
vote_mayor
  M Lena is standing for the local council in the spring election.
  Q Is Lena running for office?
  Q What political role does Lena want?
  D Lena's office is running out of coffee filters.
flat_rent
  M Dave pays 950 a month for a one-bedroom near the station.
  Q How much is Dave's rent?
  Q What does Dave's apartment cost?
  D Dave's apartment has a view of the river.
left_handed
  M Alice is a southpaw: she writes and throws with her left.
  Q Is Alice right-handed?
  Q Which hand does Alice use?
  D Alice's hand-me-down coat is too big.
broken_arm
  M Ravi fractured his wrist falling off a skateboard.
  Q What injury did Ravi have?
  Q Did Ravi break a bone?
  D Ravi's bone china teapot was a wedding present.
podcast
  M Mei records a weekly show about urban foxes.
  Q Does Mei have a podcast?
  Q What is Mei's show about?
  D Mei listens to a podcast about history on her commute.
gluten
  M Priya has coeliac disease and avoids wheat.
  Q Can Priya eat bread?
  Q What food intolerance does Priya have?
  D Priya's bread knife is from her grandmother.
  D Priya can eat her weight in crisps.
first_car
  M Tomás bought a second-hand Volvo estate for the family.
  Q What car does Tomás drive?
  Q What vehicle did Tomás purchase?
  D Tomás's car insurance renews in April.
snowboard
  M Noor is off to the Alps to ride powder in February.
  Q Does Noor snowboard?
  Q Where is Noor skiing this winter?
  D Noor's winter coat is bright yellow.
chess
  M Kenji plays online chess every lunchtime.
  Q What board game is Kenji into?
  Q How does Kenji spend his lunch break?
  D Kenji's lunch is always rice and pickles.
scared_dogs
  M Oskar was bitten by an Alsatian as a boy and still crosses the road to avoid one.
  Q Is Oskar afraid of dogs?
  Q What animal scares Oskar?
  D Oskar's dogs-and-cats jigsaw has a thousand pieces.
birthday_party
  M Lena is throwing a surprise party for Dave's fortieth on Saturday.
  Q What celebration is Lena planning?
  Q When is Dave's birthday do?
  D Dave's birthday cake last year was carrot.
deaf
  M Grandma Rose is hard of hearing and needs people to face her.
  Q Is my grandmother deaf?
  Q How should I talk to Rose?
  D My grandmother's recipe for scones uses buttermilk.
phd
  M Alice is writing a doctoral thesis on coral reefs.
  Q What is Alice studying?
  Q Is Alice doing a PhD?
  D Alice is studying the menu for the wedding.
mortgage
  M Ravi and Sita just got the keys to their first home.
  Q Did Ravi buy a house?
  Q Where does Ravi live now?
  D Ravi's house plant is a fiddle-leaf fig.
diabetes
  M Tomás checks his blood sugar before every meal.
  Q Is Tomás diabetic?
  Q What health condition does Tomás manage?
  D Tomás manages the health and safety records at work.
gym_quit
  M I cancelled my fitness membership because I never went.
  Q Do I go to the gym?
  Q What subscription did I stop?
  D The gym bag in the hallway belongs to Dave.
late_train
  M Mei's commute was ruined by rail strikes all week.
  Q Why was Mei late to work?
  Q What disrupted Mei's journey?
  D Mei works late on Thursdays.
tattoo
  M Noor has a small swallow inked on her ankle.
  Q Does Noor have a tattoo?
  Q What bird is on Noor's leg?
  D The bird feeder on Noor's balcony attracts robins.
volunteer
  M Priya helps at the food bank on Saturday mornings.
  Q Does Priya do charity work?
  Q Where does my sister help out at the weekend?
  D The charity shop had Priya's old coat in the window.
twin_brother
  M Kenji has an identical brother called Hiro.
  Q Is Kenji a twin?
  Q What is the name of Kenji's sibling?
  D Kenji's name is on the door of room 4.
garden_shed
  M Dave built a workshop at the bottom of the garden.
  Q Where does Dave do woodwork?
  Q What did Dave construct?
  D Dave's woodwork teacher was very strict.
night_owl
  M Lena does her best writing after midnight.
  Q When is Lena most productive?
  Q Is Lena a morning person?
  D Lena's morning bus is the 7:40.
moved_abroad
  M Oskar's daughter emigrated to New Zealand.
  Q Where does Oskar's child live?
  Q Which country did Oskar's girl move to?
  D Oskar's child seat is still in his car.
languages_many
  M Alice is fluent in French, German and Mandarin.
  Q How many languages does Alice speak?
  Q Is Alice multilingual?
  D Alice speaks at the conference in May.
pregnant
  M Priya is expecting her first baby in April.
  Q Is my sister pregnant?
  Q When is Priya due?
  D Priya's first car was a red Fiat.
vinyl
  M Ravi spends his weekends hunting for old jazz records.
  Q What music does Ravi collect?
  Q Does Ravi buy vinyl?
  D The music festival in town was cancelled.
scuba
  M Mei is a certified diver and has explored reefs in Egypt.
  Q Does Mei scuba dive?
  Q What underwater hobby does Mei have?
  D Mei's hobby room is full of yarn.
cancer_free
  M Grandma Rose got the all-clear from her oncologist in October.
  Q Is my grandmother's cancer gone?
  Q What good news did Rose have about her health?
  D My grandmother's news comes from the radio.
wine
  M Dave doesn't touch alcohol since his thirtieth.
  Q Does Dave drink?
  Q Is Dave teetotal?
  D Dave's drink bottle is the green one.
cooking_class
  M Tomás signed up for a Thai cookery course in March.
  Q What is Tomás learning to cook?
  Q Is Tomás taking a class?
  D Tomás's class reunion is in a pub.
blood_type
  M Kenji's blood group is O negative, so he donates often.
  Q Is Kenji a universal donor?
  Q Why does Kenji give so often at the transfusion centre?
  D Kenji's type of humour is very dry.
noise_neighbours
  M The people in the flat below play drums until eleven.
  Q Why can't I sleep at night?
  Q Are my neighbours loud?
  D I sleep with the window open at night.
orchestra
  M Lena plays second violin in the city orchestra.
  Q Which stringed instrument does Lena perform on?
  Q Does Lena perform in a classical ensemble?
  D The instrument hire shop is next to the bakery.
sabbatical
  M Alice is taking six months off work to sail around Greece.
  Q Is Alice on a sabbatical?
  Q What is Alice doing on her career break?
  D Alice's break room has a fancy coffee machine.
parrot
  M Ravi's African grey can say "put the kettle on".
  Q Does Ravi have a talking bird?
  Q What pet does Ravi keep?
  D The pet insurance letter came for Ravi.
colour_blind
  M Oskar can't tell red from green.
  Q Is Oskar colour blind?
  Q Why does Oskar mix up traffic lights?
  D Oskar's favourite colour is blue.
lottery
  M Noor won a thousand pounds on a scratch card.
  Q Did Noor get lucky with money?
  Q What prize did Noor win?
  D The prize for the pub quiz was a bottle of wine.
hiking
  M Mei walked the whole West Highland Way in a week.
  Q Does Mei like trekking?
  Q What long trail did Mei do in Scotland?
  D Mei likes her walk to the bus stop in spring.
kidney
  M My father gave one of his kidneys to his brother.
  Q Was my dad an organ donor?
  Q What did my dad do for his brother?
  D My dad's brother runs a hardware shop.
sign_language
  M Priya learned BSL to talk with a deaf patient's family.
  Q Can Priya sign?
  Q Which language did my sister pick up for her job?
  D Priya's work shoes are white clogs.
pilot
  M Tomás is training for his private flying licence.
  Q Is Tomás learning to pilot aircraft?
  Q What qualification is Tomás working towards?
  D Tomás's driving licence photo is ten years old.
anxiety
  M Kenji sees a therapist about panic attacks.
  Q Does Kenji have anxiety?
  Q Why does Kenji see a counsellor?
  D Kenji's counsellor at school was Mr Hart.
marathon_training
  M Lena is building up her mileage for a half in October.
  Q What race is Lena training for?
  Q Does Lena run?
  D Lena's race car set is from the seventies.
new_baby_cousin
  M My cousin Farah had a baby boy called Idris in August.
  Q Did anyone in my family give birth recently?
  Q What is Farah's son's name?
  D Farah's family runs a bakery.
tea_shop
  M Dave dreams of opening a café by the sea.
  Q What business does Dave want to start?
  Q What is Dave's ambition?
  D Dave's business cards have a typo.
astronomy
  M Oskar has a telescope on the roof and photographs galaxies.
  Q What is Oskar interested in at night?
  Q Does Oskar like stargazing?
  D Oskar likes his night shifts quiet.
rugby
  M Alice's son plays scrum-half for the under-twelves.
  Q What sport does Alice's boy play?
  Q What position does Alice's child play?
  D Alice's sport watch counts her steps.
cheese_hate
  M Noor thinks all cheese tastes like feet.
  Q What food does Noor dislike?
  Q Does Noor eat dairy?
  D Noor's favourite food shop is the Turkish grocer.
bees
  M Ravi keeps two hives and sells honey at the market.
  Q Is Ravi a beekeeper?
  Q What produce does Ravi trade at weekends?
  D Ravi's market stall neighbour sells socks.
choir
  M Mei sings alto in a community choir on Wednesdays.
  Q Is Mei in a vocal group?
  Q What does Mei do midweek?
  D Mei's group holiday was to Cornwall.
hearing_aid
  M Tomás got fitted for a device behind his right ear.
  Q Does Tomás wear a hearing aid?
  Q What did Tomás get for his ears?
  D Tomás's aid worker friend is in Sudan.
ballet
  M Priya danced with a ballet company before nursing.
  Q What was my sister's first career?
  Q Was Priya a dancer?
  D Priya's career plan is on a sticky note.
boat
  M Kenji keeps a small sailing dinghy at the reservoir.
  Q Does Kenji own a boat?
  Q Where is Kenji's yacht moored?
  D Kenji's boat shoes are falling apart.
"""

# Memories no question asks for: everyday background, so a ranking has more to wade through.
OTHER = """
The boiler was serviced in September.
My passport expires in 2029.
The recycling goes out on alternate Thursdays.
Alice recommended a podcast about Roman history.
Ravi's sister lives in Bristol.
Mei prefers window seats on planes.
Kenji's laptop is a ten-year-old ThinkPad.
Lena's favourite author is Ursula Le Guin.
Dave supports Everton.
Oskar reads the newspaper cover to cover on Sundays.
Noor's phone number changed in June.
Priya's flat has a leaky bathroom tap.
Tomás's son is obsessed with dinosaurs.
Grandma Rose does the crossword in pen.
The spare key is under the blue plant pot.
I owe Sam twenty pounds for the concert tickets.
The Wi-Fi password is on the fridge.
My dad's favourite film is The Great Escape.
Alice's sister is a solicitor in Leeds.
Ravi always forgets to reply to emails.
Mei painted her hallway sage green.
Kenji moved desks to be near the window.
Lena bought a second-hand sewing machine.
Dave's van needs an MOT in January.
Oskar is terrible at remembering birthdays.
Noor is reading a biography of Ada Lovelace.
Priya's favourite season is autumn.
Tomás supports the local cricket team.
I left my umbrella at the dentist's.
The library's late fees were scrapped last year.
Our street party is on the last Saturday of July.
My mum is knitting a scarf for every grandchild.
"""

# Questions whose answer is two memories (topic keys), each from a different topic.
BOTH = """
beagle cat_name: Which of my friends and family have pets at home?
cello orchestra: Who plays a stringed instrument?
lactose cheese_hate: Who avoids dairy?
tomas_vegan vegetarian_mum: Who has given up meat?
twins pregnant: Which couples are expecting a baby?
lisbon_trip rome_honeymoon: Who is going to southern Europe?
marathon marathon_training: Who runs long distances?
scuba boat: Who spends time on or under the water?
"""


def parse(text: str) -> list[dict]:
    """The topic blocks of ``text`` as dicts: key, memory, questions, distractors."""
    topics: list[dict] = []
    for line in text.strip().splitlines():
        if not line.startswith("  "):
            topics.append({"key": line.strip(), "M": [], "Q": [], "D": []})
            continue
        kind, sentence = line.strip().split(" ", 1)
        topics[-1][kind].append(sentence)
    for topic in topics:
        assert len(topic["M"]) == 1 and topic["Q"], topic
    assert len({t["key"] for t in topics}) == len(topics), "topic keys must be unique"
    return topics


def build() -> tuple[list[dict], list[dict]]:
    """Documents and queries (lists of dicts) from ``TOPICS`` and ``BOTH``."""
    topics = parse(TOPICS)
    texts = [(t["M"][0], t["key"]) for t in topics] + [(d, t["key"]) for t in topics for d in t["D"]]
    texts += [(line, "none") for line in OTHER.strip().splitlines()]
    assert len({text for text, _ in texts}) == len(texts), "every memory is different"
    order = sorted(texts, key=lambda pair: hashlib.sha256(pair[0].encode()).hexdigest())
    ids = {text: f"p{number:03d}" for number, (text, _) in enumerate(order, 1)}
    documents = [{"id": ids[text], "text": text, "metadata": {"topic": key}} for text, key in order]
    target = {t["key"]: ids[t["M"][0]] for t in topics}
    asked = [(q, [target[t["key"]]], t["key"]) for t in topics for q in t["Q"]]
    for line in BOTH.strip().splitlines():
        keys, question = line.split(": ", 1)
        first, second = keys.split()
        asked.append((question, [target[first], target[second]], f"{first}+{second}"))
    queries = [{"id": f"q{number:03d}", "text": text, "relevant": relevant, "split": split_of(key)}
               for number, (text, relevant, key) in enumerate(asked, 1)]
    return documents, queries


def main(out_dir: str) -> None:
    documents, queries = build()
    out = Path(out_dir)
    write_jsonl(out / "documents.jsonl", documents)
    write_jsonl(out / "queries.jsonl", queries)
    print(f"{len(documents)} documents, {len(queries)} queries "
          f"({sum(q['split'] == 'dev' for q in queries)} dev) -> {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "aria_kit/data/paraphrase")
