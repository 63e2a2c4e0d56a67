"""The face cache: faces laid out once, kept between builds (`facecache`), their ops as plain tuples
(`opcodec`), and its stores on disk: pack files of many small entries (`facepacks`) and stores of few
larger ones (`facefiles`: compiled templates, icon forms, page chunks, the early stages' memo)."""
