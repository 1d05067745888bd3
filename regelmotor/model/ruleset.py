"""The resolved ruleset as pydantic models: what a club's rules are, never how the engine works.

Every model is frozen and forbids unknown keys, so a typo in a club's file is an error, not a
silently ignored rule. Every rule object carries ``source`` so the rule book and the diff can
say where a rule comes from, and whether it is inferred. Descriptions are Danish because they
are what a club member sees on hover in an editor and in ``regelmotor schema``.
"""

from __future__ import annotations

import re
from enum import StrEnum
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    WithJsonSchema,
    model_validator,
)

# --- value types -----------------------------------------------------------------------------

MAX_BITS = 128
"""Exact numbers in a ruleset stay below 2**128: points, stakes and factors are small."""
_FRACTION = re.compile(r"^\s*-?\d+(\s*/\s*\d+|\.\d+)?\s*$")


def _to_fraction(value: Any) -> Any:
    """Exact numbers: ints, ``"5/4"`` and decimals as written (``1.25`` is exactly 5/4)."""
    if isinstance(value, bool):
        return value  # let pydantic reject it with its own message
    if isinstance(value, int | Fraction):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(repr(value))
    if isinstance(value, int) and value.bit_length() > MAX_BITS:
        raise ValueError(f"a number of more than {MAX_BITS} bits: no rule needs one")
    if isinstance(value, str) and len(value) > 40:
        raise ValueError("a number written with more than 40 characters: no rule needs one")
    if isinstance(value, str) and _FRACTION.match(value):
        try:
            return Fraction(value.replace(" ", ""))
        except ZeroDivisionError:
            raise ValueError(f'"{value}" divides by zero') from None
    return value


def _fraction_out(value: Fraction) -> int | str:
    return value.numerator if value.denominator == 1 else str(value)


MAX_DESIGNATIONS = 32
"""More designations than any rule text gives: Thorsen's law has seven (alm, gode, vip1-3, halve, sans), 002
names seven påhæng. A longer list is a mistake (or an attack), refused at its line before it is checked."""
MAX_SOL_BIDS = 16
"""More sol bids than any club plays (001 has four, 000 four, 002 five): refused at the list's line."""

EXACT_DESCRIPTION = 'Et eksakt tal: heltal, decimaltal eller brøk som "5/4".'
Exact = Annotated[
    Fraction,
    BeforeValidator(_to_fraction),
    PlainSerializer(_fraction_out),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "integer"},
                {"type": "number"},
                {"type": "string", "pattern": r"^\s*-?\d+(\s*/\s*\d+|\.\d+)?\s*$"},
            ],
            "description": EXACT_DESCRIPTION,
        }
    ),
]
"""An exact rational number."""

Suit = Literal["S", "H", "D", "C"]
Denomination = Literal["S", "H", "D", "C", "none"]
"""A trump denomination: a suit letter, or ``none`` for no trump (sans)."""
Rank = Literal["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"]
SOURCE_DESCRIPTION = (
    'Kilde til reglen: dokument og afsnit (fx "000_5ff45d385a286ea5.txt 3.5"), '
    'eller "inferred: ..." med begrundelse, når kilden tier, er uklar eller modsiger sig selv.'
)
Source = Annotated[str, Field(min_length=1, description=SOURCE_DESCRIPTION)]
BidId = Annotated[
    str,
    Field(
        pattern=r"^[a-zæøå0-9]+( [a-zæøå0-9]+)*$",
        description='Meldingens id i notationen: små bogstaver, tal og enkelte mellemrum (fx "vip1", "ren sol").',
    ),
]
Formula = Annotated[
    str,
    Field(
        min_length=1,
        description=(
            "En formel med + - * / ** og parenteser over tal, brøker og variablerne "
            "(se docs/writing-a-ruleset.md), regnet eksakt i brøker."
        ),
    ),
]


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class Rule(Model):
    """A rule object: everything a ruleset says can cite where it comes from."""

    source: Source | None = Field(default=None, description=SOURCE_DESCRIPTION)

    @property
    def inferred(self) -> bool:
        """The ruleset marks this rule, or part of it, as inferred (the source is silent, garbled or
        contradicts itself): its ``source`` says "inferred", with the reason."""
        return self.source is not None and "inferred" in self.source.lower()


# --- table, session, deck, dealing -----------------------------------------------------------

