"""Doubling in the rule book: the family's own sentence, its section of its own."""

from __future__ import annotations

from regelmotor.model.ruleset import Ruleset
from regelmotor.rounding import number_text, points
from regelmotor.rules.families import Sentence, in_words


def sentences(ruleset: Ruleset, lang: str) -> list[Sentence]:
    rule = ruleset.doubling
    if not rule.allowed:
        return [Sentence(in_words(lang, "no_doubling"), rule, "doubling")]
    who = in_words(lang, "double_not_declarer" if rule.by == "not_declarer" else "double_opponents")
    text = in_words(lang, "doubling", who=who, factor=number_text(points(rule.factor, 2), lang))
    if rule.redouble:
        text += " " + in_words(lang, "redouble")
    if rule.during_tricks:
        text += " " + in_words(lang, "double_in_play", n=rule.during_tricks)
    return [Sentence(text, rule, "doubling")]
