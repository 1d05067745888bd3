"""The table and the evening in the rule book: the family's own sentences, printed with the cards."""

from __future__ import annotations

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.families import Sentence, in_words, joined


def table(ruleset: Ruleset, lang: str) -> list[Sentence]:
    """How many play at a table, and who sits out at five and six."""
    rule = ruleset.table
    players = joined(lang, [str(n) for n in rule.players])
    found = [Sentence(in_words(lang, "players", players=players), rule, "table")]
    for sit in rule.sitting_out:
        who = joined(lang, [in_words(lang, seat) for seat in sit.seats], "and")
        found.append(Sentence(in_words(lang, "sit_out", n=sit.players, who=who), sit, "table.sitting_out"))
    return found


def session(ruleset: Ruleset, lang: str) -> list[Sentence]:
    """Fixed partners, and the evening's length: its rounds, its deals, the game played to a target."""
    found = []
    if ruleset.table.partnerships == "fixed":
        found.append(Sentence(in_words(lang, "fixed_partners"), ruleset.table, "table"))
    rule = ruleset.session
    text = in_words(lang, "rounds") if rule.whole_rounds else in_words(lang, "any_deals")
    if rule.deals is not None:
        text = (in_words(lang, "rounds") + " " if rule.whole_rounds else "") + in_words(
            lang, "fixed_deals", n=rule.deals
        )
    if rule.game_to is not None:
        text += " " + in_words(lang, "game_to", n=rule.game_to)
    found.append(Sentence(text, rule, "session"))
    return found
