"""An analysis as a club reads it (Danish first, English with ``--lang en``) and as JSON
(docs/notation.md "Analysis")."""

from __future__ import annotations

from typing import Any

from regelmotor.cards import SUIT_SYMBOLS, format_card
from regelmotor.double_dummy.analysis import Analysis, CardCost
from regelmotor.double_dummy.table import HandTable
from regelmotor.phrase_table import seat_no
from regelmotor.phrases import card_shown, phrases


def analysis_json(analysis: Analysis) -> dict[str, Any]:
    """The analysis in the JSON shape of docs/notation.md: cards in the notation, seats as strings in maps."""
    return {
        "ruleset": analysis.ruleset,
        "trump": analysis.trump,
        "leader": analysis.leader,
        "declarers": list(analysis.declarers),
        "per_player": analysis.per_player,
        "hands": {str(seat): [format_card(c) for c in hand] for seat, hand in enumerate(analysis.hands)},
        "from_trick": analysis.from_trick,
        "start": analysis.start,
        **(
            {}
            if analysis.start_by_seat is None
            else {"start_by_seat": {str(s): v for s, v in enumerate(analysis.start_by_seat)}}
        ),
        "cards": [
            {
                "trick": c.trick,
                "seat": c.seat,
                "card": format_card(c.card),
                "best": c.best,
                "played": c.played,
                "cost": c.cost,
                "best_cards": [format_card(b) for b in c.best_cards],
                "unsettled": [format_card(u) for u in c.unsettled],
                **({} if c.cost_bounds is None else {"cost_bounds": list(c.cost_bounds)}),
            }
            for c in analysis.cards
        ],
        "total_cost": {str(seat): cost for seat, cost in analysis.total_cost.items()},
        "unknown": analysis.unknown,
    }


def _trump(trump: str | None, lang: str) -> str:
    if trump is None:
        return phrases(lang)["analysis_no_trump"]
    return SUIT_SYMBOLS["SHDC".index(trump)]


def _card_line(card: CardCost, lang: str) -> str:
    words = phrases(lang)
    shown = card_shown(card.card, lang)
    line = f"  {words['analysis_seat']} {seat_no(card.seat)}: {shown}"
    if card.cost is None and card.cost_bounds is not None and card.cost_bounds[0] == card.cost_bounds[1] == 0:
        return line  # not settled exactly, but proven to cost nothing
    if card.cost is None and card.cost_bounds is not None:
        low, high = card.cost_bounds
        return f"{line}  {words['analysis_cost_range'].format(low=low, high=high)}"
    if card.cost is None:
        return f"{line}  {words['analysis_unknown']}"
    if card.cost == 0:
        return line
    cost = words["analysis_cost_one"] if card.cost == 1 else words["analysis_cost"].format(cost=card.cost)
    best = words["analysis_best"].format(cards=" ".join(card_shown(b, lang) for b in card.best_cards))
    if card.unsettled:  # the best cards listed may not be all of them
        unsettled = " ".join(card_shown(u, lang) for u in card.unsettled)
        best += "; " + words["analysis_unsettled_cards"].format(cards=unsettled)
    return f"{line}  {cost} ({best})"


def _seats(values: dict[int, int | None], lang: str) -> str:
    words = phrases(lang)
    return ", ".join(
        words["analysis_seat_tricks"].format(seat=seat_no(seat), tricks="?" if tricks is None else tricks)
        for seat, tricks in values.items()
    )


MORE_NODES = 200_000_000
"""The node budget a club member is told to give a search that did not settle (ten times the default)."""


def unsettled_hint(lang: str, record: str | None = None) -> str:
    """What to do where a search did not settle: give it more positions (``--nodes``); where there is no
    ``--nodes`` (``play``, the page), analyse the deal's record from the command line."""
    words = phrases(lang)
    if record is None:
        return words["analysis_more_nodes"].format(nodes=MORE_NODES)
    return words["analysis_record_hint"].format(record=record, nodes=MORE_NODES)