SitOutSeat = Literal["dealer", "right_of_dealer", "left_of_dealer"]


class SitOut(Rule):
    players: int = Field(ge=5, le=6, description="Antal spillere ved bordet, som reglen gælder for (5 eller 6).")
    seats: tuple[SitOutSeat, ...] = Field(
        description=(
            'Hvem der sidder over i hvert spil: "dealer" (kortgiveren), "right_of_dealer" '
            '(spilleren til højre for kortgiveren), "left_of_dealer".'
        )
    )


class Table(Rule):
    players: tuple[int, ...] = Field(
        description="De tilladte antal spillere ved bordet (4, 5 eller 6); fire deltager i hvert spil."
    )
    sitting_out: tuple[SitOut, ...] = Field(
        default=(), description="Hvem der sidder over, når der er flere end fire spillere."
    )
    dealer_rotation: Literal["clockwise"] = Field(
        default="clockwise", description="Hvordan kortgiverrollen går videre: med uret."
    )
    same_dealer_after_sol: bool = Field(
        default=False,
        description=(
            "Om samme kortgiver giver igen efter et solspil (melderen alene mod tre) i stedet for at give videre."
        ),
    )
    partnerships: Literal["called", "fixed"] = Field(
        default="called",
        description=(
            'Hvordan makkerne findes: "called" (melderen kalder et makkerkort, es-makker whist) eller "fixed" '
            "(faste makkerpar over for hinanden hele aftenen: plads 1 og 3, plads 2 og 4; engelsk og dansk whist)."
        ),
    )


class Session(Rule):
    whole_rounds: bool = Field(
        description="Om en session skal bestå af hele runder (en runde = lige så mange spil som spillere)."
    )
    deals: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description=(
            "Aftenen er et fast antal spil: når så mange spil er spillet (om-givninger tæller ikke), er aftenen "
            "slut, og et spil mere kan ikke skrives. Tom betyder et vilkårligt antal."
        ),
    )
    game_to: int | None = Field(
        default=None,
        ge=1,
        le=1000,
        description=(
            "Et parti spilles til dette antal point: når en spiller (et par) når det, er partiet vundet, og et "
            "nyt begynder (engelsk whist spilles til 5). Til partiet tæller kun de point, et spil vinder; det "
            "tabende par mister intet af sine. Tom betyder ingen partier, kun aftenens sum."
        ),
    )


class Deck(Rule):
    jokers: int = Field(ge=0, le=3, description="Antal jokere i spil (0-3); 0 betyder 52 kort.")
    kitty: int = Field(ge=0, le=3, description="Antal kort i katten (bytterne); 0 betyder ingen kat.")


DealStep = int | Literal["kat"]


class Dealing(Rule):
    pattern: tuple[DealStep, ...] = Field(
        description=(
            "Kortgivningens mønster i rækkefølge: et tal n giver n kort til hver af de fire "
            'deltagere med uret fra forhånden; "kat" lægger ét kort i katten (det første nederst).'
        )
    )
    packet_sizes: tuple[int, ...] = Field(
        default=(1, 2, 3),
        description="De pakkestørrelser en kortgiver må bruge, når han giver efter andet mønster end standardmønstret.",
    )
    kitty_last_allowed: bool = Field(default=True, description="Om kortgivningens sidste kort må gå til katten.")


class Misdeal(Rule):
    redeal_by: Literal["same_dealer", "next_dealer"] = Field(
        description="Hvem der giver om efter en fejlgivning: samme kortgiver eller den næste."
    )
    penalty: Exact = Field(
        default=Fraction(0),
        description="Strafscore til hver af de andre spillere efter en fejlgivning (0 = ingen straf aftalt).",
    )
    culprit_pays: bool = Field(
        default=False,
        description="Om en anden spiller, der er skyld i fejlgivningen, betaler straffen i stedet for kortgiveren.",
    )


# --- bids -------------------------------------------------------------------------------------


class Bids(Rule):
    min_tricks: int = Field(ge=1, le=13, description="Laveste trumfbud (antal stik), normalt 7.")
    max_tricks: int = Field(ge=1, le=13, description="Højeste trumfbud (antal stik), normalt 13.")


KittyTurn = Literal["may_accept", "cannot_accept", "must_accept"]


