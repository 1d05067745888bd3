"""The play kernel against the engine: the same legal cards, trick winners and end of play, in every state.

The kernel is the expert bot's copy of the play phase in bitmasks; it may never differ from
``Game``. Random deals of every shipped ruleset and house rule are played through both at once.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from regelmotor import play_row
from regelmotor.bots import kernel as K
from regelmotor.bots.expert import ExpertBot, kernel_for
from regelmotor.bots.knowledge import OUT, play_knowledge
from regelmotor.cards import new_deck
from regelmotor.engine.game import NAMES, PLAY, Game
from regelmotor.hooks import CalledCardBinds, ContractInfo, TrickWinner, hookimpl
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.play.trick_winner import trick_winner
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.phases import PlayPhase

from .conftest import CONFIGS, offered, rules_of

COMBINED = [("standard", ("joker-trumpable", "fordaekt", "gaa-med")), ("thorsen", ("fordaekt", "dobling", "kan-selv"))]
DEALS_PER_CONFIG = 190  # 26 rulesets and house rules, 2 combinations: 5,320 deals in all


def _kernel_card(game: Game, card: int) -> int:
    return play_row.FORDAEKT if card == game.fordaekt else card


def _engine_name(game: Game, card: int) -> str:
    return NAMES[game.fordaekt] if card == play_row.FORDAEKT and game.fordaekt is not None else NAMES[card]


def _play_both(rules: Rules, rng: random.Random, dealer: int) -> tuple[int, int]:
    """One random deal through ``Game`` and the kernel together; (states checked, fordækt states)."""
    kernel = rules.play
    deck = new_deck(rules.ruleset.deck.jokers)
    rng.shuffle(deck)
    game = Game.from_deck(rules, deck, dealer)
    while game.step is not None and game.phase != PLAY:
        game.apply(rng.choice(game.legal))
    if game.phase != PLAY:
        return 0, 0
    row = play_row.row_from_game(kernel, game)
    checked = fordaekt = 0
    while game.step is not None:
        seat = game.to_act
        assert seat is not None and row[play_row.TO_PLAY] == seat
        legal = sorted(
            _engine_name(game, c) for c in play_row.cards_of(play_row.legal_mask(row, seat, kernel.constants))
        )
        assert legal == sorted(map(str, game.legal)), f"{rules.ruleset.name}: legal cards differ"
        checked += 1
        fordaekt += game.fordaekt is not None
        action = rng.choice(game.legal)
        game.apply(action)
        assert action.card is not None
        winner = play_row.play_card(row, _kernel_card(game, action.card), kernel.constants)
        if winner >= 0:
            assert winner == game.tricks[-1].winner, f"{rules.ruleset.name}: trick winners differ"
        assert play_row.play_over(row, kernel.constants) == (game.phase != PLAY), "end of play differs"
    assert [int(row[play_row.WON + s]) for s in range(4)] == game.tricks_won
    assert row[play_row.VOIDS] == play_row.row_from_game(kernel, game)[play_row.VOIDS], "the voids shown differ"
    return checked, fordaekt


ALL_CONFIGS = [*((n, (h,) if h else ()) for n, h in CONFIGS), *COMBINED]
PARTS = 4
"""The 5,000 deals in four parts, so that the test runners share them."""


@pytest.mark.parametrize("part", range(PARTS))
def test_the_kernel_and_the_engine_agree_in_every_state_of_5000_random_deals(part: int) -> None:
    """Every legal card, trick winner and end of play, in 5,000 random deals of every shipped ruleset
    and house rule (some combined): the issue's cross-check (a quarter of the configurations each)."""
    rng = random.Random(f"kernel {part}")
    deals = states = fordaekt = 0
    for name, house in ALL_CONFIGS[part::PARTS]:
        rules = rules_of(name, *house)
        assert kernel_for(rules).exact  # dansk and engelsk whist too: their pairs contracts are the kernel's
        for number in range(DEALS_PER_CONFIG):
            checked, laid = _play_both(rules, rng, number % 4)
            deals += 1
            states += checked
            fordaekt += laid
    assert deals * PARTS >= 5000
    assert states * PARTS > 150_000 and fordaekt * PARTS > 1000  # played deals, and the fordækt card among them


