"""A rule book as a PDF (fpdf2, pure Python), on A4 or A5.

It embeds DejaVu Sans (shipped in ``fonts/`` under its own licence), so ♠♥♦♣ and æøå print on any
machine. Imported only when a PDF is made (``render.render``).
"""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF

from regelmotor.rulebook.model import PAPERS, RED_SUITS, RuleBook, Table

_FONTS = Path(__file__).resolve().parent / "fonts"

TABLE_TYPE = 9.0
"""Points for the tables, the notes and the list of inferred rules (the body is ``RuleBook.type_size``)."""
RED = (178, 34, 34)
"""Hearts and diamonds print red, as on the cards."""
PAGE = {"da": "Side {n} af {total}", "en": "Page {n} of {total}"}


class _Book(FPDF):
    """A page (A4 or A5) with a page number at its foot."""

    lang = "da"

    def footer(self) -> None:
        self.set_y(-8)
        self.set_font("DejaVu", "", 8)
        self.set_text_color(90, 90, 90)
        self.cell(0, 3, PAGE.get(self.lang, PAGE["en"]).format(n=self.page_no(), total="{nb}"), align="C")
        self.set_text_color(0, 0, 0)


def _paragraph(pdf: FPDF, text: str, height: float) -> None:
    """A paragraph whose ♥ and ♦ print red; words wrap whole."""
    pdf.set_x(pdf.l_margin)
    for part in RED_SUITS.split(text):
        if not part:
            continue
        if part in ("♥", "♦"):
            pdf.set_text_color(*RED)
            pdf.write(height, part)
            pdf.set_text_color(0, 0, 0)
        else:
            pdf.write(height, part)
    pdf.ln(height)


PAPER_SIZES = {"a4": (210.0, 297.0), "a5": (148.0, 210.0)}
"""The papers (``model.PAPERS``) in mm."""


