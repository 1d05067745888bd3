"""Issue 74's "Done when", in Debian's Chromium at 360×740 and 1280×800: the club's page opened by the admin link,
a house rule switched, the sol price changed, a bad value shown at its field and mended, the book and the
differences following the draft, "Hvad ændrer det?" asked with its progress and summary, the save, the change
found in the history and undone; and a save from a plain link refused. Screenshots under ``REGELMOTOR_SHOTS``
(else the test's tmp folder)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from regelmotor.web import create_app

from .test_club_page import CLUB_FILE, SECRET
from .test_web import _chromium, browser, needs_chromium, serving  # noqa: F401 (fixtures)

VIEWPORTS = [(360, 740), (1280, 800)]


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("REGELMOTOR_SHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    monkeypatch.setattr("regelmotor.web.upload.ISOLATED", False)  # the checks in the server's process: quicker
    monkeypatch.setattr("regelmotor.web.club_questions.QUESTION_NICENESS", 5)  # not idle beside a run's workers
    club = tmp_path / "klub.yaml"
    club.write_text(CLUB_FILE, encoding="utf-8")
    with serving(create_app(club=(str(club), []), club_admin=SECRET)) as port:
        yield f"http://127.0.0.1:{port}", club


def _changed(page: Any, action: Any) -> None:
    """Do ``action`` and wait for the page to have answered it (its ``data-version`` moves on)."""
    version = page.get_attribute("body", "data-version")
    action()
    page.wait_for_function(f"() => document.body.dataset.version !== {version!r} && !club.checking", timeout=30_000)


def _field(page: Any, key: str) -> Any:
    return page.locator(f".field[data-key='{key}']")


@needs_chromium
@pytest.mark.parametrize("size", VIEWPORTS, ids=["phone-360", "desktop-1280"])
def test_a_club_writes_saves_and_undoes_its_rules_in_the_browser(
    server: tuple[str, Path],
    browser: Any,  # noqa: F811 (the fixture)
    tmp_path: Path,
    size: tuple[int, int],
) -> None:
    url, club = server
    folder = shots(tmp_path)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, accept_downloads=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/klub?admin={SECRET}")
    page.wait_for_function("() => club.form !== null && !club.checking")
    assert page.url == f"{url}/klub"  # the secret is taken out of the address bar
    assert page.inner_text("#who").startswith("Du kan gemme")
    assert page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth") <= 0
    page.screenshot(path=str(folder / f"klub-{size[0]}-open.png"))

    # a house rule as a switch
    _changed(page, lambda: page.check("#house-list input[data-house='jernhaand']"))
    assert "house_rules: [jernhaand]" in page.input_value("#yaml")

    # the sol price in its point table
    page.locator("details[data-group='scoring'] summary").click()
    sol = _field(page, '["scoring","tables","S","values"]').locator("input[data-entry='sol']")
    _changed(page, lambda: (sol.fill("75"), sol.press("Tab")))
    assert "values: {sol: 75, ren sol: 100, bordlægger: 150, ren bordlægger: 200}" in page.input_value("#yaml")

    # a bad value, shown at its field in validate's words, and its fix
    page.locator("details[data-group='contracts'] summary").click()
    lowest = _field(page, '["bids","min_tricks"]').locator("input")
    _changed(page, lambda: (lowest.fill("14"), lowest.press("Tab")))
    problem = _field(page, '["bids","min_tricks"]').locator(".problem")
    assert problem.inner_text() == "14 er for stor: det største tilladte er 13"
    assert page.inner_text("#state") == "Udkastet har 1 fejl" and page.is_disabled("#save")
    lowest.scroll_into_view_if_needed()
    page.screenshot(path=str(folder / f"klub-{size[0]}-problem.png"))
    _changed(page, lambda: (lowest.fill("7"), lowest.press("Tab")))
    assert problem.inner_text() == "" and page.inner_text("#state") == "Udkastet er i orden og ikke gemt"

    # the book and the differences of the draft
    _changed(page, lambda: page.click("#tab-book"))
    book = page.evaluate("() => document.getElementById('book').srcdoc")
    assert "Vores klub" in book and "225" in book and "Jernhånd" in book
    page.screenshot(path=str(folder / f"klub-{size[0]}-book.png"))
    _changed(page, lambda: page.click("#tab-diff"))
    differences = page.inner_text("#diff")
    assert "Pointtabellen S" in differences and "sol: 75" in differences
    page.screenshot(path=str(folder / f"klub-{size[0]}-diff.png"), full_page=size[0] > 1000)

    # "Hvad ændrer det?", with progress and the summary
    page.click("#tab-questions")
    page.select_option("#q-against", "saved")
    page.select_option("#q-bots", "heuristic")
    page.fill("#q-deals", "3")
    page.click("#ask")
    page.wait_for_selector("#summary", timeout=60_000)
    assert page.inner_text("#q-state") == "Svaret:" and page.inner_text("#summary")
    assert page.locator("#answer img").count() == 1
    page.screenshot(path=str(folder / f"klub-{size[0]}-question.png"), full_page=True)

    # saved through the admin link; the change in the history, and undone
    page.click("#tab-rules")
    _changed(page, lambda: page.click("#save"))
    assert page.inner_text("#state") == "Gemt som udgave 2"
    assert "sol: 75" in club.read_text(encoding="utf-8") and "# det vigtigste" in club.read_text(encoding="utf-8")
    _changed(page, lambda: page.click("#tab-history"))
    history = page.inner_text("#versions")
    assert "Pointtabellen S, sol: 75 i stedet for 50" in history and "husreglen jernhaand er tilføjet" in history
    page.screenshot(path=str(folder / f"klub-{size[0]}-history.png"))
    _changed(page, lambda: page.click("#undo"))
    page.wait_for_function("() => document.querySelector('#versions li').textContent.includes('fortrudt')")
    assert club.read_text(encoding="utf-8") == CLUB_FILE
    assert page.input_value("#yaml") == CLUB_FILE
    assert errors == []

    # a plain link reads and tries, and its save is refused
    plain = context.new_page()
    plain.goto(f"{url}/klub")
    plain.wait_for_function("() => club.form !== null && !club.checking")
    assert plain.is_hidden("#save") and plain.inner_text("#who").startswith("Du kan læse")
    refused = plain.evaluate(
        """async () => { const r = await fetch('/api/club', {method: 'PUT', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({yaml: club.yaml, fingerprint: club.fingerprint})}); return [r.status, (await r.json()).error]; }"""
    )
    assert refused[0] == 403 and refused[1].startswith("kun klubbens administratorlink")
    context.close()
