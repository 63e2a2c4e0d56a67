"""What a designer declares without Python, as types: `spec` is the schema of kind files
(`kinds/<name>.yaml` in a pack) and of the rules a kind file or pack.yaml states, `fields` turns a
declared field into a typed model field, `grid` parses grid data. A floor below model/content.py, which
refers to these declarations: loading the files is kinds/kindfiles.py (stage 1), checking the rules is
checks/ (stage 2) and a kind's documentation is tools/kinddoc.py."""