class Trump(Rule):
    by: Literal["declarer", "partner", "fixed", "kitty"] = Field(
        description=(
            'Hvordan trumf bestemmes: "declarer" (melderen vælger), "partner" (makkeren '
            'vælger, som i halve), "fixed" (fast, fx klør i gode), "kitty" (kattens kort vendes, vip).'
        )
    )
    choices: tuple[Denomination, ...] | None = Field(
        default=None,
        description=(
            'De valgbare benævnelser (S, H, D, C, none = uden trumf); ved "fixed" præcis én. Bruges ikke ved "kitty".'
        ),
    )
    not_called_suit: bool = Field(default=False, description="Om trumf ikke må være makkerkortets farve (halve).")
    turns: tuple[KittyTurn, ...] | None = Field(
        default=None,
        description=(
            'Ved "kitty": reglen for hvert vendt kort i rækkefølge: "may_accept" (kan antages '
            'eller afvises), "cannot_accept" (kan ikke antages), "must_accept" (kan ikke afvises).'
        ),
    )
    joker_takes_previous: bool = Field(
        default=False,
        description=(
            "Ved vip: om en vendt joker lader spilleren tage det forrige vendte korts farve som trumf "
            "(ellers betyder en antaget joker uden trumf)."
        ),
    )
    partner_may_vip: bool = Field(
        default=False,
        description=(
            'Ved "partner" (halve): om makkeren i stedet for at vælge trumf må vippe (vende katten efter "turns"); '
            "så må makkerkortets farve gerne blive trumf."
        ),
    )


class Call(Rule):
    suits: Literal["any", "not_trump"] = Field(
        description="Hvilke farver makkerkortet må være i: alle, eller alle undtagen trumffarven."
    )


class DesignationExchange(Rule):
    by: Literal["declarer", "partner", "partner_chooses"] = Field(
        default="declarer",
        description=(
            'Hvem der bytter med katten i denne betegnelse: melderen, makkeren (i halve), eller "partner_chooses": '
            "makkeren bestemmer, om han selv eller melderen bytter."
        ),
    )
    required: Literal["optional", "compulsory"] | None = Field(
        default=None,
        description="Om bytning er valgfri eller tvungen i denne betegnelse (tom = reglesættets almindelige regel).",
    )


class Designation(Rule):
    id: BidId
    display: str = Field(description='Det danske navn efter tallet i en melding (tomt for almindelige; fx "vip i 2.").')
    tier: int = Field(
        ge=0,
        description=(
            "Rang inden for samme antal stik, 0 lavest; samme rang betyder at meldingerne ikke "
            "kan overmelde hinanden på samme antal stik. Udeladt med same_rank_as."
        ),
    )
    same_rank_as: BidId | None = Field(
        default=None,
        description=(
            "Betegnelsen denne er lige så høj som, i stedet for tier: fx gode, så en husregel kan tilføje en "
            "betegnelse til ethvert reglesæt; den får dennes rang."
        ),
    )
    trump: Trump = Field(description="Hvordan trumf bestemmes i denne betegnelse.")
    call: Call = Field(description="Hvilke farver makkerkortet må kaldes i.")
    exchange: DesignationExchange | None = Field(
        default=None,
        description="Bytteregler der gælder netop denne betegnelse (udeladt: reglesættets almindelige bytteregler).",
    )
    reveal_partner: bool = Field(
        default=False, description="Om makkeren giver sig til kende straks efter makkerkortet er nævnt (halve)."
    )


class Side(StrEnum):
    """Who plays together in a named contract: the declarer alone against three, the declarer and his fixed
    partner against the other pair, the fixed pairs against each other (no declarer), each for himself."""

    ALONE = "alone"
    PARTNER = "partner"
    PAIRS = "pairs"
    EACH = "each"


SideName = Annotated[Side, WithJsonSchema({"enum": [side.value for side in Side], "type": "string"})]
"""A side as a club's file writes it: the schema spells its values out in place."""


