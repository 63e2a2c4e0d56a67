"""Translation: gettext catalogues per pack and language.

The pack's YAML holds its source language; every other language lives in
content/<pack>/locale/<lang>.po, one entry per (component id, field) as msgctxt "id.field", with
the YAML file:line as its reference, so translators work in Poedit, Weblate or any PO editor.

- `po`: reading catalogues strictly (every fault a located problem);
- `labels`: the labels templates print (`_("Action")`), their catalogues and plural forms;
- `localise`: stage 3, every component in one language;
- `catalogue`: catalogue maintenance for translators (`i18n update`, `status`, `add`).
"""
