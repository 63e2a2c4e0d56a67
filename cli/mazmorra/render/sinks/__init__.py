"""Stage 5's outputs, one sink each (`sink`: the protocol): the print-and-play PDF (`pdf`), per-card
PDFs (`cardpdf`), PNG per face (`png`), sheet images (`sheetimages`), Tabletop Simulator (`tts`,
`ttsobjects`), the gallery (`gallery`, `beforeafter`) and print-and-cut files (`cutfile`)."""
