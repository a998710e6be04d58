"""Rulebooks read blind, round 2 (issue 33): a definition list in an ordinary section is a look-up list
only when its names are names a player looks up. One small fixture per kind of phantom term found in a
seeded sample of the scale corpus (contents lines, a card's anatomy, numbered series, chapters set in
bold, the fields of a template, topics put as questions) and per kind of entry still missed."""

from __future__ import annotations

from .test_rulebook_glossaries import read, sections, terms


def test_a_contents_list_gives_no_terms():
    text = """# Colonies Rulebook

## Contents

- **Setup** \u2014 pg. 2
- **Game Play** \u2014 pg. 5
- **Event Cards** \u2014 pg. 12

## Setup

Each player takes a faction.
"""
    assert terms(read(text)) == {}


def test_a_cards_anatomy_gives_no_terms():
    text = """# Dungeon Rules

## The Hero Card

Here is what a Hero Card looks like.

- **Hero's Name and Class:** The top line shows the Hero's class.
- **AC (Armor Class):** The Hero's defense score.
- **Speed:** The number of squares the Hero moves.
- **Powers:** How many Power Cards the Hero uses.
"""
    assert terms(read(text)) == {}


def test_numbered_series_give_no_terms():
    """Places in a sequence told apart by a number word, an ordinal or a letter."""
    text = """# City Rules

## Ending the Game

- **First tiebreaker:** the most coins.
- **Second tiebreaker:** the most tiles.

## Two-Player Game

**Round One:** Each player drafts two tiles.

**Round Two:** Each player drafts one tile.

## Automa

**Action A:** The bot builds.

**Action B:** The bot scores.
"""
    assert terms(read(text)) == {}


def test_labels_with_a_roman_numeral_or_a_number_word_are_never_terms():
    text = """# Empire Rules

## Keywords

**Phase IV:** Players score.

**Level I:** A building of the first level.

**Option Two:** The short game.

**Tax:** A coin paid to the bank.

**Trade:** Swap two goods.
"""
    assert list(terms(read(text))) == ["Tax", "Trade"]


def test_chapters_set_in_bold_give_no_terms():
    text = """# Realm Rules

## The Oracle Ruin

**Setup:** Place the Oracle beside the board.

**Gameplay:** The Oracle moves each round.

**Special Rules:** The Oracle cannot be attacked.

## At the End of the Game

**Sector Majority:** Each sector scores for the most tokens.

**Advanced Variant:** Draft the factions instead.
"""
    assert terms(read(text)) == {}


def test_the_fields_of_a_template_give_no_terms():
    """ "Condition:" and "Effect:" under each power are fields, printed again for every power."""
    text = """# Cave Rules

## Powers

**Abyssal Threat**

- **Condition:** allocate 1, 2 or 3 dice of one color.
- **Effect:** gain 3 points per die.

**Supernatural Speed**

- **Condition:** allocate 2 white dice.
- **Effect:** the creatures gain one movement.
"""
    assert terms(read(text)) == {}


def test_notes_and_topics_put_as_questions_give_no_terms_but_card_notes_stay_rulings():
    text = """# Time Rules

## Other Notes

**Empty Hive Rule:** If you begin your turn without workers, add one.

**End of Turn:** Discard the tokens that do not fit.

## Searching

**How a Hero Searches for Treasure:** Draw a Treasure card.

**How Heroes Respond to Monsters:** The hero attacks first.

## Card Clarifications

- **Where you sent a Duplicate:** if you do not push a Duplicate, nothing happens.
- **If there is another Agent:** the bonus triggers once.
"""
    doc = read(text)
    assert terms(doc) == {}
    assert [r.card for r in doc.rulings] == ["Where you sent a Duplicate", "If there is another Agent"]


