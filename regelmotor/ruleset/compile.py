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
from fractions import Fraction
from importlib import metadata
from typing import Any, TypeVar

import pluggy
from pydantic import BaseModel, ValidationError

from regelmotor.bids import Bid, Ladder, fold
from regelmotor.errors import Problem, RuleNotImplemented
from regelmotor.hooks import (
    PROJECT,
    Auction,
    CallChoices,
    CalledCardBinds,
    ContractInfo,
    Dealer,
    Declaration,
    DoublingRule,
    Exchanger,
    FordaektRule,
    LegalCards,
    Made,
    OpenHands,
    PlayOver,
    RedealClaim,
    Redealing,
    RegelmotorSpecs,
    SessionSettle,
    Settle,
    TrickWinner,
    TrumpChoices,
    VipRule,
    VipTurns,
)
from regelmotor.model.ruleset import Designation, Ruleset, Side, SolBid
from regelmotor.rounding import zero_sum_points
from regelmotor.rules.auction import AuctionRules
from regelmotor.rules.cardplay.called_card import leads_its_suit
from regelmotor.rules.cardplay.constants import CardPlay, card_play
from regelmotor.rules.dealing import DealingRules
from regelmotor.rules.declaration import DeclarationRules
from regelmotor.rules.doubling import DoublingRules
from regelmotor.rules.evening import EveningRules, evening_rules
from regelmotor.rules.exchange import ExchangeRules
from regelmotor.rules.fordaekt import FordaektRules
from regelmotor.rules.gaa_med import GaaMedRules
from regelmotor.rules.jernhaand import JernhaandRules
from regelmotor.rules.joker_trumpable import JokerTrumpable
from regelmotor.rules.ladder import LadderRules
from regelmotor.rules.open_hands import OpenHandRules
from regelmotor.rules.play import PlayRules
from regelmotor.rules.redeal import RedealRules
from regelmotor.rules.scoring import RoleScores as RoleScores  # what role_points answers, for its callers
from regelmotor.rules.scoring import Scorer, ScoringProblem, ShownRoles, check_zero_sum, shown_roles
from regelmotor.rules.settlement import SettlementRules
from regelmotor.rules.trick_winner import TrickWinnerRules
from regelmotor.rules.vip import VipRules
from regelmotor.ruleset.load import ResolvedRuleset

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
    OpenHandRules,
    TrickWinnerRules,
    JokerTrumpable,
    SettlementRules,
)

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Unsupported:
    """A value the schema can express that the engine does not play."""

    path: Path
    applies: Callable[[Ruleset], bool]
    rule: str


NOT_IMPLEMENTED: tuple[Unsupported, ...] = (
    Unsupported(
        ("called_card", "may_be_trumped"),
        lambda r: not r.called_card.may_be_trumped,
        "called_card.may_be_trumped: false (no source asks for a called ace that cannot be trumped)",
    ),
    Unsupported(
        ("exchange", "order"),
        lambda r: r.exchange.allowed and r.exchange.order == "take_first",
        "exchange.order: take_first (the engine exchanges by discarding first, then taking the kitty)",
    ),
)
"""The one table of rules the engine lacks: ``validate`` reports them, compiling refuses them."""


class RulesetProblems(RuleNotImplemented):
    """A ruleset that cannot be compiled: every problem, each with its key path."""

    def __init__(self, problems: Sequence[tuple[Path, str]]) -> None:
        self.problems = tuple(problems)
        first_path, first = self.problems[0]
        more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        self.rule = ".".join(str(p) for p in first_path)
        Exception.__init__(self, first + more)


