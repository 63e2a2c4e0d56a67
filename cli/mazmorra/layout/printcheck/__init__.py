"""The print checks of a laid-out face: `facecheck.check_face` (what a player must be able to read,
what must not collide), from where each op puts ink (`ink`, `inkindex`, `iconraster`), the contrast
of text and icons against what they sit on (`contrast`), colour never the only carrier of game
information (`colouronly`) and a print shop's preflight (`preflight`)."""
