"""Kinds that belong to no particular game: the generic card a new pack starts from."""
