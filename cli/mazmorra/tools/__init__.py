"""Generators run by make or by a command, apart from the build's stages: the rules tables
(`ruletable`), a kind's documentation (`kinddoc`), docs/pack-yaml.md (`packdoc`), the editors' JSON
Schema (`editorschema`), a kind file drafted from a spreadsheet (`kindinfer`), a pack upgraded to the
current format (`upgrade`) and a dungeon rolled into a pack (`rolldungeon`)."""
