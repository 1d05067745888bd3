"""Render a rule book as Markdown, HTML (one set of Jinja2 templates) or PDF (``rulebook.pdf``).

HTML is autoescaped and carries a print stylesheet for A4. The PDF's module (fpdf2) is imported only
when a PDF is made: it is a third of the command line's start-up time, and most commands print none.
"""

from __future__ import annotations

from pathlib import Path

import jinja2
import markupsafe

from regelmotor.rulebook.model import PAPERS, RED_SUITS, RuleBook

FORMATS = ("md", "html", "pdf")
_HERE = Path(__file__).resolve().parent
_TEMPLATES = _HERE / "templates"


def _red_suits(text: object) -> markupsafe.Markup:
    """Text for HTML with hearts and diamonds red, as on the cards (the rest escaped)."""
    return markupsafe.Markup(RED_SUITS.sub(r'<span class="red">\1</span>', str(markupsafe.escape(text))))


def _environment() -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )
    environment.filters["suits"] = _red_suits
    return environment


def render_markdown(book: RuleBook) -> str:
    return _environment().get_template("rulebook.md.j2").render(book=book)


def render_html(book: RuleBook) -> str:
    css = (_TEMPLATES / "print.css").read_text(encoding="utf-8")
    # the stylesheet is the package's own file, not text to escape ("DejaVu Sans" must stay quoted)
    return _environment().get_template("rulebook.html.j2").render(book=book, css=css)


def render(book: RuleBook, fmt: str, paper: str = "a4") -> str | bytes:
    if fmt == "md":
        return render_markdown(book)
    if fmt == "html":
        return render_html(book)
    if fmt == "pdf":
        from regelmotor.rulebook.pdf import render_pdf

        return render_pdf(book, paper)
    raise ValueError(f"the rule book is rendered as {', '.join(FORMATS)}, not {fmt!r}")


__all__ = ["FORMATS", "PAPERS", "render", "render_html", "render_markdown"]
