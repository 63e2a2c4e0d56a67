"""What a designer declares without Python: kinds (`kinds/<name>.yaml` in a pack) and rules (in a
kind file or pack.yaml). `spec` is the schema of those files, `fields` turns a declared field into
a typed model field, `kinds` loads a pack's kind files, `rules` checks the declared rules (stage 2)
and `docs` writes a kind's documentation."""
