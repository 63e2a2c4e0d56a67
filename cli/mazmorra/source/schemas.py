"""Pydantic at the boundary: data checked against a model, every error turned into a located
problem (file:line of the value, the field, a rule id, "did you mean" for an unknown field)."""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from mazmorra.errors import Loc, Problem, did_you_mean
from mazmorra.source.wording import error_message, given
from mazmorra.source.yamlsafe import locate

M = TypeVar("M", bound=BaseModel)


def schema_problems(
    exc: ValidationError,
    root: Any,
    base: Loc,
    component: str | None,
    prefix: tuple[Any, ...] = (),
    model: type[BaseModel] | None = None,
    declared: Mapping[str, Loc] | None = None,
) -> list[Problem]:
    """Turn a pydantic error into located problems, one per field. With `model`, an unknown field
    names the closest known one; with `declared` (field -> where a kind file declares it), a
    broken limit says where the limit was set."""
    grouped: dict[tuple[Any, ...], list[Any]] = {}
    for err in exc.errors():  # a union's branches each fail: one problem per place, not per branch
        grouped.setdefault(tuple(p for p in err["loc"] if not _branch(p)), []).append(err)
    out = []
    for path, errs in grouped.items():
        errs = [e for e in errs if e["type"] in _OWN] or errs
        err = errs[0]
        loc = locate(root, prefix + path) or base
        field = ".".join(str(p) for p in path) or None
        msg = _merged(errs)
        if err["type"] == "extra_forbidden" and model is not None and path:
            msg += did_you_mean(str(path[-1]), known_fields(model, path[:-1]))
        if (
            "input" in err
            and err["type"] not in ("missing", "extra_forbidden")
            and not isinstance(err["input"], (dict, list))
        ):
            msg += f" (got {given(err['input'])})"
        if declared and path and str(path[0]) in declared and err["type"] != "extra_forbidden":
            msg += f" (declared at {declared[str(path[0])]})"
        out.append(Problem(f"schema.{err['type']}", msg, loc, component, field))
    return out


_OWN = ("value_error", "assertion_error")  # our validators' own sentences: more precise than a branch's type
_TYPE_TAGS = frozenset({"str", "int", "float", "bool", "none", "list", "dict", "tuple", "bytes"})


def _branch(part: Any) -> bool:
    """A location part that names a union's branch (`str`, `function-after[...]`), not a key."""
    return isinstance(part, str) and (part in _TYPE_TAGS or "[" in part or part.startswith("constrained-"))


def _merged(errs: list[Any]) -> str:
    """The errors of one place in one sentence: `must be text or must be a number` -> `must be text or a number`."""
    words = list(dict.fromkeys(error_message(e) for e in errs))
    rest = [w.removeprefix("must be ") for w in words[1:]]
    if all(w.startswith("must be ") for w in words):
        return words[0] + "".join(f" or {w}" for w in rest)
    return "; ".join(words)


def known_fields(model: type[BaseModel], path: tuple[Any, ...]) -> list[str]:
    """The field names of the model found along `path` (list indices skipped); [] when unknown."""
    current: Any = model
    keyed = False  # the part before was a mapping of models (pack.yaml `fonts: {ja: …}`): this part is its key
    for part in path:
        if isinstance(part, int) or keyed:
            keyed = False
            continue
        fields = getattr(current, "model_fields", None)
        if not fields or part not in fields:
            return []
        keyed = typing.get_origin(fields[part].annotation) is dict
        current = _model_in(fields[part].annotation)
        if current is None:
            return []
    return list(getattr(current, "model_fields", {}))


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The BaseModel inside an annotation such as `Side`, `Side | None` or `list[Side]`."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _model_in(typing.get_args(annotation)[0])
    if origin is dict:
        return _model_in(typing.get_args(annotation)[1])
    if origin in (typing.Union, types.UnionType, list, tuple):
        for arg in typing.get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None


def checked(
    model: type[M],
    data: Any,
    base: Loc,
    component: str | None,
    prefix: tuple[Any, ...] = (),
    declared: Mapping[str, Loc] | None = None,
) -> tuple[M | None, list[Problem]]:
    """`model` validated from `data` and no problems, or None and its located problems."""
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, schema_problems(exc, data, base, component, prefix, model, declared)