class SolBid(Rule):
    """A bid named by its name, not by a number of tricks: the sol bids of es-makker whist, and every
    contract of dansk whist (grandi, sol, grand, nolo, and pasnolo when all pass)."""

    id: BidId
    display: str = Field(description='Meldingens danske navn, fx "Ren sol".')
    after: str | None = Field(
        default=None,
        min_length=1,
        description=(
            'Meldingen lige under denne i stigerækken, i notationen (fx "9" eller "sol"): '
            "udeladt er buddet det laveste (dansk whists nolo)."
        ),
    )
    side: SideName = Field(
        default=Side.ALONE,
        description=(
            'Hvem der spiller sammen: "alone" (melderen alene mod tre), "partner" (melderen og hans faste makker '
            'mod det andet par), "pairs" (de faste par mod hinanden, uden melder: engelsk whist), '
            '"each" (hver for sig, uden melder: pasnolo).'
        ),
    )
    max_tricks: int | None = Field(
        default=None, ge=0, le=13, description="Det højeste antal stik melderen (hans side) må tage."
    )
    min_tricks: int | None = Field(
        default=None, ge=1, le=13, description="Det mindste antal stik melderen (hans side) skal tage (7 i grand)."
    )
    first_tricks: int | None = Field(
        default=None,
        ge=1,
        le=13,
        description="Melderen skal tage så mange af de første stik, hvert eneste (de 7 første i grandi).",
    )
    fewest_tricks: bool = Field(
        default=False,
        description=(
            'Om den eller de med færrest stik vinder (pasnolo) i stedet for flest: ved "each" hver spiller for '
            'sig, ved "pairs" parret.'
        ),
    )
    leader: Literal["forhaand", "declarer"] = Field(
        default="forhaand", description="Hvem der spiller ud til første stik: forhånden, eller melderen (grandi)."
    )
    trump: Literal["none", "dealer_card"] = Field(
        default="none",
        description=(
            'Trumfen i buddet: ingen, eller "dealer_card", farven på kortgiverens sidste kort, som vendes '
            "(engelsk whist)."
        ),
    )
    card_order: Literal["sol_games", "trump_games"] = Field(
        default="sol_games",
        description=(
            "Hvilken af card_order-rækkefølgerne kortene følger: solspillenes (es lavest i dansk whist) "
            "eller trumfspillenes (es højest)."
        ),
    )
    open_hand: Literal["never", "after_first_trick", "after_first_lead", "before_first_lead"] = Field(
        default="never",
        description=(
            "Hvornår melderens kort lægges åbent på bordet (bordlægger/oplægger): når første stik er spillet, "
            "efter første udspil, eller før første udspil (så udspilleren ser dem)."
        ),
    )
    settle: Literal["winners", "trick_difference"] = Field(
        default="winners",
        description=(
            'Hvordan et spil hver for sig ("each") afregnes: "winners": den eller de med færrest (flest) stik '
            'vinder, og de andre betaler; "trick_difference": hver spiller gør op med hver af de andre efter '
            "forskellen i deres stik (D er summen af forskellene)."
        ),
    )


class AllPass(Rule):
    redeal_by: Literal["same_dealer", "next_dealer"] | None = Field(
        default=None, description="Hvem der giver nye kort, når alle har meldt pas."
    )
    contract: SolBid | None = Field(
        default=None,
        description=(
            "Spillet der spilles, når alle melder pas (pasnolo i dansk whist) eller der ikke meldes "
            "(engelsk whist), i stedet for at give nye kort: det står ikke i stigerækken."
        ),
    )


# --- auction ---------------------------------------------------------------------------------


class GaaMed(Rule):
    sol_bids: bool = Field(description="Om man kan gå med i et solbud.")
    vip_bids: bool = Field(description="Om man kan gå med i et vipbud (og overtage kontrakten).")


class Auction(Rule):
    procedure: Literal["melde_tilbage", "none"] = Field(
        description=(
            'Meldeforløbet: "melde_tilbage": forhånden åbner, den næste overmelder eller passer, '
            "de to melder færdig, så kommer den næste ind mod det højeste bud. Pas er endeligt. "
            '"none": der meldes ikke; all_pass.contract spilles (engelsk whist).'
        )
    )
    gaa_med: GaaMed = Field(
        default=GaaMed(sol_bids=False, vip_bids=False),
        description="Gå med: at slutte sig til det højeste bud i stedet for at overmelde.",
    )
    kan_selv: bool = Field(
        default=False,
        description=(
            "Kan selv (tage den i baghånden): når forhånden er overmeldt, kan han overtage buddet på samme "
            "højde i stedet for at melde over eller passe; den overmeldte skal så melde over eller passe."
        ),
    )
    kan_selv_for: Literal["forhaand", "overcalled"] = Field(
        default="forhaand",
        description=(
            'Hvem der kan selv: "forhaand": kun forhånden; "overcalled": enhver melder, der er blevet '
            "overmeldt. Et bud, der er taget selv, kan ikke tages tilbage på samme højde."
        ),
    )


