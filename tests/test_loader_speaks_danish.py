"""The loader's own problems are said in Danish first, English with ``--lang en``: what a club secretary did
wrong with ``extends``, house rules, plugins, the YAML itself and the rules the engine does not play, each
said from the phrase table at the file, line and key where it is mended (before, these were English only)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, Field

from regelmotor.cli import main
from regelmotor.errors import RegelmotorError, RulesetError, RulesetNotFound
from regelmotor.hooks import hookimpl
from regelmotor.model.ruleset import Ruleset
from regelmotor.rules.scoring.scorer import Scorer, scorer_for
from regelmotor.ruleset.catalogue import find_file
from regelmotor.ruleset.load import load_ruleset

Write = Callable[[str, str], str]

CLUB = "extends: standard\nname: k\n"
"""A club's file that builds on standard; each test adds what the secretary got wrong."""


@pytest.fixture
def write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Write:
    """Files in a folder of their own, named as the secretary names them (the messages show the name)."""
    monkeypatch.chdir(tmp_path)

    def written(name: str, text: str) -> str:
        (tmp_path / name).write_text(text, encoding="utf-8")
        return name

    return written


def _validate(capsys: pytest.CaptureFixture[str], path: str) -> tuple[str, str]:
    """What ``validate`` prints of ``path``, in Danish and with ``--lang en``; the file is invalid both times."""
    assert main(["validate", path]) == 1
    danish = capsys.readouterr().out
    assert main(["validate", path, "--lang", "en"]) == 1
    english = capsys.readouterr().out
    return danish, english


def _installed(monkeypatch: pytest.MonkeyPatch, name: str, load: Callable[[], object]) -> None:
    """A plugin installed under ``name`` (its entry point loads ``load()``), without a package."""

    class EntryPoint:
        def load(self) -> object:
            return load()

    EntryPoint.name = name  # type: ignore[attr-defined]
    real = metadata.entry_points

    def entry_points(**kwargs: Any) -> Any:
        return [EntryPoint()] if kwargs.get("group") == "regelmotor" else real(**kwargs)

    monkeypatch.setattr(metadata, "entry_points", entry_points)


# --- extends ---------------------------------------------------------------------------------


def test_a_file_that_extends_itself(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("circ.yaml", "extends: circ.yaml\nname: circ\n"))
    assert 'circ.yaml:1:1: extends: "extends" går i ring: circ.yaml -> circ.yaml\n' in danish
    assert 'circ.yaml:1:1: extends: "extends" goes round in a circle: circ.yaml -> circ.yaml\n' in english


