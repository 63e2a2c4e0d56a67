"""Stage 5's outputs, one sink each (`sink`: the protocol), every one declared once in its own
module (`SINK`: its options, docs section and what it supports), which the sink table (`table`)
discovers: the print-and-play PDF (`pdf`), per-card PDFs (`cardpdf`), PNG per face (`png`), sheet
images (`sheetimages`), Tabletop Simulator (`tts`, `ttsobjects`), the gallery (`gallery`,
`beforeafter`) and print-and-cut files (`cutfile`)."""