def test_every_playout_ends_with_thirteen_tricks_or_a_lost_sol() -> None:
    rules = rules_of("whistklubben", "gaa-med")
    kernel = rules.play
    rows = K.first_lead_rows(rules, kernel, 200, random.Random(4))
    won = K.playout_rows(rows, kernel.constants, 7)
    for row, tricks in zip(rows, won, strict=True):
        total = int(tricks.sum())
        if row[play_row.SOL] and total < 13:
            limit = int(row[play_row.SOL_LIMIT])
            assert all(tricks[s] > limit for s in range(4) if (int(row[play_row.DECLARERS]) >> s) & 1)
        else:
            assert total == 13
    assert np.array_equal(won, K.playout_rows(rows, kernel.constants, 7)), "a seed gives the same playouts"


def test_what_a_seat_knows_holds_for_the_real_deal_and_every_sampled_one() -> None:
    """The sampler's constraints (voids shown, the revealed partner, turned kitty cards, open hands)
    are facts: the real hands satisfy them; and every sampled deal keeps them, with each seat holding
    as many cards as it really does."""
    rng = random.Random(9)
    checked = 0
    configs = [("standard", ()), ("thorsen", ("fordaekt",)), ("whistklubben", ("gaa-med",)), ("gruppe2", ())]
    for rules, kernel, game, seat in _play_decisions(configs, 40, rng):
        view = game.view(seat)
        know = play_knowledge(view, view.legal_actions, rules, kernel)
        truth = {_kernel_card(game, c): s for s in range(4) if s != seat for c in game.hands[s] if c != game.fordaekt}
        for card, allowed in zip(know.pool.tolist(), know.allowed.tolist(), strict=True):
            holder = truth.get(card, OUT)
            assert (allowed >> holder) & 1, f"{NAMES[card]} is with {holder}, which seat {seat} ruled out"
        samples = K.sample_rows(know.base, know.pool, know.allowed, know.capacity, 8, rng.getrandbits(31))
        for row in samples:
            for other in range(4):
                assert bin(int(row[play_row.HANDS + other])).count("1") == len(game.hands[other])
            assert int(row[play_row.HANDS + seat]) == int(know.base[play_row.HANDS + seat])
        checked += 1
    assert checked > 2000


def _play_decisions(
    configs: list[tuple[str, tuple[str, ...]]], deals: int, rng: random.Random
) -> Iterator[tuple[Rules, PlayPhase, Game, int]]:
    """Each play decision with more than one legal card in ``deals`` random deals of each configuration:
    (rules, kernel, the game, the seat to play); a random legal action is taken after each."""
    for name, house in configs:
        rules = rules_of(name, *house)
        kernel = rules.play
        for number in range(deals):
            game = Game.from_seed(rules, rng.randrange(2**32), number % 4)
            while game.step is not None:
                seat = game.to_act
                assert seat is not None
                if game.phase == PLAY and len(game.legal) > 1:
                    yield rules, kernel, game, seat
                game.apply(rng.choice(game.legal))


def test_a_seat_and_the_whole_deal_read_the_play_from_one_observation() -> None:
    """A seat's row (``play_knowledge``, from its view) and the whole deal's (``row_from_game``) are built
    from the same ``PlayObservation``: they agree on every column but the hidden hands and who the partner
    is, and on the seat's own hand; and the fordækt card lies face down in both."""
    hidden = {play_row.HANDS + s for s in range(4)} | {play_row.PARTNER}
    compared = fordaekt = 0
    configs = [("standard", ("fordaekt",)), ("thorsen", ("fordaekt",)), ("engelsk", ()), ("gruppe2", ())]
    for rules, kernel, game, seat in _play_decisions(configs, 30, random.Random(11)):
        view = game.view(seat)
        assert view.play == game.play_observation()  # one observation, the same for every seat
        mine = play_knowledge(view, view.legal_actions, rules, kernel).base
        whole = play_row.row_from_game(kernel, game)
        differ = [c for c in range(play_row.ROW) if c not in hidden and mine[c] != whole[c]]
        assert not differ, f"{rules.name}: columns {differ} differ"
        assert mine[play_row.HANDS + seat] == whole[play_row.HANDS + seat]
        compared += 1
        fordaekt += play_row.FORDAEKT in view.play.played
    assert compared > 1000 and fordaekt > 0