def test_a_name_with_an_aside_before_its_colon_is_read():
    text = """# Travel Rules

## Trains

- **Starting Train token:** No benefits or penalties.
- **Luxury Train token** (earned as a Day Bonus): Benefit of 2 points.
- **Regular Train token** (taken from the supply): Penalty of 2 points.
"""
    found = terms(read(text))
    assert list(found) == ["Starting Train token", "Luxury Train token", "Regular Train token"]
    assert found["Luxury Train token"].text.endswith("(earned as a Day Bonus) Benefit of 2 points.")


def test_a_definition_list_of_look_up_names_is_still_read():
    """What the rules above leave alone: names that are things a player looks up, numbers in them or not."""
    text = """# Harbour Rules

## Tool Cards

- **Seed Bag:** Gain one seed.
- **Rake:** Move one tile.
- **Hand Lens:** Look at two cards.

## Icons

**Gain 1 Mission:** Take a Mission card.

**Move X:** Move up to X spaces.
"""
    assert list(terms(read(text))) == ["Seed Bag", "Rake", "Hand Lens", "Gain 1 Mission", "Move X"]


def test_a_name_a_definition_list_defines_again_is_one_term():
    """A mode restated under the rule it changes is the term mentioned again, not a second term; a
    glossary's own term of the name wins over a definition list's, wherever each stands."""
    text = """# Night Rules

## Goal of the Game

- **Rookie Mode:** Come back to the Castle or the Cemetery.
- **Elder Mode:** Come back to the Castle.

## Missions

**Crypt:** Gain a Mission.

**Well:** Hunt once more.

**Rookie Mode:** Look at the Missions and pick one.

## Glossary

**Crypt:** A space of the Mountains.

**Hunt:** Take a Human card.
"""
    doc = read(text)
    found = terms(doc)
    assert sorted(found) == ["Crypt", "Elder Mode", "Hunt", "Rookie Mode", "Well"]
    assert found["Rookie Mode"].line == 5 and found["Crypt"].line == 18
    assert {e.line for e in doc.entries if e.kind == "section" and e.name in ("Rookie Mode", "Crypt")} == {14, 10}


def test_a_list_announced_as_steps_gives_no_terms():
    text = """# Battle Rules

## Resolving Attacks

To resolve an attack, take the following steps, in order:

* **Determine Attack Dice:** Each attack lists a number of dice.
* **Roll Attack Dice:** Each roll of its value or more is a Hit.
* **Defender Suffers Wounds:** Each unblocked Hit removes one model.

## Condition Tokens

* **Panicked:** The unit cannot use abilities.
* **Weakened:** The unit rolls one die fewer.
"""
    assert list(terms(read(text))) == ["Panicked", "Weakened"]


def test_a_field_defined_under_every_heading_of_a_glossary_gives_no_terms():
    """ "**Instant Effect** -" under each location of a location glossary is a field each location fills in."""
    text = """# Library Rules

## Location Glossary

### 1 \u2014 Diviner's Hut

**Instant Effect** - Draw one card for every assistant you have placed.

### 2 \u2014 Book Swap

**Instant Effect** - Trade one card from your hand with one card here.

### 3 \u2014 Auction House

**Delayed Effect** - Discard cards equal to your bid to take the three cards.

### 4 \u2014 Bindery

**Instant Effect** - Shelve one card.
"""
    found = terms(read(text))
    assert "Instant Effect" not in found
    assert list(found) == ["Delayed Effect"]  # defined once: a term, as before


def test_things_to_do_put_as_gerunds_give_no_terms_but_participles_among_nouns_stay():
    text = """# Mill Rules

## Workers

**Hiring workers:** Pay 2 money per worker you take from the supply.

**Firing workers:** Return workers to the supply; pay nothing.

## Shares

**Purchasing shares:** Pay the share's price to the bank.

**Selling shares:** Take the share's price from the bank.

**Dividend:** Money paid on each share at the end of a round.

## Player Roles

**Starting Player:** Takes the first turn of each round.

**Banker:** Keeps the money of the bank.

**Treasurer:** Counts the money of the bank at the end of the game.
"""
    assert list(terms(read(text))) == ["Starting Player", "Banker", "Treasurer"]