@dataclass(frozen=True)
class Rules:
    """A ruleset compiled for the engine."""

    ruleset: Ruleset
    ladder: Ladder
    deal: Dealer
    redeal_claims: tuple[RedealClaim, ...]
    redealing: Redealing
    may_join: Callable[[Bid], bool]
    auction: Auction
    declaration: Declaration
    trump_choices: TrumpChoices
    call_choices: CallChoices
    vip: VipRule
    vip_turns: VipTurns
    exchange: Exchanger
    fordaekt: FordaektRule
    doubling: DoublingRule
    legal_cards: LegalCards
    called_card_binds: CalledCardBinds
    trick_winner: TrickWinner
    play_over: PlayOver
    made: Made
    open_hands: OpenHands
    scorer: Scorer
    """The scoring tables behind ``settle``. Nothing outside the rule families reads it: every consumer
    scores through ``settle`` (``points``, ``role_points``), so a plugin's wrapper is seen everywhere."""
    settle: Settle
    session_settlement: SessionSettle
    plugin_manager: pluggy.PluginManager
    evening: EveningRules
    """The evening's rules around its deals (sitting out, the next dealer, the misdeal's penalty, the game's
    target), for the session and the score sheet."""
    card_play: CardPlay
    """The play rules' constants for ``rules.cardplay``'s bitmask functions (the kernel's playouts; the
    shipped play hooks hold the same)."""
    plugins: tuple[tuple[str, str], ...] = ()
    """The club's plugins as (name, version of the package that provides it), for records."""
    jokers: int = 0
    kitty_size: int = 0
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Values consumers derive from these rules and keep with them, by name (the engine's actions for the
    auction's calls): made once per compiled ruleset, not once per deal."""
    shipped_dealer: bool = False
    """Whether the shipped dealing rule deals (no plugin's): then a deal dealt from a new deck holds every
    card once by construction, and ``Game.from_seed`` does not check it again."""

    @property
    def name(self) -> str:
        """The ruleset's name, as records and ``--ruleset`` name it."""
        return self.ruleset.name

    @property
    def title(self) -> str:
        """The ruleset's title, as the rule book and the score sheet head it."""
        return self.ruleset.title

    @property
    def fixed_partners(self) -> bool:
        """Whether partners sit across the whole evening (engelsk and dansk whist), where no card calls them."""
        return self.ruleset.table.partnerships == "fixed"

    @property
    def designations(self) -> tuple[Designation, ...]:
        """The trump bids' designations, the plain one (lowest) first; none where every bid is named."""
        return self.ruleset.designations

    @property
    def led_joker_wins(self) -> bool:
        """Whether a led joker always takes its trick (where it does not, it loses to the highest trump)."""
        jokers = self.ruleset.jokers
        return jokers is not None and jokers.led_joker == "wins"

    @property
    def levels(self) -> range:
        """The numbers of tricks a trump bid may name (none without designations)."""
        return self.ruleset.levels

    @property
    def sol_contracts(self) -> tuple[SolBid, ...]:
        """The bids named by their name (sol, ren sol, bordlægger; every bid of dansk whist), lowest first."""
        return self.ruleset.sol_bids

    @property
    def named_contracts(self) -> tuple[SolBid, ...]:
        """The sol contracts, then the one played when all pass (pasnolo), where there is one."""
        return self.ruleset.named_bids()

    def named(self, bid: Bid) -> SolBid | None:
        """The named contract ``bid`` is, or None for a trump bid."""
        return None if bid.sol is None else self.ruleset.sol_bid(bid.sol)

    def side(self, bid: Bid) -> Side | None:
        """Who plays together in ``bid`` where it is a named contract; None for a trump bid (the declarer and
        the partner a card calls, or the fixed partner)."""
        named = self.named(bid)
        return None if named is None else Side(named.side)

    def shown_points(self, points: Sequence[Fraction]) -> list[int | float]:
        """Points as a member reads them: to the ruleset's decimals, rounded so that they sum as the exact
        points do (the score sheet's rounding); whole points stay whole."""
        return zero_sum_points(points, self.ruleset.scoring.decimals)

    def shown_roles(self, scores: RoleScores) -> ShownRoles:
        """A game's points per role (``role_points``) as a member reads them, summing as the exact ones do."""
        return shown_roles(scores, self.ruleset.scoring.decimals)

    def leads_called_suit(self, led: int, called: int, fordaekt: tuple[int, int] | None) -> bool:
        """Whether a trick led with ``led`` leads the partner card ``called``'s suit (``fordaekt``: the fordækt
        card and the suit it counts in), by ``called_card.leads_its_suit``, as the play row asks it."""
        fd_card, fd_suit = fordaekt if fordaekt is not None else (-1, -1)
        return bool(leads_its_suit(led, called, fd_card, fd_suit))

    @property
    def zero_sum(self) -> bool:
        """Whether every deal's points sum to zero: the losers pay what the winners get (es-makker, dansk
        whist); engelsk whist scores the winning pair alone (002)."""
        return self.ruleset.scoring.losers_pay

    def contract_bid(self, text: str) -> Bid:
        """The bid of a contract in canonical notation: a bid of the ladder, or the game played when all
        pass (pasnolo) or when no one bids (engelsk whist), which is not in the ladder."""
        bid = self.ladder.by_text.get(text)
        if bid is not None:
            return bid
        other = self.redealing.all_pass_contract
        if other is not None and fold(other.text) in (fold(text), fold(self.ruleset.sol_bid(other.text).display)):
            return other
        return self.ladder.parse(text)

    def points(
        self, contract: ContractInfo, tricks_won: Sequence[int], vip_card: int = 0, doublings: int = 0
    ) -> list[Fraction]:
        """Every seat's points for a finished deal: the one scoring door (``settle`` with its wrappers)."""
        return self.settle(contract, tricks_won, vip_card, doublings)

    def role_points(
        self, bid: Bid, tricks: int, *, alone: bool = False, vip_card: int = 0, doublings: int = 0
    ) -> RoleScores:
        """What each role gets when the declarer's side takes ``tricks`` (in a game of pair against pair,
        the winning pair's tricks), read off the one scoring door for a sample deal: the declarer in seat
        0, a partner across in seat 2 holding none of the side's tricks, the rest split between seats 1
        and 3. For the point tables of ``score``, the rule book and ``diff``, which thereby show what a
        plugin wrapping ``settle`` pays."""
        if not 0 <= tricks <= 13:
            raise ValueError(f"a side takes 0 to 13 tricks, not {tricks}")
        side = self.side(bid)
        if side is Side.EACH:
            raise ValueError(f"{bid.text} is scored player by player: use points() with every seat's tricks")
        paired = side in (Side.PARTNER, Side.PAIRS) or (bid.sol is None and not alone)
        contract, won = self.sample_deal(bid, tricks, alone=alone)
        scores = self.settle(contract, won, vip_card, doublings)
        if paired:
            return RoleScores(scores[0], scores[2], scores[1], 2)
        return RoleScores(scores[0], None, scores[1], 3)

    def sample_deal(self, bid: Bid, tricks: int, *, alone: bool = False) -> tuple[ContractInfo, list[int]]:
        """The sample deal ``role_points`` scores: the contract, and the tricks each seat took."""
        side = self.side(bid)
        rest = 13 - tricks
        declarers = () if side in (Side.PAIRS, Side.EACH) else (0,)
        partner = 2 if bid.sol is None and not alone else None
        return ContractInfo(bid, declarers, partner), [tricks, (rest + 1) // 2, 0, rest // 2]

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


_T = TypeVar("_T")


def per_rules(cache: dict[int, tuple[Rules, _T]], rules: Rules, make: Callable[[Rules], _T]) -> _T:
    """``make(rules)``, made once per compiled ruleset and kept in ``cache`` (by ``id``, with the rules
    themselves beside it: an ``id`` may be a ruleset's that is gone)."""
    cached = cache.get(id(rules))
    if cached is None or cached[0] is not rules:
        cached = cache[id(rules)] = (rules, make(rules))
    return cached[1]


def _entry_points() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=PROJECT)}