def _sol_rows(rules: Rules, kernel: PlayPhase, count: int, rng: random.Random) -> list[play_row.Rows]:
    """Rows at the first lead of deals where the first seat to call bids a sol bid (any, at random)."""
    sols = [bid.text for bid in rules.auction.ladder.bids if bid.is_sol]
    rows: list[play_row.Rows] = []
    for _ in range(20 * count):
        if not sols or len(rows) == count:
            break
        game = Game.from_seed(rules, rng.randrange(2**32), rng.randrange(4))
        while game.step is not None and game.phase != PLAY:
            legal = offered(game)
            if game.step[0] == "call" and game.bid is None and any(s in legal for s in sols):
                game.apply(rng.choice([s for s in sols if s in legal]))
            elif game.step[0] == "call" and "pass" in legal:
                game.apply("pass")
            else:
                game.apply(rng.choice(legal))
        if game.phase == PLAY and game.bid is not None and game.bid.is_sol:
            rows.append(play_row.row_from_game(kernel, game))
    return rows


def _poisoned(row: play_row.Rows, viewer: int, rng: random.Random) -> play_row.Rows:
    """``row`` with every hand ``viewer`` cannot see dealt again from all the cards he has not seen
    (the out-of-play ones too), each hand keeping its size; the partner moves with the partner card
    where the table does not know him."""
    hidden = [s for s in range(4) if not K.visible(row, viewer, s)]
    seen = int(row[play_row.SEEN])
    for s in range(4):
        if s not in hidden:
            seen |= int(row[play_row.HANDS + s])
    fixed = 1 << play_row.FORDAEKT  # the fordækt card stays with the declarer: the table saw it laid
    pool = [c for c in range(55) if not (seen >> c) & 1]
    rng.shuffle(pool)
    poisoned = row.copy()
    for s in hidden:
        size = bin(int(row[play_row.HANDS + s]) & ~fixed).count("1")
        poisoned[play_row.HANDS + s] = play_row.mask_of(pool[:size]) | (int(row[play_row.HANDS + s]) & fixed)
        pool = pool[size:]
    partner = int(row[play_row.PARTNER])
    if partner >= 0 and not (int(K.known_side(row, viewer)) >> partner) & 1 and row[play_row.CALLED] >= 0:
        holder = [
            s
            for s in range(4)
            if s != row[play_row.DECLARER] and (int(poisoned[play_row.HANDS + s]) >> int(row[play_row.CALLED])) & 1
        ]
        poisoned[play_row.PARTNER] = holder[0] if holder else -1
    return poisoned


@pytest.mark.parametrize("name", ["standard", "thorsen", "whistklubben", "gruppe2", "engelsk", "dansk"])
def test_a_playout_seat_never_reads_a_hand_the_rules_have_not_shown_it(name: str) -> None:
    """In a playout a seat acts on what it would know in that sampled deal: another seat's hand,
    poisoned (dealt again from the cards it has not seen), never changes its card before the rules
    lay that hand open (bordlægger: "lægger melderen sine kort åbent på bordet, når første stik er
    spillet", 001)."""
    rules = rules_of(name)
    kernel = rules.play
    rng = random.Random(f"poison:{name}")
    rows = [*K.first_lead_rows(rules, kernel, 60, rng), *_sol_rows(rules, kernel, 30, rng)]
    decisions = sol_decisions = 0
    for row in rows:
        row = row.copy()
        while not play_row.play_over(row, kernel.constants):
            viewer = int(row[play_row.TO_PLAY])
            seed = rng.getrandbits(31)
            card = K.policy_card(row, kernel.constants, seed)
            for _ in range(3):
                poisoned = _poisoned(row, viewer, rng)
                assert K.policy_card(poisoned, kernel.constants, seed) == card, (
                    f"{name}: seat {viewer} played another card when a hidden hand changed"
                )
            decisions += 1
            sol_decisions += bool(row[play_row.SOL])
            play_row.play_card(row, card, kernel.constants)
    assert decisions > 500
    if name != "engelsk":
        assert sol_decisions > 200  # the sol defence, which once read the declarer's hand, is among them


