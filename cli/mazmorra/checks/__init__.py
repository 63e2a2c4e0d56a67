"""Stage 2's checks of what designers declare in files, without Python: the rules a kind file or
pack.yaml states and what a declared field's type promises (`rules`), grid data against its legend
(`grid`). validate.py runs them beside the kinds' own rules."""