def test_extends_more_than_16_files_deep(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    write("d0.yaml", CLUB.replace("name: k", "name: d0"))
    for i in range(1, 18):
        write(f"d{i}.yaml", f"extends: d{i - 1}.yaml\nname: d{i}\n")
    danish, english = _validate(capsys, "d17.yaml")
    assert 'd2.yaml:1:1: extends: "extends" går mere end 16 filer i dybden: d17.yaml -> ... -> d1.yaml\n' in danish
    assert 'd2.yaml:1:1: extends: "extends" goes more than 16 files deep: d17.yaml -> ... -> d1.yaml\n' in english


def test_extending_a_house_rule_file(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    write(
        "hr.yaml", "kind: house_rule\nname: hr\ntitle: H\ndescription: H\nsource: H\nchanges:\n  deck:\n    jokers: 2\n"
    )
    danish, english = _validate(capsys, write("club.yaml", "extends: hr.yaml\nname: k\n"))
    assert (
        "hr.yaml:1:7: kind: dette er en husregel, ikke et reglesæt: tilføj den med -H/--house-rule eller house_rules:\n"
    ) in danish
    assert (
        "hr.yaml:1:7: kind: this is a house rule, not a ruleset: add it with -H/--house-rule or house_rules:\n"
        in english
    )


def test_extending_another_ruleset_without_a_name_of_its_own(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", "extends: standard\ntitle: Klubben\n"))
    assert (
        'club.yaml:1:1: name: et reglesæt, der bygger på et andet, skal have sit eget "name:", ellers vises det med '
        "det andet reglesæts navn\n"
    ) in danish
    assert (
        'club.yaml:1:1: name: a ruleset that extends another needs its own "name:", or it would be shown as its parent\n'
    ) in english


def test_remove_in_a_file_that_extends_nothing(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    text = "name: k\ntitle: K\ndescription: K\nsource: K\nremove:\n  designations: [halve]\n"
    danish, english = _validate(capsys, write("club.yaml", text))
    assert (
        'club.yaml:5:1: remove: "remove:" fjerner noget, filen arver, men denne fil bygger ikke på noget: fjern "remove:"\n'
    ) in danish
    assert (
        'club.yaml:5:1: remove: "remove:" takes out what a file inherits, and this file extends nothing: leave "remove:" out\n'
    ) in english


# --- house rules ------------------------------------------------------------------------------


def _house_rule(write: Write, name: str, changes: str) -> str:
    return write(f"{name}.yaml", f"kind: house_rule\nname: {name}\ntitle: H\ndescription: H\nsource: H\n{changes}")


def test_listing_more_than_32_house_rules(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", CLUB + f"house_rules: [{', '.join(['jernhaand'] * 33)}]\n"))
    assert "club.yaml:3:1: house_rules: 33 husregler: højst 32 (nævn hver kun én gang)\n" in danish
    assert "club.yaml:3:1: house_rules: 33 house rules: at most 32 (name each once)\n" in english


def test_naming_more_than_32_house_rules_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    many = [arg for _ in range(33) for arg in ("-H", "jernhaand")]
    assert main(["show", "standard", *many]) == 1
    assert capsys.readouterr().err == "regelmotor: 33 husregler: højst 32 (nævn hver kun én gang)\n"
    assert main(["show", "standard", *many, "--lang", "en"]) == 1
    assert capsys.readouterr().err == "regelmotor: 33 house rules: at most 32 (name each once)\n"


def test_two_house_rules_setting_the_same_rule_differently(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    _house_rule(write, "hr1", "changes:\n  deck:\n    jokers: 1\n")
    _house_rule(write, "hr2", "changes:\n  deck:\n    jokers: 2\n")
    danish, english = _validate(capsys, write("club.yaml", CLUB + "house_rules: [hr1.yaml, hr2.yaml]\n"))
    assert (
        'hr2.yaml:8:13: deck.jokers: strider mod husreglen "hr1", som sætter den til 1, mens denne sætter den til 2: '
        "brug kun den ene af dem\n"
    ) in danish
    assert (
        'hr2.yaml:8:13: deck.jokers: contradicts the house rule "hr1", which sets it to 1, while this one sets 2: '
        "apply one of them\n"
    ) in english


def test_listing_a_ruleset_file_as_a_house_rule(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    write("other.yaml", CLUB.replace("name: k", "name: other"))
    danish, english = _validate(capsys, write("club.yaml", CLUB + "house_rules: [other.yaml]\n"))
    assert 'other.yaml:1:1: kind: dette er ikke en husregel: en husregelfil har "kind: house_rule"\n' in danish
    assert 'other.yaml:1:1: kind: this is not a house rule: a house-rule file says "kind: house_rule"\n' in english


def test_a_house_rule_changing_a_designation_without_its_id(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    _house_rule(write, "hr", "changes:\n  designations:\n    - tier: 3\n")
    danish, english = _validate(capsys, write("club.yaml", CLUB + "house_rules: [hr.yaml]\n"))
    assert 'hr.yaml:8:7: designations[1]: en husregel angiver hvert punkt i designations med dets "id"\n' in danish
    assert 'hr.yaml:8:7: designations[1]: a house rule names each of its designations by "id"\n' in english


def test_naming_a_file_by_its_path_to_the_server(write: Write) -> None:
    """The server (``shipped_only``) reads no file a client names: said to whoever sent the file, in his language."""
    write("other.yaml", CLUB.replace("name: k", "name: other"))
    with pytest.raises(RulesetError) as caught:
        load_ruleset(
            find_file(write("club.yaml", "extends: ./other.yaml\nname: k\n"), house_rule=False), shipped_only=True
        )
    (problem,) = caught.value.problems
    assert problem.text("da") == (
        'club.yaml:1:10: extends: "./other.yaml": her kan kun nævnes et reglesæt eller en husregel, der følger med '
        "regelmotor, ved sit navn (serveren åbner ingen af dine egne filer)"
    )
    assert problem.text("en") == (
        'club.yaml:1:10: extends: "./other.yaml": only a ruleset or house rule that comes with regelmotor may be '
        "named here, by its name (the server opens none of your own files)"
    )


def test_naming_a_house_rule_by_its_path_to_the_server(write: Write) -> None:
    with pytest.raises(RulesetNotFound) as caught:
        load_ruleset("standard", [_house_rule(write, "hr", "changes: {}\n")], shipped_only=True)
    assert caught.value.text("da").startswith('husreglen "hr.yaml": her kan kun nævnes et reglesæt eller en husregel')
    assert str(caught.value).startswith('house rule "hr.yaml": only a ruleset or house rule that comes with')


# --- the file itself --------------------------------------------------------------------------


def test_a_control_character_in_the_file(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    """Said at the character's own line and column (PyYAML says only an offset into the text)."""
    danish, english = _validate(capsys, write("club.yaml", CLUB + "title: a\x07b\n"))
    assert (
        "club.yaml:3:9: (øverst): ugyldig YAML: filen har et usynligt kontroltegn (tegnkode 7); gem den som "
        "almindelig tekst\n"
    ) in danish
    assert english == (
        "club.yaml:3:9: (top): invalid YAML: the file holds an invisible control character (code 7); save it as "
        "plain text\n"
    )


def test_a_value_that_begins_with_an_at_sign(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", CLUB + "title: @klubben\n"))
    assert (
        "club.yaml:3:8: (øverst): ugyldig YAML: en værdi kan ikke begynde med @, ` eller %: sæt den i anførselstegn\n"
        in danish
    )
    assert "club.yaml:3:8: (top): invalid YAML: a value cannot begin with @, ` or %: quote it\n" in english


def test_a_star_without_a_name_after_it(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", CLUB + "title: * K\n"))
    assert "club.yaml:3:9: (øverst): ugyldig YAML: efter & eller * skal der stå et navn af bogstaver og tal" in danish
    assert "club.yaml:3:9: (top): invalid YAML: an & or * must be followed by a name of letters and digits" in english


def test_text_after_a_bar_on_its_line(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", CLUB + "title: |K\n"))
    assert "club.yaml:3:9: (øverst): ugyldig YAML: efter | eller > skal linjen slutte" in danish
    assert "club.yaml:3:9: (top): invalid YAML: a | or > must end its line" in english


def test_a_value_missing_between_commas(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", CLUB + "notes: [a, , b]\n"))
    assert "club.yaml:3:12: (øverst): ugyldig YAML: her mangler en værdi" in danish
    assert "club.yaml:3:12: (top): invalid YAML: a value is missing here" in english


def test_text_after_the_end_of_the_document(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", CLUB + "...\ntitle: K\n"))
    assert "club.yaml:4:1: (øverst): ugyldig YAML: der står noget efter filens slutning" in danish
    assert "club.yaml:4:1: (top): invalid YAML: something stands after the end of the file" in english


def test_removing_the_same_sol_bid_twice(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", CLUB + "remove:\n  sol_bids: [ren sol, ren sol]\n"))
    assert 'club.yaml:4:3: remove.sol_bids: "ren sol" står mere end én gang i listen\n' in danish
    assert 'club.yaml:4:3: remove.sol_bids: "ren sol" is in the list more than once\n' in english


def test_an_exact_number_that_divides_by_zero(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", CLUB + 'misdeal:\n  penalty: "1/0"\n'))
    assert 'club.yaml:4:12: misdeal.penalty: "1/0" deler med nul\n' in danish
    assert 'club.yaml:4:12: misdeal.penalty: "1/0" divides by zero\n' in english


def test_an_exact_number_written_with_more_than_40_characters(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", CLUB + f'misdeal:\n  penalty: "1/{"1" * 40}"\n'))
    assert (
        "club.yaml:4:12: misdeal.penalty: et tal skrevet med mere end 40 tegn: ingen regel har brug for det\n" in danish
    )
    assert (
        "club.yaml:4:12: misdeal.penalty: a number written with more than 40 characters: no rule needs one\n" in english
    )


# --- what the engine does not play ---------------------------------------------------------------


def test_exchanging_by_taking_the_kitty_first(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", CLUB + "exchange:\n  order: take_first\n"))
    assert (
        "club.yaml:4:10: exchange.order: motoren kan ikke spille denne regel: exchange.order: take_first (motoren "
        "bytter ved først at lægge kort fra sig og derefter tage katten op)\n"
    ) in danish
    assert (
        "club.yaml:4:10: exchange.order: rule not implemented: exchange.order: take_first (the engine exchanges by "
        "discarding first, then taking the kitty)\n"
    ) in english


def test_a_partner_card_that_cannot_be_trumped(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", CLUB + "called_card:\n  may_be_trumped: false\n"))
    assert (
        "club.yaml:4:19: called_card.may_be_trumped: motoren kan ikke spille denne regel: called_card.may_be_trumped: "
        "false (ingen regeltekst kender et makkerkort, der ikke kan trumfes)\n"
    ) in danish
    assert (
        "club.yaml:4:19: called_card.may_be_trumped: rule not implemented: called_card.may_be_trumped: false (no source "
        "asks for a called ace that cannot be trumped)\n"
    ) in english


def test_playing_a_file_with_two_rules_the_engine_does_not_play(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command that plays the rules says the first and how many more, in the reader's language."""
    path = write("club.yaml", CLUB + "exchange:\n  order: take_first\ncalled_card:\n  may_be_trumped: false\n")
    assert main(["score", path, "--contract", "8", "--tricks", "9"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("regelmotor: motoren kan ikke spille denne regel: ") and err.endswith(" (og 1 til)\n")
    assert main(["score", path, "--contract", "8", "--tricks", "9", "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("regelmotor: rule not implemented: ") and err.endswith(" (and 1 more)\n")


# --- plugins ----------------------------------------------------------------------------------


class Bonus:
    """A plugin with settings of its own, checked by its own model."""

    class Settings(BaseModel):
        model_config = ConfigDict(extra="forbid")
        bonus: int = Field(default=0, ge=0)

    def __init__(self, settings: Settings) -> None:
        self.settings = settings


class NoSettings:
    """A plugin that takes no settings."""


def test_naming_a_plugin_that_is_not_installed(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    danish, english = _validate(capsys, write("club.yaml", CLUB + "plugins: [lasses-joker]\n"))
    assert "club.yaml:3:11: plugins[1]: pluginet lasses-joker: ingen installeret pakke har dette plugin\n" in danish
    assert "club.yaml:3:11: plugins[1]: plugins: lasses-joker: no installed package registers this plugin\n" in english


def test_giving_a_plugin_settings_but_no_name(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    """The missing key is the plugin's ``name`` (not pydantic's name for the kind of entry, ``PluginUse``)."""
    danish, english = _validate(capsys, write("club.yaml", CLUB + "plugins: [{settings: {bonus: 1}}]\n"))
    assert 'club.yaml:3:11: plugins[1].name: "name" mangler: reglen skal gives' in danish
    assert "club.yaml:3:11: plugins[1]: forventede tekst, ikke nøgler med værdier\n" in danish
    assert 'club.yaml:3:11: plugins[1].name: "name" is missing' in english
    assert "club.yaml:3:11: plugins[1]: expected text, not a mapping\n" in english
    assert "PluginUse" not in danish + english and "Input should" not in english


def test_a_plugin_setting_below_the_least_it_allows(
    write: Write, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _installed(monkeypatch, "bonus", lambda: Bonus)
    danish, english = _validate(
        capsys, write("club.yaml", CLUB + "plugins:\n  - name: bonus\n    settings: {bonus: -1}\n")
    )
    assert (
        "club.yaml:5:23: plugins[1].settings.bonus: pluginet bonus: -1 er for lille: det mindste tilladte er 0\n"
        in danish
    )
    assert (
        "club.yaml:5:23: plugins[1].settings.bonus: plugins: bonus: -1 is too small: the least allowed is 0\n"
        in english
    )


def test_a_setting_the_plugin_does_not_have(
    write: Write, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _installed(monkeypatch, "bonus", lambda: Bonus)
    danish, english = _validate(
        capsys, write("club.yaml", CLUB + "plugins:\n  - name: bonus\n    settings: {bonsu: 1}\n")
    )
    assert 'club.yaml:5:23: plugins[1].settings.bonsu: pluginet bonus: ukendt nøgle "bonsu"\n' in danish
    assert 'club.yaml:5:23: plugins[1].settings.bonsu: plugins: bonus: unknown key "bonsu"\n' in english


def test_giving_settings_to_a_plugin_that_takes_none(
    write: Write, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _installed(monkeypatch, "plain", NoSettings)
    danish, english = _validate(capsys, write("club.yaml", CLUB + "plugins:\n  - name: plain\n    settings: {a: 1}\n"))
    assert "club.yaml:5:5: plugins[1].settings: pluginet plain: dette plugin har ingen indstillinger\n" in danish
    assert "club.yaml:5:5: plugins[1].settings: plugins: plain: this plugin takes no settings\n" in english


def test_a_plugin_with_settings_that_is_not_a_class(
    write: Write, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _installed(monkeypatch, "bonus", lambda: Bonus(Bonus.Settings()))
    danish, english = _validate(capsys, write("club.yaml", CLUB + "plugins: [bonus]\n"))
    assert (
        "club.yaml:3:11: plugins[1]: pluginet bonus: et plugin med indstillinger skal være en klasse (dets entry point "
        "peger på et modul eller en instans)\n"
    ) in danish
    assert (
        "club.yaml:3:11: plugins[1]: plugins: bonus: a plugin with settings must be a class (its entry point names a "
        "module or an instance)\n"
    ) in english


def test_a_plugin_that_cannot_be_loaded(
    write: Write, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The package's own words stay as they are: they are for whoever installed it."""

    def broken() -> object:
        raise ImportError("No module named 'lasse'")

    _installed(monkeypatch, "broken", broken)
    danish, english = _validate(capsys, write("club.yaml", CLUB + "plugins: [broken]\n"))
    assert (
        "club.yaml:3:11: plugins[1]: pluginet broken: pluginet kan ikke indlæses (ImportError: No module named 'lasse')\n"
    ) in danish
    assert (
        "club.yaml:3:11: plugins[1]: plugins: broken: the plugin cannot be loaded (ImportError: No module named 'lasse')\n"
    ) in english


class EveryoneWins:
    """A plugin whose scoring gives the declarer's side its points when it makes and takes nothing from anyone."""

    @hookimpl(tryfirst=True)
    def regelmotor_scorer(self, ruleset: Ruleset) -> Scorer:
        data = ruleset.model_dump(by_alias=True, mode="json", exclude_none=True)
        data["scoring"]["trump"] = {"made": "base", "failed": "-2 * base * B * D"}
        return scorer_for(Ruleset.model_validate(data))


def test_a_plugins_scoring_that_does_not_sum_to_zero(
    write: Write, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _installed(monkeypatch, "everyone-wins", EveryoneWins)
    danish, english = _validate(capsys, write("club.yaml", CLUB + "plugins: [everyone-wins]\n"))
    assert ": scoring.trump: pointene summer ikke til nul: " in danish
    assert danish.rstrip().endswith("(med pluginernes pointregler)")
    assert ": scoring.trump: the scores do not sum to zero: " in english
    assert english.rstrip().endswith("(with the plugins' scoring)")


class SaysItsOwn:
    """A plugin whose check says its problem from the phrase table, as the shipped families' checks do."""

    @hookimpl
    def regelmotor_check(self, ruleset: Ruleset) -> Sequence[tuple[tuple[str | int, ...], object]]:
        return [(("title",), RegelmotorError.said("empty_text"))]


def test_a_plugins_check_said_from_the_phrase_table(
    write: Write, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _installed(monkeypatch, "own", SaysItsOwn)
    danish, english = _validate(capsys, write("club.yaml", CLUB + "plugins: [own]\n"))
    assert danish.endswith(": title: må ikke være tom\n")
    assert english.endswith(": title: must not be empty\n")


def test_a_setting_that_must_be_above_a_bound_says_so() -> None:
    """A plugin's setting with ``gt=0`` given 0 is not told that 0 is the least allowed: it must be above 0."""
    from pydantic import BaseModel, Field, ValidationError

    from regelmotor.errors import Location, Problem
    from regelmotor.ruleset.schema_check import model_problem

    class Settings(BaseModel):
        bonus: int = Field(gt=0)

    with pytest.raises(ValidationError) as caught:
        Settings(bonus=0)
    problem: Problem = model_problem(
        Location("klub.yaml", 3, 5), ("plugins", 0, "settings", "bonus"), caught.value.errors()[0]
    )
    assert problem.text("da").endswith("0 er for lille: tallet skal være over 0")
    assert problem.text("en").endswith("0 is too small: it must be above 0")