class LowestWins:
    """A plugin's trick-winner rule: the lowest card of the led suit takes the trick."""

    @hookimpl(tryfirst=True)
    def regelmotor_trick_winner(self, ruleset: Ruleset) -> TrickWinner:
        def winner(cards: object, trump: int | None, sol: bool, fordaekt: object = None) -> int:
            led = cards[0] // 13  # type: ignore[index]
            same = [i for i, c in enumerate(cards) if c < 52 and c // 13 == led]  # type: ignore[attr-defined]
            return min(same, key=lambda i: cards[i] % 13) if same else 0  # type: ignore[index]

        return winner  # type: ignore[return-value]


def _with_plugin(rules: Rules, plugin: object | None = None) -> Rules:
    """``rules`` with a club's plugin registered after the shipped rule families (deciding the trick's winner,
    unless another plugin is given)."""
    return compile_rules(rules.ruleset, [plugin or LowestWins()])


def test_where_a_plugin_decides_a_play_rule_the_expert_plays_out_with_the_engines_functions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rules = _with_plugin(rules_of("gruppe2"))
    assert not rules.play.exact
    # the plugin's rule is in force: 2♠ takes A♠ 3♠ 4♠, where the shipped rule gives it to the ace
    assert rules.play.trick_winner([0, 12, 1, 2], None, False, None) == 0
    assert trick_winner(rules.ruleset)([0, 12, 1, 2], None, False, None) == 1
    rng = random.Random(2)
    finished = 0
    for number in range(3):
        game = Game.from_seed(rules, number, number)
        bots = [ExpertBot(rules, rng, play_samples=3, plan_samples=2) for _ in range(4)]
        while game.step is not None:
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].choose(game.view(seat), game.legal))
        if game.scores is not None:
            finished += 1
            assert sum(game.scores) == 0
    assert finished
    err = capsys.readouterr().err
    assert err.count("plays its deals out with the engine's own functions") == 1, "said once"


class SelvmakkerBound:
    """A plugin's selvmakker rule: the partner card's rules bind every seat, the selvmakker too."""

    @hookimpl(tryfirst=True)
    def regelmotor_called_card_binds(self, ruleset: Ruleset) -> CalledCardBinds:
        return lambda seat, contract: True


def test_a_plugin_replacing_called_card_binds_makes_the_expert_fall_back() -> None:
    """Exact means every play-relevant hook is the shipped one: the selvmakker exemption is one of them
    (003 37: the ruleset's choice, which a plugin may make instead)."""
    base = rules_of("gruppe2")
    assert base.play.exact
    rules = _with_plugin(base, SelvmakkerBound())
    assert rules.play.called_card_binds(0, ContractInfo(rules.auction.ladder.bids[0], (0,))) is True
    kernel = rules.play
    assert not kernel.exact


@pytest.mark.parametrize("name", ["standard", "thorsen"])
def test_a_sol_declarer_in_a_playout_never_takes_a_trick_he_could_duck(name: str) -> None:
    """001: "I sol må melderen højst tage ét stik". Last to a trick, the declarer who holds a card that stays
    under it plays one, on every random stream: the playouts' few random cards (their spread) are never his,
    since a sol declarer's random card would lose the deal in the model where no player would play it, and
    price every sol bid too low."""
    rules = rules_of(name)
    kernel = rules.play
    consts = kernel.constants
    rng = random.Random(f"duck:{name}")
    checked = 0
    for row in _sol_rows(rules, kernel, 60, rng):
        row = row.copy()
        while not play_row.play_over(row, consts):
            seat = int(row[play_row.TO_PLAY])
            n = int(row[play_row.TRICK_N])
            legal = play_row.legal_mask(row, seat, consts)
            if (int(row[play_row.DECLARERS]) >> seat) & 1 and n == 3:
                ducks = []
                for card in play_row.cards_of(legal):
                    trial = row.copy()
                    trial[play_row.TRICK + n] = card
                    if play_row.winning_index(trial, n + 1, consts) != n:
                        ducks.append(card)
                if ducks:
                    for seed in range(40):
                        assert K.policy_card(row, consts, seed) in ducks, f"{name}: the declarer took a trick"
                    checked += 1
            play_row.play_card(row, K.policy_card(row, consts, rng.getrandbits(31)), consts)
    assert checked > 20


