"""Rule books generated from the rulesets: every format, the same rules as the engine, and nothing else."""

from __future__ import annotations

import dataclasses
import difflib
import io
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from pypdf import PdfReader

from regelmotor.cli import base as cli_base
from regelmotor.cli import commands as cli
from regelmotor.rulebook import build_rulebook, render
from regelmotor.ruleset.compile import Rules, compile_rules
from regelmotor.ruleset.load import ResolvedRuleset, load_ruleset

from .conftest import CONFIGS, REPO, RULESETS


@cache
def resolved(name: str, *house: str) -> ResolvedRuleset:
    return load_ruleset(name, list(house))


def book_md(r: ResolvedRuleset, lang: str = "da") -> str:
    text = render(build_rulebook(r, compile_rules(r), lang), "md")
    assert isinstance(text, str)
    return text


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    diff = list(difflib.ndiff(before.splitlines(), after.splitlines()))
    return [d[2:] for d in diff if d.startswith("- ")], [d[2:] for d in diff if d.startswith("+ ")]


FIRST_WITH_HOUSE_RULE = {next((n, h) for n, h in CONFIGS if h == house) for _, house in CONFIGS if house}
"""Each house rule with the first ruleset it applies to: its PDF is laid out once (a PDF takes a second)."""


@pytest.mark.parametrize(("name", "house"), CONFIGS, ids=[f"{n}+{h}" if h else n for n, h in CONFIGS])
def test_every_ruleset_and_house_rule_renders_in_every_format(name: str, house: str | None) -> None:
    r = resolved(name, *([house] if house else []))
    rules = compile_rules(r)
    for lang in ("da", "en"):
        book = build_rulebook(r, rules, lang)
        md, html = render(book, "md"), render(book, "html")
        assert isinstance(md, str) and md.startswith("# ") and "| 7 |" in md
        assert isinstance(html, str) and html.startswith("<!DOCTYPE html>") and "</html>" in html
        if (lang == "da" and (name, house) in FIRST_WITH_HOUSE_RULE) or not house:
            # the PDF is laid out from the same book: each ruleset in both languages, each house rule once
            pdf = render(book, "pdf")
            assert isinstance(pdf, bytes) and pdf.startswith(b"%PDF")
    if house:
        title = next(i.title for i in r.house_rule_info if i.name == house)
        assert title in book_md(r)


def test_a_point_in_the_table_changes_exactly_the_matching_cells() -> None:
    base = resolved("standard")
    tables = dict(base.ruleset.scoring.tables)
    tables["base"] = tables["base"].model_copy(update={"values": {**tables["base"].values, "8": Fraction(25)}})
    changed = base.ruleset.model_copy(update={"scoring": base.ruleset.scoring.model_copy(update={"tables": tables})})
    removed, added = changed_lines(
        book_md(base), book_md(ResolvedRuleset(changed, base.files, (), base.values, base.keys))
    )
    assert [line.split(" | ")[0] for line in removed] == ["| 8", "| 8"]  # the row for 8 in both trump tables
    assert added[0].startswith("| 8 | -50 | -50 |")  # failed: -2 * 25
    assert added[1].startswith("| 8 | -100 |")  # the designations double it
    assert len(added) == 2


def test_swapping_two_designations_changes_exactly_the_ladder_text() -> None:
    base = resolved("standard")
    designations = list(base.ruleset.designations)
    gode, sans = designations[2], designations[3]
    designations[2], designations[3] = sans.model_copy(update={"tier": 2}), gode.model_copy(update={"tier": 3})
    changed = base.ruleset.model_copy(update={"designations": tuple(designations)})
    removed, added = changed_lines(
        book_md(base), book_md(ResolvedRuleset(changed, base.files, (), base.values, base.keys))
    )
    expected = [
        "- På samme antal stik gælder: almindelige < vip < sans < gode < halve.",
        "- Hele rækkefølgen fra lavest til højest: 7 < 7 vip < 7 sans < 7 gode < 7 halve < 8",
        "| Stik | almindelige | vip | sans | gode | halve |",
        "- Sans: der spilles uden trumf;",  # the same sentence, moved with its designation
        "**Point for vip, sans, gode, halve**",
    ]
    assert len(added) == len(expected) == len(removed)
    assert all(line.startswith(prefix) for line, prefix in zip(added, expected, strict=True)), added


