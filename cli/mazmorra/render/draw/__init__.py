"""Drawing faces onto PDF pages with ReportLab: `pdfpages.PdfPages` (imposed pages of laid-out faces),
one module per kind of op (`pdfshapes`, `pdftext`, SVG icons as forms: `svgforms`, `forms`,
`softmask`), the sheets' inks at home (`inks`, `greycanvas`), cut guides (`guides`), page boxes and
PDF/X marks (`boxes`, `pdfx`), and long documents in chunks (`chunks`, `chunkmerge`)."""