class PartnerCard(Rule):
    ranks: tuple[Rank, ...] = Field(
        description=(
            "Makkerkortets mulige værdier i rækkefølge: normalt es; den næste (konge, dame, ...) "
            "kun når melderen har alle kort af de foregående værdier."
        )
    )
    descend_when: Literal["holding_all_allowed", "holding_all_four"] = Field(
        description=(
            "Hvornår melderen må gå ned til næste værdi: når han har den i alle valgbare farver, "
            "eller kun når han har alle fire (fx alle 4 esser)."
        )
    )
    descend: Literal["may", "must"] = Field(
        default="may",
        description=(
            "Om melderen, der har alle kort af en værdi, må eller skal kalde den næste (fx en konge med alle "
            'fire esser): "may" må (og kan ellers kalde sit eget kort), "must" skal. Ved den laveste værdi i '
            "ranks kaldes der blandt den."
        ),
    )
    own_card_allowed: bool = Field(description="Om melderen må kalde sit eget kort (og dermed blive selvmakker).")


# --- exchange --------------------------------------------------------------------------------


class SolExchange(Rule):
    allowed: bool = Field(description="Om spilførerne i solspil må bytte med katten.")
    order: Literal["bidding_order", "last_joiner_first"] = Field(
        description="Rækkefølgen når flere spilfører bytter: meldeorden, eller sidste medgænger først."
    )
    discards_become_kitty: bool = Field(description="Om en spilførers afkastede kort bliver ny kat for den næste.")


class Exchange(Rule):
    allowed: bool = Field(description="Om der byttes med katten overhovedet.")
    amount: Literal["all_or_none", "up_to_all"] = Field(
        description="Alle kattens kort eller ingen, eller et valgfrit antal fra toppen af katten."
    )
    order: Literal["discard_first", "take_first"] = Field(
        description="Om kortene lægges fra før katten tages op, eller omvendt."
    )
    required: Literal["optional", "compulsory"] = Field(
        description="Om bytning er valgfri eller tvungen (en betegnelse kan ændre det)."
    )
    leftover: Literal["stays", "passes_clockwise"] = Field(
        description="Hvad der sker med kattekort spilføreren ikke tager: bliver liggende, eller går videre med uret."
    )
    called_card_may_be_discarded: bool = Field(description="Om makkerkortet må lægges i katten.")
    sol: SolExchange = Field(description="Bytning i solspil.")


class Fordaekt(Rule):
    allowed: bool = Field(
        description=(
            "Fordækt kort: en spilfører der er fri i makkerkortets farve må lægge ét kort skjult, "
            "som tæller som det laveste kort i den farve."
        )
    )
    most_held: int = Field(
        default=0,
        ge=0,
        le=12,
        description=(
            "Hvor mange kort i makkerkortets farve spilføreren højst må have og alligevel lægge et fordækt kort "
            "(et markeringskort): 0 når han skal være fri i farven (000 6.1.1), 1 når han højst har ét."
        ),
    )


class Doubling(Rule):
    allowed: bool = Field(description="Om der må dobles.")
    by: Literal["opponents", "not_declarer"] = Field(
        default="not_declarer",
        description="Hvem der må doble: modspillerne, eller alle undtagen spilføreren.",
    )
    redouble: bool = Field(default=False, description="Om spilføreren må svare med en redobling.")
    factor: Exact = Field(default=Fraction(2), description="Hvad en dobling ganger alle betalinger med.")
    during_tricks: int = Field(
        default=0,
        ge=0,
        le=12,
        description=(
            'I hvor mange af de første stik der stadig må dobles ("bankes"), af en spiller, når det er hans tur '
            "til at lægge et kort, så længe der ikke er doblet: 0 = kun før første udspil; 3 = også under de tre "
            "første stik. Spilføreren må redoble på samme måde, hvor redouble er tilladt."
        ),
    )


# --- play ------------------------------------------------------------------------------------


