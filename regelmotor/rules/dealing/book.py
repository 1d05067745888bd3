"""The deck and the dealing in the rule book: the family's own sentences, the deck's printed with the cards."""

from __future__ import annotations

from itertools import groupby

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.families import Sentence, in_words, joined


def sentences(ruleset: Ruleset, lang: str) -> list[Sentence]:
    dealing = ruleset.dealing
    parts = []
    for step, run in groupby(dealing.pattern):
        count = len(list(run))
        what = in_words(lang, "to_kitty") if step == "kat" else in_words(lang, "each", n=step)
        parts.append(what if count == 1 else in_words(lang, "times", k=count, what=what))
    text = in_words(lang, "pattern", pattern=", ".join(parts))
    if ruleset.deck.kitty:
        text += " " + in_words(lang, "kitty_bottom")
    sizes = sorted(dealing.packet_sizes)
    if sizes != sorted({s for s in dealing.pattern if isinstance(s, int)}):
        text += " " + in_words(lang, "packets", sizes=joined(lang, [str(s) for s in sizes]))
    if not dealing.kitty_last_allowed:
        text += " " + in_words(lang, "kitty_not_last")
    return [Sentence(text, dealing, "dealing")]


def deck(ruleset: Ruleset, lang: str) -> list[Sentence]:
    """The cards in play, and the kitty."""
    rule = ruleset.deck
    text = (
        in_words(lang, "deck_jokers", j=rule.jokers, total=52 + rule.jokers)
        if rule.jokers
        else in_words(lang, "deck_plain")
    )
    kitty = in_words(lang, "kitty", k=rule.kitty) if rule.kitty else in_words(lang, "no_kitty")
    return [Sentence(text + " " + in_words(lang, "suits"), rule, "deck"), Sentence(kitty, rule, "deck")]