def render_pdf(book: RuleBook, paper: str = "a4") -> bytes:
    if paper not in PAPERS:
        raise ValueError(f"the rule book is printed on {', '.join(PAPERS)}, not {paper!r}")
    pdf = _Book(orientation="P", unit="mm", format=PAPER_SIZES[paper])
    pdf.lang = book.lang
    pdf.alias_nb_pages()
    pdf.set_margins(12, 11, 12)
    pdf.set_auto_page_break(True, margin=11)
    pdf.add_font("DejaVu", "", str(_FONTS / "DejaVuSans.ttf"))
    pdf.add_font("DejaVu", "B", str(_FONTS / "DejaVuSans-Bold.ttf"))
    pdf.set_title(f"{book.title}: {book.subtitle}")
    pdf.set_creator("regelmotor")
    pdf.set_lang(book.lang)
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 20)  # headings ragged right: fpdf2 justifies a wrapped cell by default
    pdf.multi_cell(0, 9, book.title, new_x="LMARGIN", new_y="NEXT", align="L")
    body = book.type_size
    line = body * 0.445  # mm per line of body type
    pdf.set_font("DejaVu", "", body + 0.3)
    pdf.multi_cell(0, line + 0.3, book.subtitle, new_x="LMARGIN", new_y="NEXT", align="L")
    for index, section in enumerate(book.sections):
        pdf.ln(1.2)
        if pdf.will_page_break(18):  # a heading never stands alone at the foot of a page
            pdf.add_page()
        pdf.set_font("DejaVu", "B", body + 1.8)
        pdf.multi_cell(0, line + 1, section.title, new_x="LMARGIN", new_y="NEXT", align="L")
        pdf.set_font("DejaVu", "", body)
        for item in section.items:
            _paragraph(pdf, "• " + item.text + (" *" if item.inferred else ""), line)
        for table in section.tables:
            _pdf_table(pdf, table)
        if index == len(book.sections) - 1 and book.inferred_rules:
            pdf.ln(1.5)
            pdf.set_font("DejaVu", "", TABLE_TYPE)
            small = TABLE_TYPE * 0.445
            pdf.multi_cell(0, small, book.inferred_legend, new_x="LMARGIN", new_y="NEXT")
            for rule, source in book.inferred_rules:
                pdf.multi_cell(0, small, f"{rule}: {source}", new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _pdf_wide_table(pdf: FPDF, table: Table) -> None:
    """A table across the page in reading type: each column as wide as its longest text where the page
    allows, the rest of the width shared in proportion, so that a deal's line does not wrap."""
    pdf.ln(1.5)
    pdf.set_font("DejaVu", "B", 10)
    pdf.multi_cell(0, 5, table.caption, new_x="LMARGIN", new_y="NEXT", align="L")
    pdf.set_font("DejaVu", "B", 9)
    natural = [pdf.get_string_width(str(head)) + 4 for head in table.header]
    pdf.set_font("DejaVu", "", 9)
    for row in table.rows:
        natural = [max(n, pdf.get_string_width(str(cell)) + 4) for n, cell in zip(natural, row, strict=True)]
    scale = pdf.epw / sum(natural)
    aligned = ("RIGHT", "LEFT", "LEFT", *("RIGHT",) * (len(natural) - 3))
    _pdf_cells(pdf, table, pdf.epw, tuple(n * scale for n in natural), aligned, 4.4, 0.8)
    if table.note:
        pdf.set_font("DejaVu", "", 8)
        pdf.multi_cell(0, 4, table.note, new_x="LMARGIN", new_y="NEXT")


def _pdf_table(pdf: FPDF, table: Table) -> None:
    if table.fill:
        _pdf_wide_table(pdf, table)
        return
    pdf.ln(1.5)
    pdf.set_font("DejaVu", "B", TABLE_TYPE + 1)
    pdf.multi_cell(0, 5, table.caption, new_x="LMARGIN", new_y="NEXT", align="L")
    for number, part in enumerate(_parts(pdf, table)):
        if number:
            pdf.ln(1.2)
        _pdf_grid(pdf, part)


def _parts(pdf: FPDF, table: Table) -> list[Table]:
    """The table as it fits the page in table type: whole, or (a point table on A5) its columns in as few
    parts as fit, each with the first column again, so that no number is set smaller or broken."""
    pdf.set_font("DejaVu", "B", TABLE_TYPE)  # the widest text a column holds (headings bold), with its padding
    heads = [pdf.get_string_width(str(head)) for head in table.header]
    pdf.set_font("DejaVu", "", TABLE_TYPE)
    needed = [
        max(heads[i], *(pdf.get_string_width(str(row[i])) for row in table.rows)) + 1.5
        for i in range(len(table.header))
    ]
    first, widths = needed[0], needed[1:]
    if first + sum(widths) <= pdf.epw or len(widths) < 4:
        return [table]
    per_part = max(1, int((pdf.epw - first) // max(widths)))
    parts = -(-len(widths) // per_part)
    size = -(-len(widths) // parts)  # as even as the columns allow
    return [
        Table(
            table.caption,
            (table.header[0], *table.header[1 + start : 1 + start + size]),
            tuple((row[0], *row[1 + start : 1 + start + size]) for row in table.rows),
        )
        for start in range(0, len(widths), size)
    ]


def _pdf_grid(pdf: FPDF, table: Table) -> None:
    pdf.set_font("DejaVu", "B", TABLE_TYPE)  # headings print bold: measure them so
    first = max(12.0, *(pdf.get_string_width(str(row[0])) + 3 for row in (table.header, *table.rows)))
    # each column as wide as its longest word, so that no word is broken across lines ("almindeli/ge")
    columns = [max(11.5, *(pdf.get_string_width(word) + 3 for word in str(head).split())) for head in table.header[1:]]
    pdf.set_font("DejaVu", "", TABLE_TYPE)
    columns = [
        max(c, *(pdf.get_string_width(str(row[i + 1])) + 2 for row in table.rows)) for i, c in enumerate(columns)
    ]
    width = first + sum(columns)
    if width > pdf.epw:  # too wide for the page: every column narrower in proportion
        scale = pdf.epw / width
        first, columns, width = first * scale, [c * scale for c in columns], pdf.epw
    _pdf_cells(pdf, table, width, (first, *columns), "RIGHT", TABLE_TYPE * 0.42, 0.4)


def _pdf_cells(
    pdf: FPDF,
    table: Table,
    width: float,
    widths: tuple[float, ...],
    align: str | tuple[str, ...],
    line_height: float,
    padding: float,
) -> None:
    """The table's header and rows as a PDF table of the given layout."""
    with pdf.table(
        width=width,
        col_widths=widths,
        text_align=align,
        line_height=line_height,
        align="LEFT",
        first_row_as_headings=True,
        padding=padding,
    ) as grid:
        for row in (table.header, *table.rows):
            cells = grid.row()
            for cell in row:
                cells.cell(cell)