def test_a_list_of_names_each_said_to_represent_something_is_read():
    text = """# Kingdom Rules

## Resources

The Resource markers show the state of your kingdom.

* **Influence** represents the strength of your army.
* **Wealth** represents the money in the royal treasury.
* **Morale** means the happiness of your people.
"""
    assert list(terms(read(text))) == ["Influence", "Wealth", "Morale"]


def test_a_printed_copy_count_is_not_part_of_a_name():
    text = """# Factory Rules

## Buildings

- **20\u00d7 Walls** \u2014 The pieces of the outer wall.
- **12\u00d7 Camels** \u2014 Valuable assets that set the turn order.

## Blueprints

* **Aluminum Factory (2x):** Place 2 matching dice to gain 2 goods.
* **Biolab (2x):** Place a die to gain 1 good.
"""
    assert list(terms(read(text))) == ["Walls", "Camels", "Aluminum Factory", "Biolab"]


def test_a_heading_spelling_faq_with_full_stops_holds_rulings():
    """ "## Camps F.A.Q." says what "## Camps FAQ" says: its "**Card:** note" lines are notes on cards."""
    text = """# Wasteland Rules

## Camps F.A.Q.

**Adrenaline Lab:** This includes damaged people who entered play this turn.

**Arcade:** Punks are people too.

**Blood Bank:** You need a person to use this ability.
"""
    doc = read(text)
    assert terms(doc) == {}
    assert [(r.card, r.text) for r in doc.rulings] == [
        ("Adrenaline Lab", "This includes damaged people who entered play this turn."),
        ("Arcade", "Punks are people too."),
        ("Blood Bank", "You need a person to use this ability."),
    ]


def test_a_worked_example_is_never_a_term():
    """ "**End-of-game example:**", "Example of Rail Movement": a worked case, not a name to look up."""
    text = """# Island Rules

## Scoring

**Farm:** Five or more field symbols in a group.

**Village:** Five or more house symbols in a group.

**End-of-game example:** Tony completed two villages and one farm, for 9 points.

## Glossary

### Move

Go to an adjacent space.

### Movement Example

Tony moves two spaces.

### Rail

A line between two cities.
"""
    assert list(terms(read(text))) == ["Farm", "Village", "Move", "Rail"]


def test_a_list_whose_names_are_clauses_is_the_rules_text_not_a_glossary():
    """ "**Mines produce Yellowcake:**" says what happens: a subject and its verb, not a name to look up. A
    list of names with one clause among them ("The King is Dead") is still read as names."""
    text = """# Bomb Rules

## Building Worker Actions

**Mines produce Yellowcake:** Take 1 Yellowcake from the supply.

**Factories produce Money:** Take $2 from the bank.

**Reactors produce Plutonium:** Pay the cost, then take Plutonium.

## Crowns

**The Crown:** The token the king holds.

**The Throne:** Where the king sits.

**The King is Dead:** A card that ends the reign.
"""
    assert list(terms(read(text))) == ["The Crown", "The Throne", "The King is Dead"]


def test_a_page_reference_is_not_part_of_a_name_and_a_summary_that_repeats_is_read_once():
    text = """# Castle Rules

## Glossary

**Banish (p. 18):** To remove a card from play once and for all.

**Buildings (page) (p. 23):** A page of the leaflet that lists the buildings.

**Draw (pg.12):** To take the top card of one's deck.

## Keywords

### Advance

An attacking unit can move into the hex its target left.

### Stalwart

A stalwart unit ignores its first morale result.

## Keyword Summary

- **Advance (Pg. 23)** \u2013 Attacking unit can move into an enemy's hex after the enemy retreats
- **Stalwart (pages 24-25)** \u2013 Unit can ignore one morale result
"""
    assert list(terms(read(text))) == ["Banish", "Buildings (page)", "Draw", "Advance", "Stalwart"]


