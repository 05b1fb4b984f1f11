"""data/fields.yaml: the fields and their values, list fields, groups, categories and quiz rules."""
from __future__ import annotations

from .. import yamlsrc
from ..problems import Problem
from .checks import FILE_KEYS, describe, is_known, unknown_keys
from .records import ListField
from .regions import region_filter

COUNTRIES = "countries"   # list field whose items are ISO 3166-1 alpha-2 codes (see countries.py)


def read_schema(doc: yamlsrc.Doc, problems: list[Problem]):
    if not isinstance(doc.data, dict):
        problems.append(Problem(doc.path, 1, "", f"found {describe(doc.data)}, allowed: a mapping with keys "
                                f"{', '.join(FILE_KEYS['fields'])}"))
        return None
    d = doc.data
    unknown_keys(doc, d, "fields", (), "", problems)
    for key, kind in (("fields", dict), ("groups", dict), ("categories", list), ("quiz", dict)):
        if not isinstance(d.get(key), kind):
            problems.append(Problem(doc.path, doc.line(key), f"key '{key}'",
                                    f"found {describe(d.get(key))}, allowed: a {'list' if kind is list else 'mapping'}"))
            d = {**d, key: kind()}
    fields: dict[str, dict[str, float]] = {}
    list_fields: dict[str, ListField] = {}
    order: list[str] = []
    for fid, spec in d["fields"].items():
        if isinstance(spec, dict) and "list" in spec:
            unknown_keys(doc, spec, "field", ("fields", fid), f"field '{fid}'", problems)
            parsed = _list_spec(doc, fid, spec, problems)
            if parsed:
                list_fields[fid] = parsed
                order.append(fid)
            continue
        values = spec.get("values") if isinstance(spec, dict) else None
        if isinstance(spec, dict):
            unknown_keys(doc, spec, "field", ("fields", fid), f"field '{fid}'", problems)
        if not isinstance(values, dict) or "unknown" not in values:
            problems.append(Problem(doc.path, doc.line("fields", fid), f"field '{fid}'",
                                    "needs a 'values' mapping of value to rank that includes 'unknown', "
                                    "or a 'list' of allowed items"))
            continue
        bad = {v: r for v, r in values.items() if isinstance(r, bool) or not isinstance(r, (int, float))
               or not 0 <= r <= 3}
        for v, r in bad.items():
            problems.append(Problem(doc.path, doc.line("fields", fid, "values", v), f"field '{fid}', value '{v}'",
                                    f"rank found {describe(r)}, allowed: a number from 0 to 3"))
        fields[str(fid)] = {str(v): 2.0 if v in bad else float(r) for v, r in values.items()}   # reported above
        order.append(str(fid))
    groups = {}
    for gid, members in d["groups"].items():
        if not isinstance(members, list):
            problems.append(Problem(doc.path, doc.line("groups", gid), f"group '{gid}'",
                                    f"found {describe(members)}, allowed: a list of field ids"))
            continue
        unknown = [m for m in members or [] if not is_known(m, order)]
        if unknown or not members:
            problems.append(Problem(doc.path, doc.line("groups", gid), f"group '{gid}'",
                                    f"found fields {unknown or '[]'}, allowed: {', '.join(order)}"))
        groups[gid] = tuple(members or ())
    rules = {}
    for fid, rule in d["quiz"].items():
        if not isinstance(rule, dict) or not all(isinstance(rule.get(side, []), list) for side in ("right", "wrong")):
            problems.append(Problem(doc.path, doc.line("quiz", fid), f"quiz rule '{fid}'",
                                    f"found {describe(rule)}, allowed: a mapping with 'right' and 'wrong' lists"))
            continue
        unknown_keys(doc, rule, "quiz rule", ("quiz", fid), f"quiz rule '{fid}'", problems)
        allowed = fields.get(fid, {})
        bad = [v for side in ("right", "wrong") for v in (rule or {}).get(side, []) if not is_known(v, allowed) or v == "unknown"]
        if fid not in fields or bad:
            problems.append(Problem(doc.path, doc.line("quiz", fid), f"quiz rule '{fid}'",
                                    f"found {bad or fid!r}, allowed: known values of a defined single-valued field"))
        rules[fid] = {side: tuple(str(v) for v in (rule or {}).get(side, [])) for side in ("right", "wrong")}
    categories = tuple(str(c) for c in d["categories"] if isinstance(c, str))
    choices, home = region_filter(doc, d.get("region_filter"), problems)
    return fields, groups, categories, rules, list_fields, tuple(order), choices, home


def _list_spec(doc: yamlsrc.Doc, fid: str, spec: dict, problems: list[Problem]) -> ListField | None:
    items = spec.get("list")
    where = f"field '{fid}'"
    if items == COUNTRIES:
        return ListField(None, bool(spec.get("empty_allowed")), False)
    if not isinstance(items, list) or not items or not all(isinstance(i, str) and i for i in items) \
            or len(set(items)) != len(items):
        problems.append(Problem(doc.path, doc.line("fields", fid, "list"), where,
                                f"list found {items!r}, allowed: '{COUNTRIES}' or a list of distinct item ids"))
        return None
    return ListField(tuple(items), bool(spec.get("empty_allowed")), bool(spec.get("item_words")))