def test_joker_trumpable_changes_exactly_the_joker_sentence_and_names_the_house_rule() -> None:
    removed, added = changed_lines(book_md(resolved("standard")), book_md(resolved("standard", "joker-trumpable")))
    assert [line for line in removed if "joker" in line.lower()] == [
        line for line in removed if "En udspillet joker vinder stikket, også hvis en anden joker følger." in line
    ]
    assert any("En udspillet joker taber til den højeste trumf i stikket" in line for line in added)
    assert "- Jokeren kan stikkes." in added  # the house rule by its title; its rule is the joker sentence
    assert len(removed) == 3 and len(added) == 3  # the subtitle, the joker rules, the house rules section


@cache
def cached_load(name: str, house: tuple[str, ...]) -> ResolvedRuleset:
    return load_ruleset(name, list(house))


_COMPILED: dict[int, tuple[ResolvedRuleset, Rules]] = {}


def cached_compile(resolved: ResolvedRuleset) -> Rules:
    """The rules compiled once per loaded ruleset (``cached_load`` gives the same object): a cell's
    ``regelmotor score`` then costs its own work, not a compilation of the plugins."""
    found = _COMPILED.get(id(resolved))
    if found is None or found[0] is not resolved:
        found = _COMPILED[id(resolved)] = (resolved, compile_rules(resolved))
    return found[1]


@pytest.mark.parametrize("name", RULESETS)
def test_the_point_tables_equal_regelmotor_score_in_every_cell(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_base, "load_ruleset", lambda ref, house=(): cached_load(ref, tuple(house)))
    monkeypatch.setattr(cli_base, "compile_rules", cached_compile)
    r = resolved(name)
    rules = compile_rules(r)
    book = build_rulebook(r, rules, "en")
    scoring = next(s for s in book.sections if s.title == "Scoring")
    by_name = {d.display or "plain": d.id for d in r.ruleset.designations}
    named = {s.display: s.id for s in r.ruleset.named_bids()}
    checked = 0
    for table in scoring.tables:
        if table.header[0] == "Winners":  # pasnolo: each for himself, by how many share the fewest tricks
            contract = next(n for display, n in named.items() if display in table.caption)
            for row in table.rows:
                split = {"1": "1,4,4,4", "2": "2,2,4,5", "3": "3,3,3,4"}[row[0]]
                out = io.StringIO()
                assert cli.main(["score", name, "--contract", contract, "--tricks", split, "--json"], out) == 0
                got = json.loads(out.getvalue())["points"]
                assert (got[0], got[-1]) == (float(row[1]), float(row[2])), (contract, split)
                checked += 1
            continue
        header = table.header[1:]
        for row in table.rows:
            for tricks, cell in zip(header, row[1:], strict=True):
                if row[0] in named:  # a sol bid, a bid of dansk whist, engelsk whist's one game
                    contracts = [named[row[0]]]
                else:
                    names = table.caption.removeprefix("Points for ").split(", ")
                    contracts = [
                        f"{row[0]} {by_name[n]}" if by_name[n] != r.ruleset.designations[0].id else row[0]
                        for n in names
                    ]
                for contract in contracts:
                    out = io.StringIO()
                    assert cli.main(["score", name, "--contract", contract, "--tricks", tricks, "--json"], out) == 0
                    assert json.loads(out.getvalue())["declarer"] == float(cell), (contract, tricks)
                    checked += 1
    assert checked >= max(14 * 7 * len(r.ruleset.designations), 7)


def test_the_pdf_holds_the_ladder_and_the_suit_symbols_in_readable_type() -> None:
    """The rule book issue: text extraction finds the ladder and the ♠♥♦♣ symbols on A4. Issue 23: "two
    dense A4 pages, body 9.5 pt and tables 7.5 pt": the body is set in 11 pt and nothing below 8 pt (the
    tables 9, the page numbers 8), on at most three pages."""
    r = resolved("standard")
    pdf = render(build_rulebook(r, compile_rules(r), "da"), "pdf")
    assert isinstance(pdf, bytes)
    reader = PdfReader(io.BytesIO(pdf))
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)
    assert len(reader.pages) <= 3
    sizes = [
        float(size)
        for page in reader.pages
        for size in re.findall(rb"/F\d+ ([\d.]+) Tf", page.get_contents().get_data())  # type: ignore[union-attr]
    ]
    assert min(sizes) >= 8 and 11.0 in sizes and 9.0 in sizes
    assert "7 < 7 vip < 7 gode < 7 sans < 7 halve < 8" in text
    assert all(symbol in text for symbol in "♠♥♦♣") and "æ" in text
    width, height = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    assert (round(width), round(height)) == (595, 842)  # A4 in points


