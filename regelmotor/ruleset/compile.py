"""Compile a resolved ruleset into ``Rules``: the plain functions the engine calls.

Each ruleset gets its own ``PluginManager`` (never a global one): the standard rule families
first, then the club's plugins named in the ruleset, each with its own settings. Every factory
hook is called once here; afterwards the engine calls frozen callables with no hook dispatch in
its loops. Compiling is also the last step of validation: a rule the engine does not play, a
plugin that is missing, misspells a hook or rejects its settings, and every problem a plugin's
``regelmotor_check`` finds, are ``RulesetProblems`` located at the key that says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any, TypeVar, cast

import pluggy
from pydantic import BaseModel, ValidationError

from regelmotor.bids import Bid, Ladder, fold
from regelmotor.errors import Problem, RuleNotImplemented
from regelmotor.hooks import (
    PROJECT,
    CalledCardBinds,
    ContractInfo,
    Redealing,
    RegelmotorSpecs,
)
from regelmotor.model.ruleset import Ruleset
from regelmotor.phrase_table import Said, say
from regelmotor.rules.auction.hooks import AuctionRules
from regelmotor.rules.called_card.hooks import CalledCardRules
from regelmotor.rules.cardplay.constants import ending, play_constants
from regelmotor.rules.contracts.ladder import LadderRules
from regelmotor.rules.dealing.hooks import DealingRules
from regelmotor.rules.declaration.hooks import DeclarationRules
from regelmotor.rules.doubling.hooks import DoublingRules
from regelmotor.rules.evening.evening_rules import EveningRules, evening_rules
from regelmotor.rules.exchange.hooks import ExchangeRules
from regelmotor.rules.fordaekt.hooks import FordaektRules
from regelmotor.rules.gaa_med.hooks import GaaMedRules
from regelmotor.rules.jernhaand.hooks import JernhaandRules
from regelmotor.rules.jokers.cardplay import led_beats_trump
from regelmotor.rules.jokers.joker_trumpable import JokerTrumpable
from regelmotor.rules.play.hooks import PlayRules
from regelmotor.rules.play.open_hands import OpenHandRules
from regelmotor.rules.play.trick_winner import TrickWinnerRules
from regelmotor.rules.redeal.hooks import RedealRules
from regelmotor.rules.scoring.scorer import RoleScores as RoleScores
from regelmotor.rules.scoring.scorer import Scorer, ScoringProblem, check_zero_sum
from regelmotor.rules.scoring.settlement import SettlementRules
from regelmotor.rules.vip.hooks import VipRules
from regelmotor.ruleset.load import ResolvedRuleset
from regelmotor.ruleset.phases import AuctionPhase, DealPhase, DeclarationPhase, ExchangePhase, PlayPhase, ScoringPhase
from regelmotor.ruleset.schema_check import model_said

STANDARD_PLUGINS: tuple[type, ...] = (
    LadderRules,
    DealingRules,
    RedealRules,
    JernhaandRules,
    GaaMedRules,
    AuctionRules,
    DeclarationRules,
    VipRules,
    ExchangeRules,
    FordaektRules,
    DoublingRules,
    PlayRules,
    CalledCardRules,
    OpenHandRules,
    TrickWinnerRules,
    JokerTrumpable,
    SettlementRules,
)

Path = tuple[str | int, ...]
_T = TypeVar("_T")
PLAY_HOOKS = (
    "regelmotor_legal_cards",
    "regelmotor_trick_winner",
    "regelmotor_play_over",
    "regelmotor_called_card_binds",
    "regelmotor_open_hands",
    "regelmotor_fordaekt",
    "regelmotor_made",
    "regelmotor_settle",
)
"""Every play-relevant compiled callable, whose shipped rules the fast path's bits copy: where a club's
plugin decides any of them, the kernel and the search do not play the club's game exactly, and playouts go
through the hooks."""


@dataclass(frozen=True)
class Unsupported:
    """A value the schema can express that the engine does not play."""

    path: Path
    applies: Callable[[Ruleset], bool]
    phrase: str
    """The value, and why the engine lacks it, in the phrase table (``err_<phrase>``)."""

    @property
    def rule(self) -> str:
        """The value and why, in English (a ``Said``: ``text(lang)`` in the reader's language)."""
        return _said(self.phrase)


NOT_IMPLEMENTED: tuple[Unsupported, ...] = (
    Unsupported(
        ("called_card", "may_be_trumped"),
        lambda r: not r.called_card.may_be_trumped,
        "unsupported_untrumpable",
    ),
    Unsupported(
        ("exchange", "order"),
        lambda r: r.exchange.allowed and r.exchange.order == "take_first",
        "unsupported_take_first",
    ),
)
"""The one table of rules the engine lacks: ``validate`` reports them, compiling refuses them."""


class RulesetProblems(RuleNotImplemented):
    """A ruleset that cannot be compiled: every problem, each with its key path.

    A problem is the English text; one of the loader's own is a ``Said``, which says itself in the reader's
    language (a plugin's check says what its author wrote)."""

    def __init__(self, problems: Sequence[tuple[Path, str]]) -> None:
        self.problems = tuple(problems)
        self.rule = ".".join(str(p) for p in self.problems[0][0])
        Exception.__init__(self, self.text("en"))

    def text(self, lang: str = "da") -> str:
        """The first problem in ``lang``, and how many more there are: what a command that compiles says."""
        first = self.problems[0][1]
        said = first.text(lang) if isinstance(first, Said) else first
        more = len(self.problems) - 1
        return said + (say("err_and_more", {"count": more}, lang) if more else "")


def _said(phrase: str, **values: object) -> Said:
    """A problem of compiling as the phrase table says it (``err_<phrase>``): the English text, which says
    itself in the reader's language where ``validate`` reports it."""
    return Said.of(f"err_{phrase}", **values)


def _plugin(name: str, problem: str | Exception) -> Said:
    """A plugin's problem, named by the plugin (its own words where they are its author's)."""
    return _said("plugin_problem", name=name, error=problem)


@dataclass(frozen=True)
class Rules:
    """A ruleset compiled for the engine, by phase (``ruleset/phases.py``): ``dealing``, ``auction``,
    ``declaration``, ``exchange``, ``play``, ``scoring`` and ``evening``."""

    ruleset: Ruleset
    """The club's file as resolved: for what holds the file itself (records, the sheet, ``show``), never to
    ask a rule of it (the phases answer those, with every plugin's hook)."""
    dealing: DealPhase
    auction: AuctionPhase
    declaration: DeclarationPhase
    exchange: ExchangePhase
    play: PlayPhase
    scoring: ScoringPhase
    evening: EveningRules
    """The evening's rules around its deals (sitting out, the next dealer, the misdeal's penalty, the game's
    target, the evening's money), for the session and the score sheet."""
    plugin_manager: pluggy.PluginManager
    plugins: tuple[tuple[str, str], ...] = ()
    """The club's plugins as (name, version of the package that provides it), for records."""
    _kept: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
    """What ``kept`` keeps: a new one for each ``Rules``, also one made by ``dataclasses.replace``."""

    @property
    def name(self) -> str:
        """The ruleset's name, as records and ``--ruleset`` name it."""
        return self.ruleset.name

    @property
    def title(self) -> str:
        """The ruleset's title, as the rule book and the score sheet head it."""
        return self.ruleset.title

    def contract_bid(self, text: str) -> Bid:
        """The bid of a contract in canonical notation: a bid of the ladder, or the game played when all
        pass (pasnolo) or when no one bids (engelsk whist), which is not in the ladder."""
        bid = self.auction.ladder.by_text.get(text)
        if bid is not None:
            return bid
        other = self.dealing.redealing.all_pass_contract
        if other is not None:
            shown = self.auction.named(other)
            if fold(text) in (fold(other.text), fold(shown.display if shown is not None else other.text)):
                return other
        return self.auction.ladder.parse(text)

    def kept(self, name: str, make: Callable[[Rules], _T]) -> _T:
        """``make(self)``, made once per compiled ruleset and kept with it under ``name``: what a consumer
        derives from the rules (the kernel's constants, the auction's actions, a bot's tables) is made once
        per ruleset, not once per deal. The one memo of the rules."""
        found = self._kept.get(name, _MISSING)
        if found is _MISSING:
            found = self._kept.setdefault(name, make(self))
        return cast(_T, found)

    def from_club(self, hook: str) -> bool:
        """Whether a club's plugin implements ``hook`` (not only the shipped rule families): where one does,
        the shipped family's copy of the rule (the kernel's bits, the dealer's check) is not the rule."""
        return _from_club(self.plugin_manager, hook)

    def bots(self) -> dict[str, Callable[..., Any]]:
        """The bots the ruleset's plugins offer, by name."""
        out: dict[str, Callable[..., Any]] = {}
        for offered in self.plugin_manager.hook.regelmotor_bots():
            if offered:
                out.update(offered)
        return out

    def describe(self, language: str) -> list[str]:
        """The plugins' own sentences for the rule book and the diff."""
        return [
            line
            for lines in self.plugin_manager.hook.regelmotor_describe(ruleset=self.ruleset, language=language)
            if lines
            for line in lines
        ]


_MISSING = object()


def _entry_points() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=PROJECT)}


