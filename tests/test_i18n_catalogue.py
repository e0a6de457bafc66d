"""The message catalogues are whole and compiled: every message marked for translation
in our code has a French translation, and the committed .mo is the compiled .po.

Babel reads the code (its Python extractor, with Django's gettext names) and the
catalogues; docs/api.md, "Languages", says how to recompile.
"""

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from games import rules
from games.rule_messages import OPTION_REASONS, RULE_TEXTS

REPO = Path(__file__).resolve().parent.parent
LOCALE = REPO / "belote_project" / "locale"
TRANSLATED = ("fr",)
# Django's names for gettext (babel knows gettext, ngettext, pgettext, _ already).
KEYWORDS = {
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "gettext_now": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
}


def marked_messages() -> set[str]:
    found = set()
    for package in ("belote_project", "games", "accounts", "tournaments"):
        for _file, _line, message, _comments, _context in extract_from_dir(
            REPO / package, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            found.add(message[0] if isinstance(message, tuple) else message)
    return found


def catalogue(language: str) -> Catalog:
    with (LOCALE / language / "LC_MESSAGES" / "django.po").open("rb") as po:
        return read_po(po, locale=language)


def translations(catalog: Catalog) -> dict[str, object]:
    return {
        message.id if isinstance(message.id, str) else message.id[0]: message.string
        for message in catalog
        if message.id
    }


def test_every_rule_code_has_its_words():
    assert set(RULE_TEXTS) == rules.ERROR_CODES
    assert set(OPTION_REASONS) == {"unknown_option", "wrong_type", "out_of_range"}


def test_every_marked_message_is_translated():
    marked = marked_messages()
    assert "Not your turn" in marked  # the extraction sees the marks
    for language in TRANSLATED:
        catalog = catalogue(language)
        strings = translations(catalog)
        assert marked <= set(strings), sorted(marked - set(strings))
        untranslated = [key for key, value in strings.items() if not value or value == ("", "")]
        assert untranslated == []
        assert [message.id for message in catalog if message.fuzzy and message.id] == []


def test_the_committed_mo_is_the_compiled_po():
    for language in TRANSLATED:
        compiled = io.BytesIO()
        write_mo(compiled, catalogue(language))
        committed = (LOCALE / language / "LC_MESSAGES" / "django.mo").read_bytes()
        assert translations(read_mo(io.BytesIO(committed))) == translations(
            read_mo(io.BytesIO(compiled.getvalue()))
        )