def test_the_pdf_on_a5_keeps_its_type_and_splits_wide_tables() -> None:
    """Issue 23: "readable type (body at least 11 pt, tables 9 pt) on A4 and A5". On A5 the type is the
    same; a point table too wide for the page is set in parts, each with the bids again, and every number of
    it is on the page."""
    r = resolved("thorsen")
    book = build_rulebook(r, compile_rules(r), "da")
    reader = PdfReader(io.BytesIO(render(book, "pdf", "a5")))  # type: ignore[arg-type]
    width, height = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    assert (round(width), round(height)) == (420, 595)  # A5 in points
    sizes = [
        float(size)
        for page in reader.pages
        for size in re.findall(rb"/F\d+ ([\d.]+) Tf", page.get_contents().get_data())  # type: ignore[union-attr]
    ]
    assert min(sizes) >= 8 and 11.0 in sizes and 9.0 in sizes
    words = " ".join(page.extract_text() or "" for page in reader.pages).split()
    table = next(t for s in book.sections for t in s.tables if t.caption.startswith("Point for almindelige"))
    numbers = [cell for row in table.rows for cell in row[1:]]
    assert all(number in words for number in numbers)
    assert words.count(table.header[0].split()[0]) >= 3  # the bids' column heads each part
    with pytest.raises(ValueError, match="a4, a5"):
        render(book, "pdf", "letter")


def test_html_is_escaped(club: Callable[..., str]) -> None:
    club(
        "club.yaml",
        "kind: ruleset\nextends: standard\nname: club\ntitle: K\ndescription: K\nsource: K\n"
        "notes:\n  - text: '<script>alert(1)</script> & co'\n    source: vedtægter\n",
    )
    r = load_ruleset("club.yaml")
    html = render(build_rulebook(r, compile_rules(r), "da"), "html")
    assert isinstance(html, str)
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in html


def test_inferred_rules_are_marked_and_the_sources_named() -> None:
    md = book_md(resolved("thorsen"))
    assert "- Hvis alle pas, giver den næste spiller i tur." not in md  # Danish, not English
    assert any(line.endswith(" *") for line in md.splitlines())
    assert "Regler mærket * er udledt" in md
    assert "Thorsens love (Love for esmakkerwhist af Thomas Thorsen)" in md
    # the rule in words, the source by its title (issue 23: not "000")
    assert "- Meldinger: Meldeforløbet: udledt: Thorsens love 3.2" in md
    assert "designations[" not in md and "_5ff45d385a286ea5" not in md and "inferred" not in md


def test_the_rulebook_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "regler.pdf"
    assert cli.main(["rulebook", "gruppe2", "--format", "pdf", "-o", str(target)]) == 0
    assert target.read_bytes().startswith(b"%PDF")
    assert cli.main(["rulebook", "standard", "--lang", "en"]) == 0
    assert capsys.readouterr().out.startswith("# Es-makker whist (standard)\n\n_Rules of es-makker whist.")


def test_sol_may_take_at_most_one_trick_in_the_sources_words() -> None:
    """001 "Solmeldinger: sol, ren sol og bordlægger": "I sol må melderen højst tage ét stik, i ren sol slet
    ingen". The book wrote the number as a digit, and in English put "trick" in the plural after it."""
    danish, english = book_md(resolved("standard")), book_md(resolved("standard"), "en")
    assert "- Sol: melderen spiller alene mod tre uden trumf og må højst tage ét stik." in danish
    assert "- Ren sol: melderen spiller alene mod tre uden trumf og må ikke tage noget stik." in danish
    assert "- Sol: the bidder plays alone against three without trump and may take at most one trick." in english
    assert "1 stik" not in danish and "1 tricks" not in english


@pytest.mark.parametrize("name", RULESETS)
def test_the_generated_rule_books_in_docs_are_up_to_date(name: str) -> None:
    committed = (REPO / "docs" / "rulebooks" / f"{name}.md").read_text(encoding="utf-8")
    assert committed == book_md(resolved(name)), (
        f"docs/rulebooks/{name}.md is out of date: regelmotor rulebook {name} -o docs/rulebooks/{name}.md"
    )


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.skipif(CHROMIUM is None, reason="no headless Chromium on this machine (apt install chromium)")
def test_the_html_renders_in_a_real_headless_browser(tmp_path: Path) -> None:
    r = resolved("standard")
    page = tmp_path / "regler.html"
    html = render(build_rulebook(r, compile_rules(r), "da"), "html")
    assert isinstance(html, str)
    page.write_text(html, encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             f"--user-data-dir={tmp_path / 'profile'}"]  # fmt: skip
    assert CHROMIUM is not None
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert "7 &lt; 7 vip &lt; 7 gode" in dom.stdout or "7 < 7 vip < 7 gode" in dom.stdout
    shot = tmp_path / "regler.png"
    subprocess.run(
        [CHROMIUM, *flags, f"--screenshot={shot}", "--window-size=794,1123", page.as_uri()], timeout=120, check=True
    )
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def test_the_english_book_names_house_rules_in_english_and_the_danish_book_cites_numbers() -> None:
    """The trust issue: "English books contain Danish house-rule descriptions"; Danish books cite hashed file
    names and say "inferred"."""
    resolved = load_ruleset("gruppe2")
    english = render(build_rulebook(resolved, compile_rules(resolved), "en"), "md")
    assert isinstance(english, str)
    assert "- Doubling." in english and "before the first lead, the opponents may double once" in english
    assert "Modparten kan doble" not in english
    danish = render(build_rulebook(resolved, compile_rules(resolved), "da"), "md")
    assert isinstance(danish, str) and "_7bef287eedffe464" not in danish and "inferred" not in danish


