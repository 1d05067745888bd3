"""The jokers in the rule book: the family's own sentences, printed with the play."""

from __future__ import annotations

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.families import Sentence, in_words


def sentences(ruleset: Ruleset, lang: str) -> list[Sentence]:
    jokers = ruleset.jokers
    if jokers is None:
        return []
    texts = [
        in_words(lang, "j_any_time" if jokers.play_any_time else "j_must_follow"),
        in_words(lang, "j_first_ok" if jokers.lead_first_trick else "j_no_first"),
        in_words(lang, "j_wins" if jokers.led_joker == "wins" else "j_loses"),
        in_words(lang, "j_worthless"),
        in_words(lang, "j_after"),
    ]
    return [Sentence(" ".join(texts), jokers, "jokers")]
