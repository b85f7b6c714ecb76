"""The translations' catalogs, without GNU gettext (Babel only, a pinned dependency).

    .venv/bin/python tools/i18n.py update          # extract, refresh every .po, write .mo
    .venv/bin/python tools/i18n.py fill de F.json  # add translations ({"msgid": "msgstr", ...})
    .venv/bin/python tools/i18n.py check           # what is not translated (exit 1 if anything)

The strings are those of Django's translation machinery: ``gettext`` and friends in Python
(``tourney/``, ``tables/``), ``{% translate %}`` / ``{% blocktranslate %}`` in ``templates/``
(read through Django's own ``templatize``, as ``makemessages`` does). The catalogs are
``locale/<lang>/LC_MESSAGES/django.po`` and their compiled ``.mo``, both in the repository
(the app needs no compiler at run time). ``tests/test_translations.py`` fails on any string of
the source without a translation in a shipped language, and on a ``.mo`` older than its ``.po``.

A plural's translation in a fill file is a list (one string a plural form); a string with a
context is keyed ``"context\\x04msgid"``.
"""

from __future__ import annotations

import fcntl
import io
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
LANGUAGES = ("de", "es")
PYTHON_DIRS = ("tourney", "tables")
SKIP_DIRS = {"migrations", "__pycache__", "tests"}
KEYWORDS = {
    "_": None,
    "N_": None,
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "pgettext_lazy": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
    "npgettext_lazy": ((1, "c"), 2, 3),
}
CONTEXT_SEP = "\x04"


def _setup_django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")
    import django

    django.setup()


def _sources() -> Iterator[tuple[Path, str]]:
    for top in PYTHON_DIRS:
        for path in sorted((ROOT / top).rglob("*.py")):
            if not SKIP_DIRS.intersection(path.relative_to(ROOT).parts):
                yield path, "python"
    for path in sorted((ROOT / "templates").rglob("*.html")):
        yield path, "template"
    for path in sorted((ROOT / "templates").rglob("*.txt")):
        yield path, "template"


def extract():
    """Every translatable string of the source, as a Babel catalog (the template)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_python

    _setup_django()
    from django.utils.translation.template import templatize

    catalog = Catalog(project="Tourney", charset="utf-8")
    for path, kind in _sources():
        text = path.read_text(encoding="utf-8")
        if kind == "python" and "gettext" not in text and "_(" not in text:
            continue
        if kind == "template":
            if "trans" not in text:
                continue
            # Babel reads Python with the tokenizer: the template's own indentation, kept by
            # templatize, is not Python's (xgettext does not care, the tokenizer does).
            text = "\n".join(
                line.lstrip() for line in templatize(text, origin=str(path)).split("\n")
            )
        rel = str(path.relative_to(ROOT))
        found = extract_python(
            io.BytesIO(text.encode("utf-8")), KEYWORDS, [], {"encoding": "utf-8"}
        )
        for _lineno, funcname, messages, _comments in found:
            if messages is None:  # a call with no literal: gettext(template)
                continue
            messages = [messages] if isinstance(messages, str) else list(messages)
            context = None
            if funcname.startswith(("pgettext", "npgettext")):
                context, *messages = messages
            wanted = 2 if funcname.startswith(("ngettext", "npgettext")) else 1
            messages = messages[:wanted]
            if len(messages) < wanted or any(not isinstance(m, str) for m in messages):
                continue
            msgid = messages[0] if wanted == 1 else tuple(messages)
            if not messages[0].strip():
                continue
            catalog.add(msgid, locations=[(rel, None)], context=context)
    return catalog


def _po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "django.po"


def read(lang: str):
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    path = _po_path(lang)
    if not path.exists():
        return Catalog(locale=lang, project="Tourney", charset="utf-8")
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _key(message) -> str:
    msgid = message.id[0] if isinstance(message.id, tuple) else message.id
    return f"{message.context}{CONTEXT_SEP}{msgid}" if message.context else msgid


def _translated(message) -> bool:
    if message.fuzzy:
        return False
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return bool(strings) and all(s for s in strings)


def write(lang: str, catalog) -> None:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import write_po

    path = _po_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, catalog, sort_output=True, include_lineno=False, width=100)
    path.write_bytes(buf.getvalue())
    mo = io.BytesIO()
    write_mo(mo, catalog, use_fuzzy=False)
    path.with_suffix(".mo").write_bytes(mo.getvalue())


@contextmanager
def _locked() -> Iterator[None]:
    LOCALE.mkdir(exist_ok=True)
    with (LOCALE / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def update() -> None:
    """Refresh every language's .po from the source (new strings added untranslated, strings
    gone dropped, translations kept) and compile its .mo."""
    template = extract()
    with _locked():
        for lang in LANGUAGES:
            old = read(lang)
            old_by_key = {_key(m): m for m in old if m.id}
            new = read(lang)
            for m in list(new):
                if m.id:
                    new.delete(m.id, context=m.context)
            for m in template:
                if not m.id:
                    continue
                was = old_by_key.get(_key(m))
                string = was.string if was is not None else ("", "") if m.pluralizable else ""
                if m.pluralizable and not isinstance(string, tuple):
                    string = (string, string) if string else ("", "")
                if not m.pluralizable and isinstance(string, tuple):
                    string = string[0]
                added = new.add(m.id, string, locations=m.locations, context=m.context)
                if was is not None and was.fuzzy:
                    added.flags.add("fuzzy")
            write(lang, new)


def fill(lang: str, source: Path) -> int:
    """Write the translations of a JSON file into ``lang``'s catalog (strings the source no
    longer has are ignored). Returns how many were written."""
    given = json.loads(source.read_text(encoding="utf-8"))
    update()
    written = 0
    with _locked():
        catalog = read(lang)
        for m in catalog:
            if not m.id:
                continue
            value = given.get(_key(m))
            if value is None:
                continue
            if m.pluralizable:
                value = tuple(value) if isinstance(value, list) else (value, value)
            elif isinstance(value, list):
                value = value[0]
            m.string = value
            m.flags.discard("fuzzy")
            written += 1
        write(lang, catalog)
    return written


def missing(lang: str) -> list[str]:
    """The source's strings without a translation in ``lang``."""
    template = extract()
    have = {_key(m): m for m in read(lang) if m.id}
    return sorted(
        _key(m) for m in template if m.id and not (_key(m) in have and _translated(have[_key(m)]))
    )


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "update":
        update()
        return 0
    if command == "fill":
        print(fill(argv[2], Path(argv[3])), "translations written")
        return 0
    if command in ("check", "missing"):
        bad = 0
        for lang in LANGUAGES:
            gaps = missing(lang)
            bad += len(gaps)
            print(f"{lang}: {len(gaps)} untranslated")
            if command == "missing":
                print(json.dumps(dict.fromkeys(gaps, ""), ensure_ascii=False, indent=1))
        return 1 if bad else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