def analysis_text(analysis: Analysis, lang: str = "da", record: str | None = None, page: bool = False) -> str:
    """``record``: the deal's saved record (``play``), named in the advice on unsettled cards; ``page``: the
    table in the browser, where the record is downloaded first."""
    """Per trick who played what, and where a card cost its side tricks, how many and the best cards."""
    words = phrases(lang)
    seat_word = words["analysis_seat"]
    lines = [
        words["analysis_title"].format(ruleset=analysis.ruleset),
        words["analysis_trump"].format(trump=_trump(analysis.trump, lang), leader=seat_no(analysis.leader)),
    ]
    if analysis.per_player:
        lines.append(words["analysis_each"])
        assert analysis.start_by_seat is not None
        lines.append(words["analysis_start_each"].format(seats=_seats(dict(enumerate(analysis.start_by_seat)), lang)))
    else:
        side = words["analysis_and"].join(f"{seat_word} {seat_no(s)}" for s in analysis.declarers)
        lines.append(words["analysis_side"].format(seats=side))
        start = "?" if analysis.start is None else analysis.start
        if analysis.from_trick == 1:
            lines.append(words["analysis_start"].format(tricks=start))
        else:
            lines.append(words["analysis_start_at"].format(number=analysis.from_trick, tricks=start))
    trick = 0
    for card in analysis.cards:
        if card.trick != trick:
            trick = card.trick
            lines.append(words["analysis_trick"].format(number=trick))
        lines.append(_card_line(card, lang))
    totals: dict[int, int | None] = dict(analysis.total_cost.items())
    lines.append(words["analysis_total"].format(seats=_seats(totals, lang)))
    open_lists = any(card.cost and card.unsettled for card in analysis.cards)
    if analysis.unknown or open_lists:
        hint = unsettled_hint(lang, words["analysis_page_record"] if page else record)
        said = words["analysis_unknown_count"].format(count=analysis.unknown) if analysis.unknown else ""
        if open_lists:
            said = (said + " " + words["analysis_unsettled_alternatives"]).strip()
        lines.append(said + " " + hint)
    return "\n".join(lines) + "\n"


def hand_table_json(table: HandTable) -> dict[str, Any]:
    """A board's table (docs/notation.md "Analysis"): ``jokers_out`` counts the ruleset's jokers in no hand."""
    board = {} if table.board is None else {"board": table.board}
    return {
        **board,
        "ruleset": table.ruleset,
        "jokers_out": table.jokers_out,
        "hands": {str(seat): [format_card(c) for c in hand] for seat, hand in enumerate(table.hands)},
        "tricks": {
            ("none" if trump is None else trump): {str(seat): n for seat, n in enumerate(by_seat)}
            for trump, by_seat in table.tricks.items()
        },
        "bounds": {  # a cell not settled (null in "tricks"): the fewest and most tricks the search proved
            ("none" if trump is None else trump): {str(seat): list(b) for seat, b in enumerate(by_seat) if b}
            for trump, by_seat in table.bounds.items()
        },
    }


def _cell(table: HandTable, trump: str | None, seat: int) -> str:
    """A cell as the table prints it: its tricks, or where the search did not settle, the range it proved."""
    found = table.tricks[trump][seat]
    if found is not None:
        return str(found)
    proven = table.bounds.get(trump, (None,) * 4)[seat]
    return "?" if proven is None else f"{proven[0]}-{proven[1]}"


def hand_table_text(table: HandTable, lang: str = "da") -> str:
    """Rows by declaring seat, columns by trump, as a bridge hand record prints them."""
    words = phrases(lang)
    seat_word = words["analysis_seat"]
    heads = [_trump(trump, lang) for trump in table.tricks]
    lines = [words["analysis_table_title"].format(ruleset=table.ruleset), ""]
    if table.board is not None:  # a board named "Spil nummer tre" is not headed "Spil Spil nummer tre"
        named = table.board.split(" ", 1)[0].casefold() in ("spil", "board")
        lines.insert(0, table.board if named else words["analysis_board"].format(board=table.board))
    if table.jokers_out:  # a joker game's table of a deal without its jokers: played without them, and said
        lines.insert(-1, words["analysis_jokers_out"].format(jokers=table.jokers_out))
    for seat, hand in enumerate(table.hands):
        lines.append(f"{seat_word} {seat_no(seat)}: " + " ".join(card_shown(c, lang) for c in hand))
    lines.append("")
    width = max(len(h) for h in heads) + 2
    lines.append(f"{words['analysis_table_declarer']:<10}" + "".join(f"{h:>{width}}" for h in heads))
    for seat in range(4):
        cells = [_cell(table, trump, seat) for trump in table.tricks]
        lines.append(f"{seat_word + ' ' + str(seat_no(seat)):<10}" + "".join(f"{c:>{width}}" for c in cells))
    if any(n is None for by_seat in table.tricks.values() for n in by_seat):
        lines.append("")
        lines.append(words["analysis_table_unknown"] + " " + unsettled_hint(lang))
    return "\n".join(lines) + "\n"
