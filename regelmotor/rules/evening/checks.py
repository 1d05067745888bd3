"""The table's and the evening's checks: how many may sit at it, who sits out, and a fee the club can take."""

from __future__ import annotations

from collections.abc import Iterator

from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.findings import Finding, said


def check(r: Ruleset) -> Iterator[Finding]:
    players = r.table.players
    if not players:
        yield ("table", "players"), said("check_no_number_of_players_is")
    for i, count in enumerate(players):
        if not 4 <= count <= 6:
            yield ("table", "players", i), said("check_players_cannot_play_es_makker", count=count)
    if len(set(players)) != len(players):
        yield ("table", "players"), said("check_a_number_of_players_is")
    rules = {s.players: (i, s) for i, s in enumerate(r.table.sitting_out)}
    for i, sit in enumerate(r.table.sitting_out):
        if sit.players not in players:
            yield (
                ("table", "sitting_out", i, "players"),
                said("check_players_is_not_an_allowed", sit_players=sit.players),
            )
        if len(sit.seats) != sit.players - 4:
            yield (
                ("table", "sitting_out", i, "seats"),
                said(
                    "check_at_players_must_sit_out",
                    sit_players=sit.players,
                    sit_players_4=sit.players - 4,
                    len_sit_seats=len(sit.seats),
                ),
            )
        if len(set(sit.seats)) != len(sit.seats):
            yield ("table", "sitting_out", i, "seats"), said("check_the_same_seat_is_named")
    for count in players:
        if count > 4 and count not in rules:
            yield ("table", "sitting_out"), said("check_the_table_allows_players_but", count=count)
    if r.money.evening_fee < 0:
        yield ("money", "evening_fee"), said("check_an_evening_fee_is_paid", r_money_evening_fee=r.money.evening_fee)
