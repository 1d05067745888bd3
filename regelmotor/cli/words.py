"""The command line's words in the reader's language: each argument's help, and argparse's own words.

The parser is written in English, as gettext writes a program: each text is its own key, and the Danish
catalogue (``phrase_table/help.da.yaml``) gives what a Danish club member reads instead. argparse
says its own words ("usage:", "the following arguments are required") through ``gettext``, looked up
when it says them: ``argparse_in`` puts the catalogue in gettext's place while a parser is built and
used. A text the catalogue lacks stays English, and the test of every command's help finds it.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import yaml

from regelmotor.phrase_table import PHRASES

LANGS = ("da", "en")


def default_lang() -> str:
    """Danish unless ``REGELMOTOR_LANG=en`` says English."""
    chosen = os.environ.get("REGELMOTOR_LANG", "da")
    return chosen if chosen in LANGS else "da"


def lang_of(argv: list[str]) -> str:
    """The language a command line asks for (``--lang en``, ``--lang=en``), before it is parsed: its
    help and its refusals are said in it."""
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and i + 1 < len(argv) and argv[i + 1] in LANGS:
            return argv[i + 1]
        if word.startswith("--lang=") and word[7:] in LANGS:
            return word[7:]
    return default_lang()


@cache
def catalogue(lang: str) -> dict[str, str]:
    """English text -> the text in ``lang`` (empty for English)."""
    if lang == "en":
        return {}
    loaded = yaml.safe_load((PHRASES / f"help.{lang}.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return {str(k): str(v) for k, v in loaded.items()}


class Help(str):
    """A help text with values filled in (a list of names, a number), which knows its English key and its
    values, so that it can be said in another language with the same values."""

    key: str
    values: dict[str, object]


def helped(key: str, **values: object) -> Help:
    """``key`` with ``values`` filled in, as a help text that can be said in another language."""
    text = Help(key.format(**values))
    text.key, text.values = key, values
    return text


def said(text: str, lang: str) -> str:
    """``text`` in ``lang``; where the catalogue lacks it, the English (the test of every command's help
    finds it)."""
    words = catalogue(lang)
    if isinstance(text, Help):
        key = words.get(text.key)
        if key is None:
            return str(text)
        return key.format(**{k: said(v, lang) if isinstance(v, str) else v for k, v in text.values.items()})
    return words.get(text, text)


def translate_parser(parser: argparse.ArgumentParser, lang: str) -> None:
    """Every help text, description and value name of ``parser`` and its subcommands in ``lang``."""
    words = catalogue(lang)
    if not words:
        return
    if parser.description:  # a subcommand's is its help as a sentence: "List the ...", "Vis de ..."
        text = parser.description
        as_help = text[0].lower() + text[1:].removesuffix(".")
        if text not in words and as_help in words:
            shown = words[as_help]
            parser.description = shown[0].upper() + shown[1:] + "."
        else:
            parser.description = said(text, lang)
    for action in parser._actions:
        if action.help and action.help != argparse.SUPPRESS:
            action.help = said(action.help, lang)
        if isinstance(action.metavar, str):
            action.metavar = words.get(action.metavar, action.metavar)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    choice.help = said(choice.help, lang)
            for sub in action.choices.values():
                translate_parser(sub, lang)


_speaking: list[dict[str, str]] = [{}]
"""The catalogue of the parser at work (``argparse_in``): what an argument's own check says its refusal in."""


def now(key: str, **values: object) -> str:
    """``key`` with ``values``, in the language of the parser at work (an argument's type check, which
    argparse calls without saying the language)."""
    return _speaking[-1].get(key, key).format(**values)


@contextmanager
def argparse_in(lang: str) -> Iterator[None]:
    """argparse says its own words in ``lang`` while the block runs (it looks them up through
    ``gettext`` each time it says one: at building, at ``--help`` and at a refusal)."""
    words = catalogue(lang)  # English: empty, every word said as argparse writes it
    _speaking.append(words)
    module: Any = argparse
    before: tuple[Callable[..., str], Callable[..., str]] = (module._, module.ngettext)

    def gettext(text: str) -> str:
        return words.get(text, text)

    def ngettext(singular: str, plural: str, n: int) -> str:
        return gettext(singular if n == 1 else plural)

    module._, module.ngettext = gettext, ngettext
    try:
        yield
    finally:
        module._, module.ngettext = before
        _speaking.pop()
