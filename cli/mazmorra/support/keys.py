"""The one key scheme of every store a build keeps for the next (the face cache and the stores beside
it, the early stages' memo): a BLAKE2b hash of the parts, each with its length, so ("ab", "c") is not
("a", "bc"). Text is hashed as UTF-8, lone surrogates included (a file name that is not UTF-8)."""

from __future__ import annotations

import hashlib

DIGEST = 32  # bytes of a hash


def digest(*parts: bytes | str) -> bytes:
    """One hash of several parts, each with its length."""
    h = hashlib.blake2b(digest_size=DIGEST)
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.digest()


def key(*parts: bytes | str) -> str:
    """An entry's key: the hash of its parts, in hex."""
    return digest(*parts).hex()
