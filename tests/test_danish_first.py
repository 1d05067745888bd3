"""The table issue: "Danish everywhere a club member reads, English with --lang en (or an environment
variable), from one phrase table": a ruleset file's problems, the score sheet's and score's refusals,
replay's account of a deal and the engine's notes, match and show."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from regelmotor.cli import main
from regelmotor.engine.game import Game
from regelmotor.errors import RegelmotorError
from regelmotor.phrase_table import phrases
from regelmotor.ruleset.compile import compile_rules
from regelmotor.ruleset.load import load_ruleset

HOSTILE = Path(__file__).parent / "hostile"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_every_phrase_is_in_both_languages_with_the_same_blanks() -> None:
    """One phrase table: a sentence said in Danish can be said in English, filled in with the same values."""
    da, en = phrases("da"), phrases("en")
    assert set(da) == set(en)

    def blanks(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    assert {k for k in da if blanks(da[k]) != blanks(en[k])} == set()


def test_no_phrase_is_written_twice() -> None:
    """A phrase written twice would silently say the later one."""
    from regelmotor.phrase_table import PHRASES

    for lang in ("da", "en"):
        keys = re.findall(r"^(\w+):", (PHRASES / f"{lang}.yaml").read_text(encoding="utf-8"), flags=re.M)
        assert sorted({k for k in keys if keys.count(k) > 1}) == [], lang


@pytest.mark.parametrize(
    ("file", "dansk", "english"),
    [
        ("unknown-key.yaml", 'jokrs: ukendt nøgle "jokrs" (mente du "jokers"?)', 'unknown key "jokrs"'),
        ("duplicate-key.yaml", 'title: nøglen "title" står der to gange (første gang på linje 3)', "duplicate key"),
        ("yes-boolean.yaml", 'fordaekt.allowed: "yes" er et YAML 1.1-sandhedsord', "YAML 1.1 boolean"),
        ("too-many-jokers.yaml", "deck.jokers: 9 er for stor: det største tilladte er 3", "too large"),
        ("only-comment.yaml", "(øverst): filen er tom", "(top): the file is empty"),
        ("unknown-variable.yaml", '"X" er ikke en kendt variabel: brug B, C', '"X" is not a known variable'),
        ("not-zero-sum.yaml", "pointene summer ikke til nul: i 7 alm med 7 stik (melderen med makker)", "sum to zero"),
        ("house-rule-unknown.yaml", 'ingen medfølgende husregel hedder "jernhand"', "no shipped house rule"),
        (
            "players-seven.yaml",
            "7 spillere kan ikke spille: es-makker whist spilles af 4, 5 eller 6",
            "7 players cannot",
        ),
        ("no-kitty-vip.yaml", "55 kort givet med 13 til hver af fire spillere efterlader 3 til katten", "leave 3 for"),
        ("octal.yaml", '"03" læses som et YAML 1.1-oktal', "YAML 1.1 octal"),
        (
            "trump-formula-and-made.yaml",
            'scoring.trump: giv enten "formula" eller "made" og "failed", ikke begge dele',
            'give either "formula" or "made" and "failed", not both',
        ),
        (
            "constant-named-t.yaml",
            'scoring.constants.T: "T" er et bogstav, som motoren selv sætter i formlerne (T er de stik, spilførerens side '
            "tog); giv konstanten et andet navn",
            '"T" is a letter the engine sets in the formulas',
        ),
        ("python-tag.yaml", "er ikke tilladt: en reglesætsfil kan ikke køre kode", "cannot run code"),
    ],
)
def test_a_ruleset_files_problem_is_said_in_danish_at_its_line(
    capsys: pytest.CaptureFixture[str], file: str, dansk: str, english: str
) -> None:
    """The secretary reads what is wrong in Danish, at the file, line and key; ``--lang en`` in English."""
    path = str(HOSTILE / file)
    code, out, err = _run(capsys, "validate", path)
    assert code == 1 and dansk in out and re.search(rf"{re.escape(path)}:\d+:\d+: ", out), out
    assert "fejl i 1 af 1 filer" in err
    code, out, _ = _run(capsys, "validate", path, "--lang", "en")
    assert code == 1 and english in out


def test_regelmotor_lang_en_in_the_environment_says_it_in_english(tmp_path: Path) -> None:
    import subprocess
    import sys

    command = [sys.executable, "-m", "regelmotor", "score", "standard", "--contract", "8", "--tricks", "15"]
    danish = subprocess.run(command, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"}, check=False)
    english = subprocess.run(
        command, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "REGELMOTOR_LANG": "en"}, check=False
    )
    assert "--tricks er, hvad melderens side tog" in danish.stderr
    assert "--tricks is what the declarer's side took" in english.stderr


def test_a_refused_deal_is_said_in_the_readers_language_and_str_stays_english() -> None:
    """A library user's ``str(error)`` is the English; ``text("da")`` is what the table reads."""
    inner = RegelmotorError.said("no_player", name="Nils", names="Anna, Bo")
    error = RegelmotorError.said("in_deal", number=3, error=inner)
    assert str(error) == 'deal 3: no player is called "Nils": Anna, Bo'
    assert error.text("da") == 'spil 3: ingen spiller hedder "Nils": Anna, Bo'
    assert RegelmotorError("not said").text("da") == "not said"