class Jokers(Rule):
    play_any_time: bool = Field(description="Om en joker må spilles når som helst, også når man kan bekende.")
    lead_first_trick: bool = Field(description="Om en joker må spilles ud til første stik.")
    led_joker: Literal["wins", "loses_to_trump"] = Field(
        description="En udspillet joker: vinder altid stikket, eller taber til den højeste trumf i stikket."
    )
    after_joker_lead: Literal["any_card"] = Field(
        description="Hvad de andre må lægge efter et jokerudspil: et hvilket som helst kort."
    )


class CalledCard(Rule):
    must_fall_first_time_led: bool = Field(
        description="Om makkerkortet skal spilles første gang dets farve spilles ud."
    )
    must_fall_every_time_led: bool = Field(
        default=False,
        description=(
            "Om makkerkortet skal spilles, hver gang dets farve spilles ud, så længe indehaveren har det "
            "(ikke kun første gang): faldt det ikke første gang (første stik fri, eller indehaveren spillede "
            "selv farven ud), skal det falde næste gang. Kræver must_fall_first_time_led."
        ),
    )
    holder_leads_it: bool = Field(
        description="Om indehaveren, der selv spiller farven ud første gang, skal spille makkerkortet ud."
    )
    applies_to_selvmakker: bool = Field(description="Om reglerne også gælder, når melderen er selvmakker.")
    may_be_trumped: bool = Field(description="Om makkerkortet må stikkes med trumf.")
    free_first_trick: bool = Field(
        default=False,
        description='Om makkerkortets regler er ophævet i første stik ("I første runde må spilles alt").',
    )


class CardOrder(Rule):
    trump_games: tuple[Rank, ...] = Field(description="Kortenes rækkefølge i hver farve i trumfspil, højeste først.")
    sol_games: tuple[Rank, ...] = Field(description="Kortenes rækkefølge i hver farve i solspil, højeste først.")


class Play(Rule):
    first_lead: Literal["forhaand"] = Field(description="Hvem der spiller ud til første stik: forhånden.")
    follow_suit: Literal["must_follow_else_any"] = Field(
        description="Man skal bekende; kan man ikke, må man spille et hvilket som helst kort (ingen trumfpligt)."
    )
    trick_winner: Literal["highest_trump_else_led_suit"] = Field(
        description="Stikket vindes af den højeste trumf, ellers det højeste kort i udspilsfarven."
    )
    sol_ends: Literal["when_all_declarers_lost", "all_tricks"] = Field(
        description="Om et solspil stopper, så snart alle spilførere har tabt, eller spilles til ende."
    )


# --- scoring ---------------------------------------------------------------------------------


class PointTable(Rule):
    """A point table; as every rule, it may cite where its numbers come from (``source``)."""

    model_config = ConfigDict(frozen=True, extra="forbid", coerce_numbers_to_str=True)

    key: Literal["level", "bid"] = Field(
        description=(
            'Hvad tabellen slås op efter: "level" (antal stik meldt) eller "bid" (betegnelsens eller solbuddets id).'
        )
    )
    values: dict[str, Exact] = Field(
        description="Tabellens værdier: antal stik (7, 8, ...) eller meldingens id -> point."
    )


class GameScoring(Rule):
    formula: Formula | None = Field(
        default=None, description="Én formel for en spillers score, med V = +1 vundet og -1 tabt."
    )
    made: Formula | None = Field(default=None, description="Formlen for en spillers score, når kontrakten holder.")
    failed: Formula | None = Field(
        default=None, description="Formlen for en spillers score, når kontrakten ikke holder."
    )


class Scoring(Rule):
    constants: dict[str, Exact] = Field(
        default_factory=dict, description="Navngivne konstanter til formlerne (fx M og G hos Thorsen)."
    )
    tables: dict[str, PointTable] = Field(
        default_factory=dict, description="Navngivne pointtabeller til formlerne (fx grundtaksten pr. antal stik)."
    )
    trump: GameScoring | None = Field(
        default=None, description="Afregning af trumfspil (udelades i spil uden stikbud: dansk og engelsk whist)."
    )
    sol: GameScoring = Field(description="Afregning af solspil.")
    decimals: int = Field(
        default=2, ge=0, le=6, description="Antal decimaler når ikke-hele point udskrives (regningen er eksakt)."
    )
    rounding: Literal["exact", "whole_up"] = Field(
        default="exact",
        description=(
            'Afrunding af hvert spils point: "exact": regnes eksakt (brøker udskrives med decimals); "whole_up": '
            "hvert spils point rundes op til hele point: hver modspillers andel rundes op (væk fra nul), og "
            "melderens side får, hvad modspillerne tilsammen betaler, så summen stadig er nul."
        ),
    )
    losers_pay: bool = Field(
        default=True,
        description=(
            "Om taberne betaler, hvad vinderne får, så hvert spils point går i nul (es-makker og dansk whist). "
            'false: kun vinderne får point, taberne intet (engelsk whist, 002: "Det par, der vinder flest stik, '
            'får 1 point pr. stik udover de første 6 stik"); kun i spil par mod par.'
        ),
    )


