"""Stage 3's checks of a localisation: one term per concept (`glossary`), the house style of rules
text (`house`), every character covered by the language's fonts (`coverage`) and words typed into
templates instead of labels (`literals`)."""