def _version(ep: metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return str(getattr(dist, "version", "?")) if dist is not None else "?"


def _located(exc: ValidationError, at: Path) -> Iterator[tuple[Path, str]]:
    for error in exc.errors():
        yield (*at, *error["loc"]), error["msg"]


def _instance(obj: Any, settings: Mapping[str, Any], at: Path) -> tuple[Any, list[tuple[Path, str]]]:
    """The object to register for an entry point naming a module, an instance or a class.

    A class is instantiated: with its settings validated by its own ``Settings`` model when it has
    one, with no arguments when it has none.
    """
    model = getattr(obj, "Settings", None)
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        model = None
    if settings and model is None:
        return None, [((*at, "settings"), "this plugin takes no settings")]
    if model is not None and not isinstance(obj, type):
        return None, [(at, "a plugin with settings must be a class (its entry point names a module or an instance)")]
    if model is not None:
        try:
            parsed = model.model_validate(dict(settings))
        except ValidationError as exc:
            return None, list(_located(exc, (*at, "settings")))
        return obj(parsed), []
    return (obj() if isinstance(obj, type) else obj), []


def plugin_manager(ruleset: Ruleset) -> tuple[pluggy.PluginManager, tuple[tuple[str, str], ...]]:
    """The ruleset's plugin manager and its club plugins' versions; ``RulesetProblems`` when a plugin fails."""
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(RegelmotorSpecs)
    for plugin in STANDARD_PLUGINS:
        pm.register(plugin(), name=plugin.__name__)
    problems: list[tuple[Path, str]] = []
    versions: list[tuple[str, str]] = []
    uses = ruleset.plugin_uses()
    available = _entry_points() if uses else {}
    where: dict[str, Path] = {}
    for index, use in enumerate(uses):
        at: Path = ("plugins", index)
        ep = available.get(use.name)
        if ep is None:
            problems.append(((*at,), f"plugins: {use.name}: no installed package registers this plugin"))
            continue
        try:
            loaded = ep.load()
        except Exception as exc:  # a broken plugin package: say which, and why
            problems.append((at, f"plugins: {use.name}: the plugin cannot be loaded ({type(exc).__name__}: {exc})"))
            continue
        instance, found = _instance(loaded, use.settings, at)
        if found:
            problems.extend((path, f"plugins: {use.name}: {message}") for path, message in found)
            continue
        try:
            pm.register(instance, name=use.name)
        except (pluggy.PluginValidationError, ValueError) as exc:
            problems.append((at, f"plugins: {use.name}: {exc}"))
            continue
        where[use.name] = at
        versions.append((use.name, _version(ep)))
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        name = pm.get_name(exc.plugin) or "?"
        problems.append((where.get(name, ("plugins",)), f"plugins: {name}: {exc}"))
    if problems:
        raise RulesetProblems(problems)
    return pm, tuple(versions)


def from_club(pm: pluggy.PluginManager, hook: str) -> bool:
    """Whether a club's plugin implements ``hook`` (not only the standard rule families)."""
    standard = {plugin.__name__ for plugin in STANDARD_PLUGINS}
    return any(impl.plugin_name not in standard for impl in getattr(pm.hook, hook).get_hookimpls())


def unsupported(ruleset: Ruleset) -> list[tuple[Path, str]]:
    return [(u.path, u.rule) for u in NOT_IMPLEMENTED if u.applies(ruleset)]


def compile_rules(ruleset: Ruleset | ResolvedRuleset) -> Rules:
    """Build the engine's functions for ``ruleset``; ``RuleNotImplemented`` (``RulesetProblems``) for
    a rule the engine lacks, a plugin that fails, or a problem a plugin's check finds."""
    model = ruleset.ruleset if isinstance(ruleset, ResolvedRuleset) else ruleset
    missing = unsupported(model)
    if missing:
        raise RulesetProblems([(path, f"rule not implemented: {rule}") for path, rule in missing])
    pm, versions = plugin_manager(model)
    hook = pm.hook
    checked = [finding for found in hook.regelmotor_check(ruleset=model) if found for finding in found]
    if checked:
        raise RulesetProblems([(tuple(path), message) for path, message in checked])

    def one(name: str, **kwargs: Any) -> Any:
        result = getattr(hook, name)(ruleset=model, **kwargs)
        if result is None:
            raise RuleNotImplemented(name, "no plugin implements it for this ruleset")
        return result

    ladder: Ladder = one("regelmotor_ladder")
    may_join = one("regelmotor_may_join")
    scorer: Scorer = one("regelmotor_scorer")
    if from_club(pm, "regelmotor_scorer"):  # the loader checked the standard scorer; a plugin's is checked here
        try:
            problem = check_zero_sum(scorer)
        except ScoringProblem as exc:
            problem = exc
        if problem is not None:
            raise RulesetProblems([(problem.path, f"{problem.message} (with the plugins' scoring)")])
    return Rules(
        ruleset=model,
        ladder=ladder,
        deal=one("regelmotor_dealer"),
        redeal_claims=tuple(c for c in hook.regelmotor_redeal_claims(ruleset=model) if c is not None),
        redealing=one("regelmotor_redealing"),
        may_join=may_join,
        auction=one("regelmotor_auction", ladder=ladder, may_join=may_join),
        declaration=one("regelmotor_declaration"),
        trump_choices=one("regelmotor_trump_choices"),
        call_choices=one("regelmotor_call_choices"),
        vip=one("regelmotor_vip"),
        vip_turns=one("regelmotor_vip_turns"),
        exchange=one("regelmotor_exchange"),
        fordaekt=one("regelmotor_fordaekt"),
        doubling=one("regelmotor_doubling"),
        legal_cards=one("regelmotor_legal_cards"),
        called_card_binds=one("regelmotor_called_card_binds"),
        trick_winner=one("regelmotor_trick_winner"),
        play_over=one("regelmotor_play_over"),
        made=one("regelmotor_made"),
        open_hands=one("regelmotor_open_hands"),
        scorer=scorer,
        settle=one("regelmotor_settle", scorer=scorer),
        session_settlement=one("regelmotor_session_settlement"),
        plugin_manager=pm,
        evening=evening_rules(model),
        card_play=card_play(model),
        plugins=versions,
        jokers=model.deck.jokers,
        kitty_size=model.deck.kitty,
        shipped_dealer=not from_club(pm, "regelmotor_dealer"),
    )


def compile_problems(resolved: ResolvedRuleset) -> list[Problem]:
    """Compiling problems of a valid ruleset, located like the loader's."""
    try:
        compile_rules(resolved)
    except RulesetProblems as exc:
        return [Problem(resolved.where(path), path, message) for path, message in exc.problems]
    except RuleNotImplemented as exc:
        return [Problem(resolved.where(()), (), str(exc))]
    return []
