"""Translation: gettext catalogues per pack and language.

The pack's YAML holds its source language; every other language lives in
content/<pack>/locale/<lang>.po, one entry per (component id, field) as msgctxt "id.field", with
the YAML file:line as its reference, so translators work in Poedit, Weblate or any PO editor.

`localise(pack, lang)` is the entry (stage 3: every component in one language, `localise.py`).
- `po`: reading catalogues strictly (every fault a located problem);
- `labels`: the labels templates print (`_("Action")`), their catalogues and plural forms;
- `pseudo`: the pseudo-locale; `sheetsources`: translations a spreadsheet carries;
- `checks/`: what a localisation is checked for (glossary, house style, glyph coverage, literals);
- `catalogues/`: catalogue maintenance for translators (`i18n update`, `status`, `add`).
"""

from mazmorra.i18n.localise import localise

__all__ = ["localise"]
