"""Card text in a box: the `<text>` element (`textbox`, its attributes read once in `textattrs`),
fitting (`fit`), line breaking (`linebreak`, `segment`, `lbclasses`), ellipsis (`ellipsis`) and the
translators' budgets of each box (`budget`)."""