@pytest.mark.parametrize("name", ["standard", "thorsen"])
def test_a_sol_declarer_who_looks_ahead_plays_the_card_whose_playout_leaves_him_the_fewest_tricks(name: str) -> None:
    """001: "I sol må melderen højst tage ét stik". Where the bidding's playouts let a closed sol's declarer
    look ahead (``Budget.plan_closed_sol_looking``), he plays out each of his legal cards once, with the same
    chances (``evaluate_cards``), and plays the one that leaves his side the fewest tricks; the rules of
    thumb's card where it does as well as any."""
    checked = differs = 0
    for row, legal, consts in _sol_declarer_turns(name, "looking"):
        if legal & (legal - 1) == 0:
            continue
        seed = checked + 1
        cards = np.array(play_row.cards_of(legal), dtype=np.int64)
        won = K.evaluate_cards(row[None, :].copy(), cards, consts, seed, True)[0]
        side = play_row.side_mask(row)
        tricks = {int(card): sum(int(won[c, s]) for s in range(4) if (side >> s) & 1) for c, card in enumerate(cards)}
        fewest = min(tricks.values())
        mine = K.policy_card(row.copy(), consts, 0)  # a sol declarer's rules of thumb have no chance in them
        chosen = K.looking_card(row.copy(), legal, consts, seed)
        assert tricks[chosen] == fewest
        assert chosen == mine or tricks[mine] > fewest
        checked += 1
        differs += chosen != mine
        if checked == 300:
            break
    assert checked == 300 and differs > 0


def test_looking_ahead_for_no_tricks_is_the_plain_playout() -> None:
    """``playout_rows_looking`` with no tricks to look ahead in plays as ``playout_rows`` does."""
    rules = rules_of("thorsen")
    kernel = rules.play
    rows = np.array(_sol_rows(rules, kernel, 20, random.Random(8)))
    plain = K.playout_rows(rows, kernel.constants, 5)
    assert (K.playout_rows_looking(rows, kernel.constants, 5, 0) == plain).all()


def _sol_declarer_turns(name: str, salt: str) -> Iterator[tuple[play_row.Rows, int, play_row.Rows]]:
    """Each turn of a sol declarer in playouts of 300 random sol deals of ``name``: the row as it stands (the
    caller only reads it), the seat's legal cards, the constants; the row is played on after."""
    rules = rules_of(name)
    kernel = rules.play
    consts = kernel.constants
    rng = random.Random(f"{salt}:{name}")
    for row in [row.copy() for row in _sol_rows(rules, kernel, 300, rng)]:
        while not play_row.play_over(row, consts):
            seat = int(row[play_row.TO_PLAY])
            if (int(row[play_row.DECLARERS]) >> seat) & 1:
                yield row, play_row.legal_mask(row, seat, consts), consts
            play_row.play_card(row, K.policy_card(row, consts, rng.getrandbits(31)), consts)


def _out_around(row: play_row.Rows, card: int, consts: play_row.Rows) -> tuple[int, int]:
    """How many cards still out (to the seat to play) rank below ``card`` in its suit, and how many above."""
    fd = int(row[play_row.FD_SUIT])
    out = ~(int(row[play_row.SEEN]) | int(row[play_row.HANDS + int(row[play_row.TO_PLAY])]))
    strength = play_row.card_strength(card, 1, consts)
    others = [
        play_row.card_strength(o, 1, consts)
        for o in play_row.cards_of(out & play_row.suit_mask(play_row.card_suit(card, fd), fd))
    ]
    return sum(o < strength for o in others), sum(o > strength for o in others)