def test_the_html_book_prints_hearts_and_diamonds_red_as_the_pdf_does() -> None:
    """The rule book issue left ♥♦ black in HTML: they are red spans now, and nothing else is unescaped."""
    r = resolved("standard")
    html = render(build_rulebook(r, compile_rules(r), "da"), "html")
    assert isinstance(html, str)
    assert '<span class="red">♥</span>' in html and '<span class="red">♦</span>' in html
    assert "♥" not in re.sub(r'<span class="red">[♥♦]</span>', "", html).split("<body>")[1]
    assert ".red {" in html


EXAMPLE_BOOKS = {
    "smaa-klub": (["20 pr. aften"], ["ren bordlægger", "| halve"]),
    "egne-regler": (
        [
            'er en melder overmeldt, kan han tage buddet selv på samme højde ("det kan jeg selv")',
            "makkerkortet skal spilles, hver gang dets farve spilles ud",
            "skal han kalde en konge i stedet",
        ],
        ["er forhånden overmeldt", "første gang, dets farve spilles ud", "må han kalde en konge"],
    ),
    "bankeklub": (
        [
            'der må også dobles ("bankes") under de 3 første stik',
            "hvert spils point rundes op til hele point",
            "for hvert stik, han har færre end en anden, får han point af ham",
            "| 1-3-4-5 | 45, 5, -15, -35 |",
        ],
        ["decimaler", "| vindere |"],
    ),
}


@pytest.mark.parametrize("name", sorted(EXAMPLE_BOOKS))
def test_the_example_clubs_rule_books_in_docs_are_up_to_date(name: str) -> None:
    """docs/examples/smaa-klub.yaml removes what it inherits and overrides a house rule it lists; its
    book in docs/rulebooks shows both (no halve, no ren bordlægger, 20 pr. aften). egne-regler.yaml turns on
    three rules real clubs play; its book says each, and not the rule it replaces; so does bankeklub.yaml
    (banke in the first three tricks, whole points rounded up, all pass settled by the difference in tricks)."""
    committed = (REPO / "docs" / "rulebooks" / f"{name}.md").read_text(encoding="utf-8")
    book = book_md(load_ruleset(str(REPO / "docs" / "examples" / f"{name}.yaml")))
    assert committed == book, f"docs/rulebooks/{name}.md is out of date: regelmotor rulebook docs/examples/{name}.yaml"
    said, not_said = EXAMPLE_BOOKS[name]
    assert all(text in book.lower() for text in said), said
    assert not any(text in book.lower() for text in not_said), not_said


def test_a_heading_that_wraps_in_the_pdf_keeps_its_words_together() -> None:
    """A club's long title (or a sheet's, "Score sheet: Thorsens love for esmakkerwhist") wraps onto a second
    line; the headings are set ragged right, not justified with its words spread across the first."""
    r = resolved("thorsen")
    book = build_rulebook(r, compile_rules(r), "da")
    long = dataclasses.replace(book, title="Regler for Sønderborg Whistklubs onsdagsaften i vinterhalvåret 2026")
    reader = PdfReader(io.BytesIO(render(long, "pdf")))  # type: ignore[arg-type]
    first = reader.pages[0].get_contents().get_data()  # type: ignore[union-attr]
    assert "vinterhalvåret" in (reader.pages[0].extract_text() or "")
    arrays = re.findall(rb"\[(.*?)\] TJ", first, re.DOTALL)  # fpdf2 spreads a justified line's words by offsets
    spreads = [offset for array in arrays for offset in re.findall(rb"\) (-?[\d.]+)\(", array) if float(offset) < -100]
    assert not spreads, "a heading is justified, its words spread across the line"
