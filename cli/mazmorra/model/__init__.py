"""The model every stage reads: a pack, its decks, components, kinds and game families (`content`),
its print settings (`printspec`), lengths (`units`), colours (`colour`), card text as written
(`cardtext`) and what a designer declares without Python (`declared/`)."""