@pytest.mark.parametrize("name", ["standard", "thorsen"])
def test_a_sol_declarer_who_cannot_follow_throws_the_card_nothing_out_ranks_above(name: str) -> None:
    """001 "I sol må melderen højst tage ét stik". A card that no card still out ranks above in its suit
    takes any trick of that suit it is played to; a declarer in a playout who cannot follow throws such a
    card first (the fewest cards out above it, then the highest), not merely his highest: a jack whose
    king and queen have gone is as sure a trick as a king. He keeps his jokers, his way under a trick."""
    checked = differs = 0
    for row, legal, consts in _sol_declarer_turns(name, "throw"):
        n = int(row[play_row.TRICK_N])
        fd = int(row[play_row.FD_SUIT])
        led = play_row.card_suit(int(row[play_row.TRICK]), fd) if n else -1
        plain = [c for c in play_row.cards_of(legal) if c < 52 or c == play_row.FORDAEKT]
        if n and 0 <= led < 4 and not legal & play_row.suit_mask(led, fd) and len(plain) > 1:  # void: all stay under

            def sure(card: int, row: play_row.Rows = row, consts: play_row.Rows = consts) -> tuple[int, int]:
                return -_out_around(row, card, consts)[1], play_row.card_strength(card, 1, consts)

            surest = max(sure(c) for c in plain)
            for seed in range(10):
                assert sure(K.policy_card(row, consts, seed)) == surest
            checked += 1
            differs += sure(max(plain, key=lambda c: play_row.card_strength(c, 1, consts))) != surest
    assert checked > 10 and differs > 0


@pytest.mark.parametrize("name", ["standard", "thorsen"])
def test_a_sol_declarer_on_lead_leads_where_a_defender_must_go_over(name: str) -> None:
    """001 "I sol må melderen højst tage ét stik". A card led takes the trick unless someone goes over it,
    and a defender who can duck under it does; so a declarer in a playout leads the lowest card of the suit
    where the fewest cards still out rank below it, then where the most rank above it, never a suit where
    none still out can go over it while another is left (not merely his lowest card)."""
    checked = differs = 0
    for row, legal, consts in _sol_declarer_turns(name, "exit"):
        if row[play_row.TRICK_N] or not legal & (legal - 1):
            continue
        fd = int(row[play_row.FD_SUIT])
        options = {}
        for suit in range(4):
            mine = play_row.cards_of(legal & play_row.suit_mask(suit, fd))
            if mine:
                low = min(mine, key=lambda c: play_row.card_strength(c, 1, consts))
                below, above = _out_around(row, low, consts)
                if above:
                    options[low] = (below, -above)
        if options:
            led = K.policy_card(row, consts, checked)
            assert led in options and options[led] == min(options.values())
            checked += 1
            lowest = min(options, key=lambda c: play_row.card_strength(c, 1, consts))
            differs += options[lowest] != options[led]
    assert checked > 10 and differs > 0


def test_every_card_weighed_on_a_deal_meets_the_same_chances() -> None:
    """Two cards' values on a sampled deal differ by what the cards do, not by the playouts' luck: the
    same card weighed twice on a deal is played out alike, and it is not when the chances are the
    playouts' own (``common=False``, the bot ``expert-v1``)."""
    rules = rules_of("standard")
    kernel = rules.play
    rows = K.first_lead_rows(rules, kernel, 40, random.Random(11))
    differ = 0
    for r, row in enumerate(rows):
        card = play_row.lowest_card(play_row.legal_mask(row, int(row[play_row.TO_PLAY]), kernel.constants))
        twice = np.array([card, card], dtype=np.int64)
        won = K.evaluate_cards(row[None, :], twice, kernel.constants, r)
        assert np.array_equal(won[0, 0], won[0, 1])
        own = K.evaluate_cards(row[None, :], twice, kernel.constants, r, False)
        differ += not np.array_equal(own[0, 0], own[0, 1])
    assert differ > 0


BARRING = [(n, () if h is None else (h,)) for n, h in CONFIGS if n in ("standard", "thorsen", "whistklubben")]