def test_topics_under_a_clarifications_heading_are_rulings_and_card_specific_notes_too():
    text = """# Penguin Rules

## Special Situations and Clarifications

### Red lines

If your penguin is close to a wall, you may place it on the closest free point on the red line.

### Getting stuck in the door

If your penguin gets stuck in a door, it stays there until it is flicked again.

### 6.2.0.A

A penguin may be flicked once a turn.

## Card-specific Notes

**Acclaimed** (2FAM8/9). When you Break through for an Acclaimed card, you may choose a card from the Market.

**Sacred Pass** (1REG14/14). You may not use this card to add the Accession card to your deck.
"""
    doc = read(text)
    assert [(r.kind, r.title, r.line) for r in doc.rulings[:2]] == [
        ("clarification", "Red lines", 5),
        ("clarification", "Getting stuck in the door", 9),
    ]
    assert "closest free point" in doc.rulings[0].text
    assert [r.card for r in doc.rulings[2:]] == ["Acclaimed", "Sacred Pass"]  # a numbered paragraph is none
    assert terms(doc) == {}


def test_the_fields_of_each_module_stay_its_text_and_its_see_asides_with_a_page_are_read():
    """ "**Construction:**", "**Function:**" under each module are the module's text (its see-also read from
    "(see Treatment Rooms, p. 16)"); a mode restated under headings of different parents stays one term."""
    text = """# Clinic Rules

## Modules at a Glance

**Treatment Rooms** \u2014 Orange tiles where doctors treat patients.

**Operating Rooms** \u2014 Blue tiles for surgery.

## The Modules

### Treatment Room

* **Construction:** Cannot be built next to another treatment room.
* **Function:** Doctors treat patients (see Treatment Rooms, p. 16).

### Supply Room

* **Construction:** Cannot be built next to another supply room.
* **Function:** Enables each adjacent treatment room.

### Operating Room

* **Construction:** Cannot be built next to another special module.
* **Function:** One doctor treats one patient (see Treatment Rooms and Operating Rooms, p. 16).
"""
    doc = read(text)
    assert list(terms(doc)) == ["Treatment Rooms", "Operating Rooms"]
    room = next(e for e in doc.entries if e.name == "Operating Room")
    assert room.see_also == ["Treatment Rooms", "Operating Rooms"]
    assert "Construction:" in " ".join(b.text for b in room.blocks)


def test_numbered_paragraphs_of_the_rules_give_no_terms():
    """A rules book numbered like a rules reference runs its paragraphs in with a bold "1.3.1 Regions.": a
    section of the rules (its text the paragraphs up to the next one), not a glossary's entry; the same
    book's key terms list is read."""
    text = """# Campaign Rules

## 1.3 The Map

**1.3.1 Regions.** Borders delineate Regions of the map.

**1.3.2 Tribes.** Colored circles show named Tribes.

**1.3.3 Cities.** Gray diamonds show Cities.

## 4.1 Special Abilities

**4.1.1. Accompanying Commands.** A Faction may use a Special Ability with a Command.

**4.1.2 Leaders.** Leaders change Special Abilities.

## Key Terms

**Ally**\u2014A Faction's disc on a Tribe. (1.4.2)

**Battle**\u2014A Command to remove enemy pieces. (3.2.4)

**Citadel**\u2014A fortified City. (1.4.2)
"""
    doc = read(text)
    assert sorted(terms(doc)) == ["Ally", "Battle", "Citadel"]
    parts = sections(doc)
    assert {"1.3.1 Regions", "1.3.3 Cities", "4.1.1 Accompanying Commands", "4.1.2 Leaders"} <= set(parts)
    assert parts["1.3.2 Tribes"].text == "Colored circles show named Tribes."
    assert parts["1.3.2 Tribes"].path == ["Campaign Rules", "1.3 The Map"]


