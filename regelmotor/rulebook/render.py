"""Render a rule book as Markdown, HTML (one set of Jinja2 templates) or PDF (fpdf2, pure Python).

The PDF embeds DejaVu Sans (shipped in ``fonts/`` under its own licence), so ♠♥♦♣ and æøå print
on any machine. HTML is autoescaped and carries a print stylesheet for A4.
"""

from __future__ import annotations

from pathlib import Path

import jinja2
from fpdf import FPDF

from regelmotor.rulebook.model import RuleBook, Table

FORMATS = ("md", "html", "pdf")
_HERE = Path(__file__).resolve().parent
_TEMPLATES = _HERE / "templates"
_FONTS = _HERE / "fonts"


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
    )


def render_markdown(book: RuleBook) -> str:
    return _environment().get_template("rulebook.md.j2").render(book=book)


def render_html(book: RuleBook) -> str:
    css = (_TEMPLATES / "print.css").read_text(encoding="utf-8")
    return _environment().get_template("rulebook.html.j2").render(book=book, css=css)


def render_pdf(book: RuleBook) -> bytes:
    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_margins(12, 11, 12)
    pdf.set_auto_page_break(True, margin=11)
    pdf.add_font("DejaVu", "", str(_FONTS / "DejaVuSans.ttf"))
    pdf.add_font("DejaVu", "B", str(_FONTS / "DejaVuSans-Bold.ttf"))
    pdf.set_title(f"{book.title}: {book.subtitle}")
    pdf.set_creator("regelmotor")
    pdf.set_lang(book.lang)
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 14)
    pdf.multi_cell(0, 6, book.title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 7.5)
    pdf.multi_cell(0, 3.5, book.subtitle, new_x="LMARGIN", new_y="NEXT")
    for index, section in enumerate(book.sections):
        pdf.ln(1.2)
        pdf.set_font("DejaVu", "B", 9)
        pdf.multi_cell(0, 4.2, section.title, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("DejaVu", "", 7.2)
        for item in section.items:
            pdf.multi_cell(0, 3.2, "• " + item.text + (" *" if item.inferred else ""), new_x="LMARGIN", new_y="NEXT")
        for table in section.tables:
            _pdf_table(pdf, table)
        if index == len(book.sections) - 1 and book.inferred_rules:
            pdf.set_font("DejaVu", "", 6)
            pdf.multi_cell(0, 2.7, book.inferred_legend, new_x="LMARGIN", new_y="NEXT")
            for rule, source in book.inferred_rules:
                pdf.multi_cell(0, 2.7, f"{rule}: {source}", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _pdf_table(pdf: FPDF, table: Table) -> None:
    pdf.ln(0.8)
    pdf.set_font("DejaVu", "B", 6.5)
    pdf.multi_cell(0, 3, table.caption, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 5.8)
    first = 22 if any(len(row[0]) > 6 for row in table.rows) else 12
    width = min(pdf.epw, first + 11.5 * (len(table.header) - 1))
    widths = (first, *([(width - first) / (len(table.header) - 1)] * (len(table.header) - 1)))
    with pdf.table(
        width=width,
        col_widths=widths,
        text_align="RIGHT",
        line_height=2.6,
        align="LEFT",
        first_row_as_headings=True,
        padding=0.3,
    ) as grid:
        for row in (table.header, *table.rows):
            cells = grid.row()
            for cell in row:
                cells.cell(cell)


def render(book: RuleBook, fmt: str) -> str | bytes:
    if fmt == "md":
        return render_markdown(book)
    if fmt == "html":
        return render_html(book)
    if fmt == "pdf":
        return render_pdf(book)
    raise ValueError(f"the rule book is rendered as {', '.join(FORMATS)}, not {fmt!r}")


__all__ = ["FORMATS", "render", "render_html", "render_markdown", "render_pdf"]
