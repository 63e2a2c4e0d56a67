"""The template language: rendered template XML -> absolute drawing ops, element by element.

`registry` is the table of elements (each a handler and the attributes it accepts) and
`parse_face`; one module per family of elements: `figures` (<ellipse>, <star>, <path>), `gridelement`
and `griddraw` (<grid>), and what they share: `attrs` (reading attribute values), `paint` (fills,
gradients, strokes) and `pathdata` (SVG path data). The <text> element is `layout.text.textbox`."""