def test_a_name_with_an_aside_over_its_text_is_read_but_a_component_with_an_aside_is_not():
    """ "**BRAKES** (*Cost: 2*)" with the card's text on the lines below (a "Text:" line too) is a definition;
    a component list's "**Map Boards (2)** (printed on both sides)" is a label and its aside."""
    text = """# Robot Race

## Components

- **Map Boards (2)** (printed on both sides)
- **Energy Cubes (40)** (in four colors)
- **Robot Figures (6)** (one per player)

## Upgrade Cards

**BRAKES** (*Cost: 2*)
Text: Move 1 cards in your registers may be treated as Move 0.

**DRIFTING** (*Cost: 4*)
Text: After resolving a Rotate Left card, you may move 1 space forward.

**MOVE BACK** (1 copy)
Move your robot 1 space backwards. It does not change its facing.
"""
    found = terms(read(text))
    assert sorted(found) == ["Brakes", "Drifting", "Move Back"]
    assert "Move 1 cards in your registers" in found["Brakes"].text


def test_the_parts_of_a_layout_chapters_in_bold_and_priced_labels_give_no_terms():
    """ "Front"/"Back", "Left column"/"Right column": where things are; "Setup", "Gameplay Adjustments",
    "Cleanup Phase": a variant's chapters set in bold; "$5 \u2013 Jane Addams": a value and what it shows."""
    text = """# Factory Rules

## Buildings

- **Front:** The building's cost and income.
- **Back:** The building's upgraded side.

## Sell Goods

- **Left column:** The goods you sell.
- **Middle column:** The price of each good.
- **Right column:** The demand after the sale.

## Advanced Supply Chain

**Setup:** Place the supply board beside the main board.

**Gameplay Adjustments:** Goods are bought from the supply board.

**Cleanup Phase:** Refill the supply board.

## Historical Figures

**$1 \u2013 Daniel Hale Williams:** A surgeon.

**$5 \u2013 Jane Addams:** A reformer.

## Key Concepts

**Appeal:** How much customers want a company's goods.

**Demand:** The goods a company can sell.
"""
    assert sorted(terms(read(text))) == ["Appeal", "Demand"]


def test_sub_headings_of_advice_in_alphabetical_order_are_not_a_glossary():
    """Five sub-headings in alphabetical order make a glossary, but not when they give advice as clauses
    ("Where to Place Checkpoints", "Make Sure Density is Maintained"): those are the topics of a chapter."""
    text = """# Race Rules

## Designing Your Own Courses

### First-Timer Recommendation

Start with one board.

### Make Sure Robot Density is Maintained

Use a smaller board for fewer robots.

### Where to Place Checkpoints

Spread them out.

### Where to Place Reboot Tokens

Near the pits.

### Where to Place the Docking Bay

At an edge.
"""
    assert terms(read(text)) == {}


def test_a_cards_text_set_in_italics_is_not_a_term_over_its_notes():
    """In a FAQ of card headings, a card's printed text set as a whole line in italics is a sentence, not a
    name with its definition below: each heading still opens the ruling its notes make."""
    text = """# Forest Cards FAQ

## Claws

### Jack of Claws

*If you're holding fewer than eight cards, draw cards until you have eight cards in hand.*

* You can activate this ability with eight or more cards in hand, but it does nothing.

### Queen of Claws

*Draw the top card from the deck, the discard pile, and the score pile.*

* Drawing from the score pile reduces your score by 1.

### Baron of Claws

*Discard all cards with value 1, 2, or 3.*

* Discarding is not optional.
"""
    doc = read(text, kind="faq")
    assert terms(doc) == {}
    assert [r.title for r in doc.rulings] == ["Jack of Claws", "Queen of Claws", "Baron of Claws"]
    assert "reduces your score" in doc.rulings[1].text