def _version(ep: metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return str(getattr(dist, "version", "?")) if dist is not None else "?"


def _located(exc: ValidationError, at: Path) -> Iterator[tuple[Path, str]]:
    """A plugin's settings refused by its own model, each said as the loader says the ruleset's."""
    for error in exc.errors():
        said = model_said(error)
        yield (*at, *error["loc"]), error["msg"] if said is None else _said(said[0], **said[1])


def _instance(obj: Any, settings: Mapping[str, Any], at: Path) -> tuple[Any, list[tuple[Path, str]]]:
    """The object to register for an entry point naming a module, an instance or a class.

    A class is instantiated: with its settings validated by its own ``Settings`` model when it has
    one, with no arguments when it has none.
    """
    model = getattr(obj, "Settings", None)
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        model = None
    if settings and model is None:
        return None, [((*at, "settings"), _said("plugin_no_settings"))]
    if model is not None and not isinstance(obj, type):
        return None, [(at, _said("plugin_settings_class"))]
    if model is not None:
        try:
            parsed = model.model_validate(dict(settings))
        except ValidationError as exc:
            return None, list(_located(exc, (*at, "settings")))
        return obj(parsed), []
    return (obj() if isinstance(obj, type) else obj), []


def plugin_manager(
    ruleset: Ruleset, objects: Sequence[object] = ()
) -> tuple[pluggy.PluginManager, tuple[tuple[str, str], ...]]:
    """The ruleset's plugin manager and its club plugins' versions; ``RulesetProblems`` when a plugin fails.
    ``objects``: plugin objects registered after the shipped rule families and before the file's plugins
    (a library user's own rules, without a package)."""
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(RegelmotorSpecs)
    for plugin in STANDARD_PLUGINS:
        pm.register(plugin(), name=plugin.__name__)
    for index, obj in enumerate(objects):
        pm.register(obj, name=f"{type(obj).__name__}-{index + 1}")
    problems: list[tuple[Path, str]] = []
    versions: list[tuple[str, str]] = []
    uses = ruleset.plugin_uses()
    available = _entry_points() if uses else {}
    where: dict[str, Path] = {}
    for index, use in enumerate(uses):
        at: Path = ("plugins", index)
        ep = available.get(use.name)
        if ep is None:
            problems.append(((*at,), _plugin(use.name, _said("plugin_not_installed"))))
            continue
        try:
            loaded = ep.load()
        except Exception as exc:  # a broken plugin package: say which, and why
            loading = f"{type(exc).__name__}: {exc}"  # the package's own words: for whoever installed it
            problems.append((at, _plugin(use.name, _said("plugin_not_loaded", error=loading))))
            continue
        instance, found = _instance(loaded, use.settings, at)
        if found:
            problems.extend((path, _plugin(use.name, message)) for path, message in found)
            continue
        try:
            pm.register(instance, name=use.name)
        except (pluggy.PluginValidationError, ValueError) as exc:
            problems.append((at, _plugin(use.name, str(exc))))  # pluggy's words, for the plugin's author
            continue
        where[use.name] = at
        versions.append((use.name, _version(ep)))
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        name = pm.get_name(exc.plugin) or "?"
        problems.append((where.get(name, ("plugins",)), _plugin(name, str(exc))))
    if problems:
        raise RulesetProblems(problems)
    return pm, tuple(versions)


def _from_club(pm: pluggy.PluginManager, hook: str) -> bool:
    """Whether a club's plugin implements ``hook`` (not only the standard rule families)."""
    standard = {plugin.__name__ for plugin in STANDARD_PLUGINS}
    return any(impl.plugin_name not in standard for impl in getattr(pm.hook, hook).get_hookimpls())


def unsupported(ruleset: Ruleset) -> list[tuple[Path, str]]:
    return [(u.path, u.rule) for u in NOT_IMPLEMENTED if u.applies(ruleset)]


def compile_rules(ruleset: Ruleset | ResolvedRuleset, plugins: Sequence[object] = ()) -> Rules:
    """Build the engine's functions for ``ruleset``; ``RuleNotImplemented`` (``RulesetProblems``) for
    a rule the engine lacks, a plugin that fails, or a problem a plugin's check finds. ``plugins``: plugin
    objects of the caller's own, registered after the shipped rule families (``plugin_manager``)."""
    model = ruleset.ruleset if isinstance(ruleset, ResolvedRuleset) else ruleset
    missing = unsupported(model)
    if missing:
        raise RulesetProblems([(path, _said("not_implemented", rule=rule)) for path, rule in missing])
    pm, versions = plugin_manager(model, plugins)
    hook = pm.hook
    checked = [finding for found in hook.regelmotor_check(ruleset=model) if found for finding in found]
    if checked:
        raise RulesetProblems(
            [
                (tuple(path), message if isinstance(message, str) else _said("as_is", error=message))
                for path, message in checked
            ]
        )

    def one(name: str, **kwargs: Any) -> Any:
        result = getattr(hook, name)(ruleset=model, **kwargs)
        if result is None:
            raise RuleNotImplemented(name, "no plugin implements it for this ruleset")
        return result

    ladder: Ladder = one("regelmotor_ladder")
    may_join = one("regelmotor_may_join")
    scorer: Scorer = one("regelmotor_scorer")
    if _from_club(pm, "regelmotor_scorer"):  # the loader checked the standard scorer; a plugin's is checked here
        try:
            problem = check_zero_sum(scorer)
        except ScoringProblem as exc:
            problem = exc
        if problem is not None:
            raise RulesetProblems([(problem.path, _said("plugins_scoring", error=problem.said or problem.message))])
    redealing: Redealing = one("regelmotor_redealing")
    called_card_binds: CalledCardBinds = one("regelmotor_called_card_binds")
    auction = AuctionPhase(
        ladder=ladder,
        procedure=one("regelmotor_auction", ladder=ladder, may_join=may_join),
        may_join=may_join,
        designations=model.designations,
        levels=model.levels,
        sol_contracts=model.sol_bids,
        named_contracts=model.named_bids(),
        fixed_partners=model.table.partnerships == "fixed",
    )
    constants = play_constants(model)
    return Rules(
        ruleset=model,
        dealing=DealPhase(
            deal=one("regelmotor_dealer"),
            redeal_claims=tuple(c for c in hook.regelmotor_redeal_claims(ruleset=model) if c is not None),
            redealing=redealing,
            jokers=model.deck.jokers,
            kitty=model.deck.kitty,
            shipped_dealer=not _from_club(pm, "regelmotor_dealer"),
        ),
        auction=auction,
        declaration=DeclarationPhase(
            plan=one("regelmotor_declaration"),
            trump_choices=one("regelmotor_trump_choices"),
            call_choices=one("regelmotor_call_choices"),
            vip=one("regelmotor_vip"),
            vip_turns=one("regelmotor_vip_turns"),
            fordaekt=one("regelmotor_fordaekt"),
            doubling=one("regelmotor_doubling"),
        ),
        exchange=ExchangePhase(plan=one("regelmotor_exchange")),
        play=PlayPhase(
            legal_cards=one("regelmotor_legal_cards"),
            called_card_binds=called_card_binds,
            trick_winner=one("regelmotor_trick_winner"),
            play_over=one("regelmotor_play_over"),
            open_hands=one("regelmotor_open_hands"),
            constants=constants,
            endings={s.id: ending(s) for s in model.named_bids()},
            exact=not any(_from_club(pm, name) for name in PLAY_HOOKS),
            led_joker_wins=bool(model.deck.jokers and led_beats_trump(constants)),
            exempt_declarer=bool(ladder.bids) and not called_card_binds(0, ContractInfo(ladder.bids[0], (0,))),
        ),
        scoring=ScoringPhase(
            made=one("regelmotor_made"),
            settle=one("regelmotor_settle", scorer=scorer),
            scorer=scorer,
            decimals=model.scoring.decimals,
            zero_sum=model.scoring.losers_pay,
            side=auction.side,
        ),
        evening=evening_rules(model, one("regelmotor_session_settlement")),
        plugin_manager=pm,
        plugins=versions,
    )


def compile_problems(resolved: ResolvedRuleset) -> list[Problem]:
    """Compiling problems of a valid ruleset, located like the loader's."""
    try:
        compile_rules(resolved)
    except RulesetProblems as exc:
        return [
            Problem.said(resolved.where(path), path, "as_is", error=message)
            if isinstance(message, Said)
            else Problem(resolved.where(path), path, message)  # a plugin's check: its author's words
            for path, message in exc.problems
        ]
    except RuleNotImplemented as exc:
        return [Problem(resolved.where(()), (), str(exc))]
    return []
