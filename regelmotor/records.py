"""Game records (docs/notation.md "Game record"): read, replay, write.

A record is what settles a dispute: the ruleset, the dealt hands and kitty, and every action in
order. Replaying it through the same compiled rules reaches the same state, or stops at the
first action the rules forbid and says which rule forbids it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from regelmotor import __version__
from regelmotor.cards import format_card, parse_card
from regelmotor.engine.game import Game
from regelmotor.errors import CardError, NotationError, RegelmotorError, RuleViolation
from regelmotor.files import InputError, read_input
from regelmotor.phrase_table import Said, seat_no
from regelmotor.ruleset.catalogue import FileRef, is_path
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.fingerprint import ruleset_fingerprint
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset


class SeatAction(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int = Field(ge=0, le=3, strict=True, description="Pladsen der handler (0-3); kontrolleres mod turen.")
    """Strict: a JSON ``true`` is no seat (it would be read as seat 1), as the score sheet reads its numbers."""
    action: str = Field(min_length=1, description='Handlingen i notationen, fx "7H", "8" eller "pass".')


class Record(BaseModel):
    """A game record as stored on disk."""

    model_config = ConfigDict(frozen=True, extra="allow")

    version: str | None = Field(default=None, description="regelmotor-versionen der skrev referatet.")
    ruleset: str = Field(min_length=1, description="Reglesættet: et medfølgende navn eller en sti.")
    house_rules: list[str] = Field(default_factory=list, description="Husregler: navne eller stier.")
    ruleset_hash: str | None = Field(default=None, description="Fingeraftryk af reglerne referatet blev spillet efter.")
    plugins: dict[str, str] = Field(
        default_factory=dict, description="Klubbens plugins i spillet: navn -> den installerede pakkes version."
    )
    seed: int | None = Field(default=None, strict=True, description="Frøet kortene blev blandet med, når motoren gav.")
    dealer: int = Field(ge=0, le=3, strict=True, description="Kortgiverens plads (0-3); forhånden er pladsen efter.")
    dealer_at_table: bool = Field(
        default=True,
        description="Falsk når kortgiveren sidder over (5-6 spillere): pladsen er så den fjerde spiller i spillet.",
    )
    hands: list[list[str]] = Field(description="De fire deltagende pladsers hænder i pladsorden, som givet.")
    kitty: list[str] = Field(
        default_factory=list, description="Katten, øverste kort først (det første der vendes i vip)."
    )
    actions: list[str | SeatAction] = Field(default_factory=list, description="Handlingerne i rækkefølge.")
    result: dict[str, Any] | None = Field(default=None, description="Resultatet som motoren så det.")


def record_schema() -> dict[str, Any]:
    schema = Record.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://regelmotor.dk/schemas/record.schema.json"
    schema["title"] = "regelmotor: referat af et spil"
    schema["description"] = "Et spils regler, kort og handlinger, så det kan genspilles (docs/notation.md)."
    return schema


def record_schema_text() -> str:
    return json.dumps(record_schema(), indent=2, ensure_ascii=False) + "\n"


class RecordError(RegelmotorError, ValueError):
    """A record file that cannot be read as a record."""


@dataclass(frozen=True)
class ReplayStop:
    """The first action of a record the rules refuse."""

    index: int
    seat: int | None
    action: str
    rule: str
    message: str
    """Why, in English."""
    message_da: str | None = None
    """Why, in Danish, from the phrase table (None for an action that is not in the notation at all)."""
    source: str | None = None

    def __str__(self) -> str:
        return self.text("en")

    def text(self, lang: str = "da") -> str:
        """The refusal as ``replay`` says it, in ``lang``: the action and the seat counted from 1, as a person
        counts them (the JSON's ``index`` and ``seat`` count from 0, docs/notation.md)."""
        number = self.index + 1
        if lang == "da":
            seat = "" if self.seat is None else f" (plads {seat_no(self.seat)})"
            return f"træk {number}{seat} {self.action!r}: {self.message_da or self.message} [{self.rule}]"
        seat = "" if self.seat is None else f" (seat {seat_no(self.seat)})"
        return f"action {number}{seat} {self.action!r}: {self.message}"


@dataclass(frozen=True)
class Replay:
    game: Game
    resolved: ResolvedRuleset
    stop: ReplayStop | None
    hash_matches: bool | None
    plugin_notes: tuple[str, ...] = ()
    """Plugins the record was played with that this replay lacks, or has in another version."""
    result_differs: tuple[str, ...] = ()
    """Where the record's stored result disagrees with the replay (a tampered or corrupted record)."""


MAX_RECORD_BYTES = 2_000_000
"""A deal's record is a few kilobytes; two megabytes is certainly not one."""
MAX_JSON_DEPTH = 32
"""A record nests four levels; deeper JSON is refused before it is parsed (no recursion to exhaust)."""


def parse_json(text: str | bytes, where: str) -> Any:
    """JSON from an untrusted source: bounded nesting and numbers, each key once, every failure a said
    ``RecordError`` naming its line."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError.said("json_utf8", where=where, byte=exc.start) from None
    text = text.removeprefix("\ufeff")  # a BOM an editor wrote (bytes or text alike): taken
    deepest = _deepest(text)
    if deepest is not None:
        line = text.count("\n", 0, deepest) + 1
        raise RecordError.said("json_deep", where=where, line=line, most=MAX_JSON_DEPTH)
    try:
        return json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant, object_pairs_hook=_unique_keys)
    except RecursionError:  # past the scan only if the scan is wrong: said all the same, never a traceback
        raise RecordError.said("json_deep", where=where, line="?", most=MAX_JSON_DEPTH) from None
    except json.JSONDecodeError as exc:
        raise RecordError.said("json_not", where=where, line=exc.lineno, column=exc.colno, detail=exc.msg) from None
    except _JsonProblem as exc:  # a key twice, a number out of bounds, NaN or Infinity: at its line
        values = {**exc.values, "where": where, "line": exc.line_in(text)}
        raise RecordError.said(exc.phrase, **values) from None


_STRUCTURE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)
"""A JSON string (skipped whole, escapes and all) or a bracket: the only tokens nesting is counted by."""


def _deepest(text: str) -> int | None:
    """Where ``text`` first nests deeper than ``MAX_JSON_DEPTH`` (its index), None if it never does: brackets
    inside strings are not counted, so a string of "]" cannot hide a deep array (nor one of "[" refuse a
    shallow one). Linear in the text, before the recursive reader sees it."""
    depth = 0
    for token in _STRUCTURE.finditer(text):
        char = token.group()[0]
        if char in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return token.start()
        elif char in "]}":
            depth -= 1
    return None


class _JsonProblem(ValueError):
    """What the JSON reader's hooks refuse, said, and the text that finds its line."""

    def __init__(self, phrase: str, pattern: str, nth: int = 1, **values: object) -> None:
        super().__init__(phrase)
        self.phrase, self.pattern, self.nth, self.values = phrase, pattern, nth, values

    def line_in(self, text: str) -> int | str:
        found = list(re.finditer(self.pattern, text))
        if len(found) < self.nth:
            return "?"
        return text.count("\n", 0, found[self.nth - 1].start()) + 1


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each given once: a key given twice is a mistake (or an attack) that
    plain JSON reading would settle silently, by the last one."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            pattern = re.escape(json.dumps(key)) + r"\s*:"
            raise _JsonProblem("json_key_twice", pattern, 2, key=key[:40])
        found[key] = value
    return found


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 30:
        raise _JsonProblem("json_number_long", re.escape(text[:31]), digits=len(text))
    return int(text)


def _no_constant(text: str) -> Any:
    raise _JsonProblem("json_constant", re.escape(text), text=text)


_SAID_ERRORS = {"int_type": "record_whole", "string_type": "record_text", "missing": "record_missing"}
"""pydantic's errors a record commonly has, by the phrase that says them in the reader's language."""
_BRANCHES = ("str", "SeatAction", "int", "none")
"""The tags pydantic puts in a location for the branch of an either-or field (an action: text or seat and text)."""


def _record_problem(path: str | Path, exc: ValidationError) -> RecordError:
    """The record's first problem, at its key path: of an action given as ``{"seat", "action"}`` the seat's
    problem, not that it is not text (the other form an action may take)."""
    errors = exc.errors()
    for error in errors:
        if not (isinstance(error.get("input"), dict) and "str" in error["loc"]):
            first = error
            break
    else:
        first = errors[0]
    where = ".".join(str(p) for p in first["loc"] if p not in _BRANCHES)
    phrase = _SAID_ERRORS.get(first["type"])
    if phrase is None:
        return RecordError(f"{path}: {where}: {first['msg']}")
    return RecordError.said(phrase, path=path, where=where, value=json.dumps(first.get("input"), default=str)[:40])


def read_record(path: str | Path) -> Record:
    try:
        data = parse_json(read_input(Path(path), MAX_RECORD_BYTES).data, str(path))
    except InputError as exc:
        raise RecordError.said("as_is", error=exc) from None
    try:
        record = Record.model_validate(data)
    except ValidationError as exc:
        raise _record_problem(path, exc) from None
    problem = version_problem(record.version)
    if problem is not None:
        raise RecordError(f"{path}: {problem}")
    return record


def _ruleset_ref(ref: str, base: Path | None) -> str | FileRef:
    """A name stays a name; a path in a record is relative to the record's folder."""
    if base is not None and is_path(ref):
        path = base / ref
        return FileRef(path, str(path))
    return ref


def replay(record: Record, base: Path | None = None, where: str | Path | None = None) -> Replay:
    """Replay ``record`` (paths in it are relative to ``base``) as far as the rules allow; ``where``: the
    record's file, named where its cards cannot be dealt under rules other than it was played under."""
    resolved = load_ruleset(_ruleset_ref(record.ruleset, base), [_ruleset_ref(h, base) for h in record.house_rules])
    rules = compile_rules(resolved)
    matches = None if record.ruleset_hash is None else record.ruleset_hash == resolved.fingerprint
    try:
        hands = [[parse_card(c) for c in hand] for hand in record.hands]
        kitty = [parse_card(c) for c in record.kitty]
    except CardError as exc:
        raise RecordError(f"the dealt cards: {exc}") from None
    try:
        game = Game(rules, hands, kitty, record.dealer, seed=record.seed, dealer_at_table=record.dealer_at_table)
    except RegelmotorError as exc:
        if matches is False:  # the record's cards, refused by other rules than its own: the rules, not the cards
            what = Said.of("record_deal_refused", error=exc)
            raise _rules_differ(resolved, what, record.ruleset if where is None else where) from None
        raise
    stop = None
    for index, item in enumerate(record.actions):
        action, seat = (item.action, item.seat) if isinstance(item, SeatAction) else (item, None)
        try:
            game.apply(action, seat)
        except RuleViolation as exc:
            at = seat if seat is not None else game.to_act
            stop = ReplayStop(index, at, action, exc.rule, str(exc), exc.text("da"), exc.source)
            break
        except NotationError as exc:
            stop = ReplayStop(index, seat if seat is not None else game.to_act, action, "notation", str(exc))
            break
    notes = tuple(_plugin_notes(record, dict(rules.plugins)))
    differs = () if stop is not None or record.result is None else tuple(_result_differs(record.result, game))
    return Replay(game, resolved, stop, matches, notes, differs)


@dataclass(frozen=True)
class ReplayCheck:
    """What ``replay`` and ``analyse`` say of a replayed record beside what they print, in the reader's
    language: its warnings (played under other rules than its ruleset now resolves to, with plugins this
    replay lacks), and why it is refused, if it is: a rule stops it, or its stored result is not the replay's;
    where its rules are not the ones it was played under, that (``rules_differ``) and not a card."""

    warnings: tuple[RecordError, ...]
    refusals: tuple[RecordError, ...]
    """The action the rules stop, or each difference of the stored result from the replay."""
    rules_differ: RecordError | None = None
    """The record was played under other rules (its fingerprint) and does not replay under these."""


def check_replay(result: Replay, where: str | Path) -> ReplayCheck:
    """The checks of a replayed record (``ReplayCheck``), one copy for ``replay`` and ``analyse``."""
    refusals: list[RecordError] = []
    if result.stop is not None:
        refusals.append(RecordError.said("record_stop", where=where, stop=_StopSaid(result.stop)))
    refusals += [RecordError.said("record_result_differs", where=where, difference=d) for d in result.result_differs]
    rules_differ = None
    if refusals and result.hash_matches is False:
        stop = result.stop
        what = Said.of("record_result_other") if stop is None else Said.of("record_stopped_at", number=stop.index + 1)
        rules_differ = _rules_differ(result.resolved, what, where)
    warnings: list[RecordError] = []
    label, fingerprint = result.resolved.label, result.resolved.fingerprint
    if result.hash_matches is False and rules_differ is None:  # the refusal says it, where there is one
        warnings.append(RecordError.said("record_other_rules", label=label, fingerprint=fingerprint))
    warnings += [RecordError.said("record_note", note=note) for note in result.plugin_notes]
    return ReplayCheck(tuple(warnings), tuple(refusals), rules_differ)


def _rules_differ(resolved: ResolvedRuleset, what: Said, where: str | Path) -> RecordError:
    """The record does not replay under the rules it names, which are not the ones it was played under."""
    return RecordError.said(
        "record_rules_differ", where=where, label=resolved.label, fingerprint=resolved.fingerprint, what=what
    )


@dataclass(frozen=True)
class _StopSaid:
    """A replay's stop as a value of a phrase: said in the phrase's language."""

    stop: ReplayStop

    def said_as(self, lang: str) -> str:
        return self.stop.text(lang)


def _plugin_notes(record: Record, installed: dict[str, str]) -> Iterator[Said]:
    """What the record says was played with plugins that this replay does not have."""
    for name, version in sorted(record.plugins.items()):
        if name not in installed:
            yield Said.of("record_plugin_missing", name=name, version=version)
        elif installed[name] != version:
            yield Said.of("record_plugin_version", name=name, version=version, installed=installed[name])


RESULT_KEYS = ("contract", "declarers", "trump", "called", "tricks_won", "scores", "redeal")
"""What a stored result must agree with the replay on (the deal's outcome, not its presentation)."""


def _result_differs(stored: dict[str, Any], game: Game) -> Iterator[Said]:
    """Each key of the result where the stored one is not the replay's (said, its English the text itself)."""
    replayed = json.loads(json.dumps(state_json(game), default=str))
    for key in RESULT_KEYS:
        if key in stored and stored[key] != replayed[key]:
            shown = json.dumps(stored[key])[:80]
            yield Said.of("record_differs", key=key, stored=shown, replayed=json.dumps(replayed[key]))


def version_problem(version: str | None) -> str | None:
    """A record written by a regelmotor this one cannot promise to read, or no regelmotor version at all."""
    if version is None:
        return None
    found = re.fullmatch(r"(\d{1,4})\.(\d{1,4})(\.\d{1,4})?([.+-]?[0-9A-Za-z.+-]{0,40})", version)
    if found is None:
        return f'version "{version[:40]}" is not a regelmotor version (such as "{__version__}")'
    ours = tuple(int(x) for x in __version__.split(".")[:2])
    if (int(found[1]), int(found[2])) > ours:
        return f"version {version}: written by a newer regelmotor than this one ({__version__}); update regelmotor"
    return None


def dealt_cards(game: Game) -> dict[str, Any]:
    """The cards ``game`` was dealt, in the notation: the four hands in seat order and the kitty."""
    return {
        "hands": [[format_card(c) for c in hand] for hand in game.initial_hands],
        "kitty": [format_card(c) for c in game.initial_kitty],
    }


def game_record(game: Game, ruleset: str, house_rules: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """The record of ``game`` as the engine writes it (it replays to the same state)."""
    return {
        "version": __version__,
        "ruleset": ruleset,
        "house_rules": list(house_rules),
        "ruleset_hash": ruleset_fingerprint(game.ruleset),
        "plugins": dict(game.rules.plugins),
        "seed": game.seed,
        "dealer": game.dealer,
        **({} if game.dealer_at_table else {"dealer_at_table": False}),
        **dealt_cards(game),
        "actions": [str(action) for _, action in game.history],
        "result": state_json(game),
    }


def state_json(game: Game) -> dict[str, Any]:
    """The state reached, as ``replay --json`` prints it (docs/notation.md)."""
    return {
        "phase": game.phase,
        "to_act": game.to_act,
        "legal_actions": [str(action) for action in game.legal],
        "dealer": game.dealer,
        **({} if game.dealer_at_table else {"dealer_at_table": False}),
        "contract": game.contract,
        "declarers": list(game.declarers),
        "trump": game.trump,
        "called": None if game.called is None else format_card(game.called),
        "partner": game.partner if game.partner_public else None,
        "vip_card": game.vip_card or None,
        "doublings": game.doublings,
        "turned": [format_card(c) for c in game.turned],
        "trick": [{"seat": seat, "card": format_card(card)} for seat, card in game.trick],
        "tricks": [
            {"leader": t.leader, "cards": [format_card(c) for c in t.cards], "winner": t.winner} for t in game.tricks
        ],
        "tricks_won": list(game.tricks_won),
        "scores": None if game.scores is None else game.rules.scoring.shown_points(game.scores),
        "redeal": None
        if game.redeal is None
        else {"reason": game.redeal.reason, "next_dealer": game.redeal.next_dealer, "seat": game.redeal.seat},
        "events": list(game.events),
    }


__all__ = [
    "Record",
    "RecordError",
    "Replay",
    "ReplayCheck",
    "ReplayStop",
    "check_replay",
    "dealt_cards",
    "game_record",
    "read_record",
    "record_schema",
    "replay",
    "state_json",
]
