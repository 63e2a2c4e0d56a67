"""Catalogue tools for translators, apart from the build: `i18n update`, `status` and `add`
(`catalogue`), the translation template (`potemplate`), msgmerge's merge (`msgmerge`) and the
template labels' own catalogues (`labelcat`)."""
