"""Support every stage may use, knowing nothing of cards: atomic writing and the scratch folder
(`atomic`), worker processes (`workers`) and the garbage collector's settings (`gcpolicy`), where the
tool's own files live (`paths`), every input limit (`limits`), what a build keeps for the next one
(`memo`, `reuse`, and `keys`: the one key scheme of every store), every output file's name
(`filenames`) and text made safe for the files an export writes (`safetext`: the one CSV writer)."""