# --- redeals, notes --------------------------------------------------------------------------


class Jernhaand(Rule):
    allowed: bool = Field(description="Om jernhånd må påberåbes.")
    court_ranks: tuple[Rank, ...] = Field(
        default=("A", "K", "Q", "J"),
        description="Kort der gør en hånd til ikke-jernhånd (og enhver joker).",
    )
    redeal_by: Literal["same_dealer", "next_dealer"] = Field(
        default="same_dealer", description="Hvem der giver om efter jernhånd."
    )


class Omblanding(Rule):
    allowed: bool = Field(
        default=False,
        description="Om enhver spiller kan bede om omblanding, før han har kigget på sine kort (ny kortgivning).",
    )
    redeal_by: Literal["same_dealer", "next_dealer"] = Field(
        default="same_dealer", description="Hvem der giver om efter en omblanding."
    )


class Money(Rule):
    losses_to_box: bool = Field(
        default=False,
        description=("Om de beløb, der er tabt ved aftenens slutning, går i klubbens kasse i stedet for til vinderne."),
    )
    evening_fee: Exact = Field(
        default=Fraction(0), description="Et fast gebyr som hver spiller betaler til klubbens kasse pr. aften."
    )


class Note(Rule):
    text: str = Field(min_length=1, description="En klubregel som motoren ikke kan kontrollere (fx hvem der blander).")


class PluginUse(Model):
    name: str = Field(min_length=1, description='Pluginets navn (dets entry point i gruppen "regelmotor").')
    settings: dict[str, Any] = Field(
        default_factory=dict, description="Pluginets indstillinger; pluginet kontrollerer dem selv."
    )


UNRANKED = 10**6
"""The tier of a designation whose ``same_rank_as`` names no designation (the checks report it)."""


