"""The fordækt card in the rule book: the family's own sentence, its section of its own."""

from __future__ import annotations

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.families import Sentence, in_words


def sentences(ruleset: Ruleset, lang: str) -> list[Sentence]:
    rule = ruleset.fordaekt
    if not rule.allowed:
        text = in_words(lang, "no_fordaekt")
    elif rule.most_held == 0:
        text = in_words(lang, "fordaekt")
    else:
        text = in_words(lang, "fordaekt_holding", n=rule.most_held)
    return [Sentence(text, rule, "fordaekt")]