@pytest.mark.parametrize("config", BARRING + COMBINED, ids=lambda c: "+".join((c[0], *c[1])))
def test_a_seat_is_barred_from_the_partner_card_exactly_where_its_rules_would_have_refused_its_card(
    config: tuple[str, tuple[str, ...]],
) -> None:
    """Issue 47: the seats that cannot hold the partner card are read from the partner card's own rules
    (``called_card``: "it must fall the first time its suit is led", 001), not derived again in reverse: a
    seat is barred after a trick exactly where ``legal_cards``, had that seat held the card as well, would
    have refused the card it played by a partner-card rule."""
    from regelmotor.rules.cardplay import legal as L
    from regelmotor.rules.cardplay import masks as M

    rules = rules_of(config[0], *config[1])
    kernel = rules.play
    consts = kernel.constants
    rng = random.Random(47)
    tricks_checked = 0
    for dealer in range(40):
        deck = new_deck(rules.dealing.jokers)
        rng.shuffle(deck)
        game = Game.from_deck(rules, deck, dealer % 4)
        while game.step is not None and game.phase != PLAY:
            game.apply(rng.choice(game.legal))
        while game.step is not None and game.phase == PLAY:
            game.apply(rng.choice(game.legal))
        if game.called is None or game.sol_order:
            continue
        called = game.called
        fd = -1 if game.fordaekt is None else called // 13
        fd_card = play_row.FORDAEKT if fd >= 0 else -1
        shown = [(t.leader, [_kernel_card(game, c) for c in t.cards]) for t in game.tricks]
        trump = -1 if game.trump in (None, "none") else "SHDC".index(game.trump)
        expected, suit_led = 0, False
        for number, (leader, cards) in enumerate(shown):
            if called in cards:
                break  # it fell: nobody is barred from a card already played
            for place, card in enumerate(cards):
                seat = (leader + place) % 4
                hand = (1 << called) | (1 << card)
                led = cards[0] if place else 0
                answer = L.legal_cards(hand, place, led, number == 0, called, suit_led, fd_card, fd, trump, consts)
                rule = L.removed_by(answer, card, hand, place, number == 0, called, fd_card, fd, trump, consts)
                if M.CALLED_CARD <= rule < M.CALLED_CARD + M.BLOCK:  # a rule of the partner card's family
                    expected |= 1 << seat
            suit_led = suit_led or play_row.leads_called_suit(cards[0], called, fd)
            got = play_row.barred_from_called(shown[: number + 1], called, fd, trump, consts)
            assert got == expected, f"{config}, deal {dealer}, trick {number + 1}"
            tricks_checked += 1
    assert tricks_checked > 0  # a house rule that redeals most deals (omblanding) leaves few


def test_an_unowned_view_reads_and_writes_its_parameter_and_leaves_its_count_alone() -> None:
    """The search's hot loops count no references (``compiled.unowned``): what they read and write is the
    caller's array all the same, and the array lives on, owned as before, once the call is over."""
    import sys

    from numba import njit

    from regelmotor.compiled import unowned

    @njit
    def shift(rows: np.ndarray, by: int) -> int:
        rows = unowned(rows)
        total = 0
        for r in range(rows.shape[0]):
            row = rows[r]
            row[0] += by
            total += int(row[0])
        return total

    rows = np.arange(12, dtype=np.int64).reshape(4, 3)
    before = sys.getrefcount(rows)
    assert shift(rows, 100) == 100 + 103 + 106 + 109
    assert rows[:, 0].tolist() == [100, 103, 106, 109]
    assert sys.getrefcount(rows) == before


def test_a_masks_lowest_card_and_count_are_the_cards_it_holds() -> None:
    """The search reads a mask's lowest card and its count by the processor's own instructions
    (``masks.lowest_card``, ``masks.bit_count``): the same answers as counting the cards one by one, for
    every card of the deck (the jokers and the fordækt card included) and masks of many cards."""
    from regelmotor.rules.cardplay.masks import bit_count, cards_of, lowest_card

    rng = random.Random(3)
    masks = [1 << card for card in range(56)] + [rng.getrandbits(56) | 1 << rng.randrange(56) for _ in range(500)]
    for mask in masks:
        cards = cards_of(mask)
        assert lowest_card(mask) == cards[0]
        assert bit_count(mask) == len(cards)
    assert bit_count(0) == 0