class Ruleset(Model):
    """A complete, resolved ruleset."""

    @model_validator(mode="before")
    @classmethod
    def _ranks_by_name(cls, data: Any) -> Any:
        """A designation with ``same_rank_as`` takes that designation's tier (a house rule cannot know
        the numbers a ruleset gives its tiers); one naming no designation is left without a tier, which
        the check reports at ``same_rank_as``."""
        if not isinstance(data, dict) or not isinstance(data.get("designations"), list):
            return data
        entries = data["designations"]
        tiers = {e.get("id"): e.get("tier") for e in entries if isinstance(e, dict) and isinstance(e.get("tier"), int)}
        resolved = []
        for entry in entries:
            if isinstance(entry, dict) and "tier" not in entry and isinstance(entry.get("same_rank_as"), str):
                entry = {**entry, "tier": tiers.get(entry["same_rank_as"], UNRANKED)}
            resolved.append(entry)
        return {**data, "designations": resolved}

    name: str = Field(
        pattern=r"^[a-z0-9][a-z0-9_-]*$", description="Reglesættets korte navn (små bogstaver, tal, - og _)."
    )
    title: str = Field(min_length=1, description="Reglesættets navn som det vises.")
    description: str = Field(min_length=1, description="En linje om reglesættet.")
    source: Source
    game: str = Field(
        default="esmakkerwhist",
        pattern=r"^[a-z0-9][a-z0-9_-]*$",
        description='Hvilket spil reglesættet er en udgave af: "esmakkerwhist", "engelsk", "dansk", ...',
    )
    table: Table = Field(description="Spillere ved bordet og hvem der sidder over.")
    session: Session = Field(description="Hvordan en session er opbygget.")
    deck: Deck = Field(description="Kortene i spil og katten.")
    dealing: Dealing = Field(description="Hvordan kortene gives.")
    misdeal: Misdeal = Field(description="Fejlgivning.")
    all_pass: AllPass = Field(description="Hvad der sker, når alle melder pas.")
    bids: Bids | None = Field(default=None, description="De tilladte trumfbud (udelades uden betegnelser).")
    designations: tuple[Designation, ...] = Field(
        default=(),
        max_length=MAX_DESIGNATIONS,
        description=(
            "Betegnelserne (påhængene) i stigende orden: almindelige, vip, gode, sans, halve, ...; "
            "tom i spil uden stikbud (dansk og engelsk whist)."
        ),
    )
    sol_bids: tuple[SolBid, ...] = Field(
        default=(), max_length=MAX_SOL_BIDS, description="Solbuddene og deres plads i stigerækken."
    )
    auction: Auction = Field(description="Meldeforløbet.")
    partner_card: PartnerCard = Field(
        default=PartnerCard(ranks=("A",), descend_when="holding_all_allowed", own_card_allowed=False),
        description="Hvilket kort melderen må kalde som makkerkort (udelades med faste makkere).",
    )
    exchange: Exchange = Field(
        default=Exchange(
            allowed=False,
            amount="all_or_none",
            order="discard_first",
            required="optional",
            leftover="stays",
            called_card_may_be_discarded=False,
            sol=SolExchange(allowed=False, order="bidding_order", discards_become_kitty=False),
        ),
        description="Bytning med katten (udelades uden kat: der byttes ikke).",
    )
    fordaekt: Fordaekt = Field(default=Fordaekt(allowed=False), description="Fordækt kort.")
    doubling: Doubling = Field(default=Doubling(allowed=False), description="Dobling.")
    jokers: Jokers | None = Field(default=None, description="Reglerne for jokerne (udelades uden jokere).")
    called_card: CalledCard = Field(
        default=CalledCard(
            must_fall_first_time_led=False,
            holder_leads_it=False,
            applies_to_selvmakker=False,
            may_be_trumped=True,
        ),
        description="Reglerne for makkerkortet i spillet (udelades med faste makkere, hvor intet kort kaldes).",
    )
    card_order: CardOrder = Field(description="Kortenes rækkefølge.")
    play: Play = Field(description="Spillet: udspil, bekendelse, stikkets vinder.")
    scoring: Scoring = Field(description="Afregningen.")
    jernhaand: Jernhaand = Field(description="Jernhånd: ny kortgivning for en hånd uden billedkort, esser og jokere.")
    omblanding: Omblanding = Field(
        default=Omblanding(),
        description="Omblanding: ny kortgivning på en spillers forlangende, før han ser sine kort.",
    )
    money: Money = Field(default=Money(), description="Aftenens afregning i penge: klubbens kasse og gebyr.")
    notes: tuple[Note, ...] = Field(default=(), description="Klubbens egne regler, som motoren ikke kan kontrollere.")
    plugins: tuple[str | PluginUse, ...] = Field(
        default=(),
        description=(
            'Installerede plugins (entry points i gruppen "regelmotor") med regler, som YAML ikke kan udtrykke: '
            "et navn, eller {name: ..., settings: {...}} med pluginets indstillinger. De medfølgende reglesæt bruger "
            "ingen; en husregel føjer sine plugins til reglesættets."
        ),
    )

    @property
    def levels(self) -> range:
        """The numbers of tricks a trick bid may name (none without designations)."""
        return range(0) if self.bids is None else range(self.bids.min_tricks, self.bids.max_tricks + 1)

    def plugin_uses(self) -> tuple[PluginUse, ...]:
        """Every plugin with its settings (a bare name has none)."""
        return tuple(PluginUse(name=p) if isinstance(p, str) else p for p in self.plugins)

    def designation(self, designation_id: str) -> Designation:
        for designation in self.designations:
            if designation.id == designation_id:
                return designation
        raise KeyError(designation_id)

    def sol_bid(self, sol_id: str) -> SolBid:
        """A bid named by its name: one of ``sol_bids``, or the contract played when all pass."""
        for sol in self.named_bids():
            if sol.id == sol_id:
                return sol
        raise KeyError(sol_id)

    def named_bids(self) -> tuple[SolBid, ...]:
        """The sol bids, then the contract played when all pass (if any)."""
        extra = () if self.all_pass.contract is None else (self.all_pass.contract,)
        return (*self.sol_bids, *extra)
