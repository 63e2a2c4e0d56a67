"""`mazmorra serve`: a live preview of a pack in the browser (preview.py builds, server.py serves
and watches, live.py is what the page adds to the gallery)."""