def test_each_item_of_a_list_of_clarifications_is_a_ruling_and_a_card_keeps_its_notes():
    """Under a heading that says it holds clarifications, or groups them ("General", "Event Cards"), each
    list item is a ruling of its own, titled by its first words ("**Turks:** …" a note on that card); a
    card's heading over its printed text and a list is that card's ruling; a list under any other
    heading is the rules' own text."""
    text = """# Empires Rules

## Clarifications and Reference

### General Clarifications

This section provides clarifications for the core rules:

- If both players have reroll effects, they can use them in turn, starting with the invader.
- A player who cannot invade may remove the armies from the empire card.

### Component Limitations

- All structures are limited to the quantities provided.
- Each player is limited to 25 armies.

### Event Cards

- Event cards that use armies from your supply cannot be played if your supply is short.
  *Example: Revolution needs four armies.*
- An effect that replaces an army does not reduce structures.

### Empire Cards

- **Turks:** This ability can be used more than once.

## Card Notes

### Wolves

#### Jack of Wolves

*Draw two cards, then discard two cards.*

* The cards you discard may be the ones you drew.
"""
    doc = read(text)
    got = [(r.title, r.group, r.card) for r in doc.rulings]
    assert got == [
        ("If both players have reroll effects, they can use them in turn, starting with\u2026",
         "General Clarifications", None),
        ("A player who cannot invade may remove the armies from the empire card.",
         "General Clarifications", None),
        ("Event cards that use armies from your supply cannot be played if your supply is\u2026", "Event Cards", None),
        ("An effect that replaces an army does not reduce structures.", "Event Cards", None),
        ("Turks", "Turks", "Turks"),
        ("Jack of Wolves", "Jack of Wolves", "Jack of Wolves"),
    ]  # fmt: skip
    assert "Revolution needs four armies" in doc.rulings[2].text
    assert "Each player is limited" in sections(doc)["Component Limitations"].text


def test_headings_under_a_clarifications_heading_are_what_its_rulings_are_about_not_a_glossary():
    """Sub-headings in alphabetical order make a glossary, but not under a heading that says it holds
    clarifications: there each is the topic of a clarification. Under one that says its notes are on cards,
    each names a card ("### Agent", its template's "Role Special Action:" field part of the note), unless
    its text names cards of its own (a deck's heading over "**War Hawks #09** \u2014 \u2026" lines)."""
    text = """# Vineyard Rules

## Examples & Clarifications

### Cultivator

You may plant a vine even if you do not have the structures.

### Manager

Take any action you already took this year.

### Motivator

Each other player may retrieve their grande worker.

### Organizer

Move your rooster to an empty row.

### Planner

Place a worker on a future season's action.

## Card Clarifications: Role Cards

### Agent

*Card: "+$1 during the Action Phase."*

Role Special Action: Slaves removed from the market go back to the supply.

### Conductor

*Card: "+$1 during the Action Phase."*

Role Special Action: The player gets 5 movement points.

### Preacher

*Card: "+$2 during the Action Phase."*

Role Special Action: Support tokens may be placed anywhere.

## Card Clarifications: Event Cards

### American Regulars Cards

**War Hawks #09** \u2014 Move up to double the armies this turn.

**Forced March #12** \u2014 An army may move one more area.
"""
    doc = read(text)
    assert terms(doc) == {}
    topics = [(r.kind, r.title, r.card) for r in doc.rulings[:5]]
    names = ("Cultivator", "Manager", "Motivator", "Organizer", "Planner")
    assert topics == [("clarification", name, None) for name in names]
    assert [r.card for r in doc.rulings[5:8]] == ["Agent", "Conductor", "Preacher"]
    assert "5 movement points" in doc.rulings[6].text and doc.rulings[6].kind == "clarification"
    assert [(r.card, r.card_number) for r in doc.rulings[8:]] == [("War Hawks", "09"), ("Forced March", "12")]