def test_the_engines_notes_are_english_text_that_say_themselves_in_danish() -> None:
    """A deal all pass in is dealt again; the engine's note on it is the English text (records and --json are
    unchanged) and says itself in Danish for replay and the table."""
    rules = compile_rules(load_ruleset("standard"))
    game = Game.from_seed(rules, 1, 3)
    game.apply("pass")
    game.apply("pass")
    game.apply("pass")
    game.apply("pass")
    assert game.events, "all pass gives a note"
    note = game.events[-1]
    assert isinstance(note, str) and note.startswith("redeal (") and str(note) == note.text("en")
    assert note.text("da").startswith("omgivning (alle meldte pas): plads ")


def test_match_and_show_speak_danish(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "show", "thorsen")
    assert code == 0 and out.splitlines()[1].startswith("# bygget af: ")
    code, out, _ = _run(capsys, "show", "thorsen", "--lang", "en")
    assert code == 0 and out.splitlines()[1].startswith("# built from: ")


def test_the_evenings_score_sheet_speaks_english_with_lang_en(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The sheet a table keeps (``session``) is Danish first and English with ``--lang en``: its lines, its
    columns, its settlement and its printed forms, not only its messages."""
    sheet = str(tmp_path / "aften.json")
    assert (
        _run(capsys, "session", "new", sheet, "standard", "--players", "Anna,Bo,Carl,Dorte", "--rate", "0.25")[0] == 0
    )
    for deal in (["--contract", "8", "--declarer", "Anna", "--partner", "Carl", "--tricks", "10"],
                 ["--redeal", "misdeal", "--culprit", "Bo"]):  # fmt: skip
        assert _run(capsys, "session", "add", sheet, *deal)[0] == 0
    danish = _run(capsys, "session", "show", sheet)[1]
    assert "Spil Giver" in danish and "Anna 8 m. Carl: 10 stik" in danish and "Bos fejl" in danish
    assert "Afregning ved 0,25 kr. pr. point: Anna +15,00 kr." in danish and "Bo betaler Carl 15,00 kr." in danish
    english = _run(capsys, "session", "show", sheet, "--lang", "en")[1]
    assert "Deal Dealer" in english and "Anna 8 w. Carl: 10 tricks" in english and "Bo's fault" in english
    assert "Settlement at 0.25 kr. a point: Anna +15.00 kr." in english and "Bo pays Carl 15.00 kr." in english
    danish_words = re.compile(r"\b(?:spil|giver|stik|betaler|afregning|alt|omgivning|fejl|udskrevet)\b", re.IGNORECASE)
    for form in ("md", "csv", "html"):
        printed = _run(capsys, "session", "show", sheet, "--lang", "en", "--format", form)[1]
        assert "Total" in printed and not danish_words.search(printed), form
    assert "Udskrevet" in _run(capsys, "session", "show", sheet, "--format", "md")[1]
    assert (
        _run(capsys, "session", "undo", sheet, "--lang", "en")[1]
        == "taken back: deal 2, redeal (misdeal), Bo's fault\n"
    )
    said = _run(capsys, "session", "rescore", sheet, "--lang", "en")[1]
    assert said == "standard is as it was when the sheet was started: nothing changes\n"


def test_rulesets_says_what_each_ruleset_is_in_the_readers_language(capsys: pytest.CaptureFixture[str]) -> None:
    """The first thing a new member runs: the headings, the games and each line in Danish, in English with
    ``--lang en`` (a ruleset's ``description_en``, as a house rule's)."""
    code, danish, _ = _run(capsys, "rulesets")
    assert code == 0 and danish.startswith("Reglesæt (REGLESÆT), efter spil:\n  Es-makker whist:\n")
    assert "Thomas Thorsens formelle love (000)" in danish and "Husregler (-H HUSREGEL)" in danish
    code, english, _ = _run(capsys, "--lang", "en", "rulesets")
    assert code == 0 and english.startswith("Rulesets (RULESET), by game:\n")
    assert "Thomas Thorsen's formal laws (000)" in english and "  Danish whist (dansk whist):" in english
    assert "The opponents may double once before the first lead" in english  # a house rule's own English
    assert "formelle love" not in english and "Husregler" not in english


def test_a_game_without_bidding_says_so_in_danish(capsys: pytest.CaptureFixture[str]) -> None:
    """002: engelsk whist has no auction; ``ladder`` says so in the member's language."""
    assert _run(capsys, "ladder", "engelsk")[1] == "ingen meldinger i engelsk: hvert spil er whist\n"
    assert _run(capsys, "--lang", "en", "ladder", "engelsk")[1] == "no bidding in engelsk: every deal is whist\n"


def test_a_shipped_rule_book_in_english_is_headed_by_its_english_title(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(capsys, "rulebook", "thorsen", "--lang", "en")[1].startswith("# Thorsen's laws of es-makker whist\n")
    assert _run(capsys, "rulebook", "thorsen")[1].startswith("# Thorsens love for esmakkerwhist\n")


def test_a_club_that_names_itself_is_not_shown_by_its_parents_english_name(tmp_path: Path) -> None:
    """A club file on ``standard`` with its own title and line: in English it is the club's own words, not
    "Es-makker whist (standard)", until it gives an English title of its own."""
    club = tmp_path / "klub.yaml"
    club.write_text(
        "kind: ruleset\nextends: standard\nname: klub\ntitle: Onsdagsklubben\n"
        "description: Standard med vores egne takster\nsource: Bestyrelsesmødet 2026\n",
        encoding="utf-8",
    )
    ruleset = load_ruleset(str(club)).ruleset
    assert (ruleset.title_en, ruleset.description_en) == (None, None)
    assert load_ruleset("whistklubben").ruleset.title_en == "Whistklubben's rules"  # its own English
    club.write_text(club.read_text(encoding="utf-8") + "title_en: The Wednesday club\n", encoding="utf-8")
    assert load_ruleset(str(club)).ruleset.title_en == "The Wednesday club"
    assert load_ruleset(str(club)).ruleset.description_en is None


def test_a_rulesets_english_words_are_prose_not_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``title_en`` and ``description_en`` say what a ruleset is called, as ``title`` does: ``diff`` lists no
    rule for them, the fingerprint does not change, and a house rule may not change them."""
    club = tmp_path / "klub.yaml"
    club.write_text(
        "kind: ruleset\nextends: whistklubben\nname: whistklubben\ntitle: Whistklubbens regelsæt\n"
        'description: "Whistklubbens regler: bytning af 0-3 kort der går videre med uret, gå med i sol, katten'
        ' aldrig sidst"\ntitle_en: The club\ndescription_en: Our rules in English\n'
        "source: Whistklubbens regelsæt\n",
        encoding="utf-8",
    )
    assert load_ruleset(str(club)).fingerprint == load_ruleset("whistklubben").fingerprint
    code, out, _ = _run(capsys, "diff", "whistklubben", str(club))
    assert code == 0 and "English" not in out and "engelsk" not in out.lower(), out
    house = tmp_path / "engelsk-navn.yaml"
    house.write_text(
        "kind: house_rule\nname: engelsk-navn\ntitle: Navn\ndescription: Et navn\nsource: K\n"
        "changes:\n  title_en: Hacked\n",
        encoding="utf-8",
    )
    code, out, _ = _run(capsys, "validate", str(house))
    assert code == 1 and 'changes.title_en: ukendt nøgle "title_en"' in out, out
