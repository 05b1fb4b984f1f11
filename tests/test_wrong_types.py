"""No traceback for a value of the wrong type anywhere in the data, and one message per root
cause (issue 32, item 7): an id written as a list, a malformed field definition or a merge key
is one located message, not a crash or a cascade of its consequences."""
from __future__ import annotations

import random

import pytest
import yaml
from conftest import copy_repo

from atlas.data import load_atlas
from atlas.problems import DataError


def problems(root) -> list[str]:
    with pytest.raises(DataError) as info:
        load_atlas(root)
    return [str(p) for p in info.value.problems]


@pytest.fixture
def repo(tmp_path):
    return copy_repo(tmp_path / "repo")


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_provider_id_written_as_a_list_is_one_message(repo):
    edit(repo / "data/providers.yaml", "  - id: aws\n", "  - id: [1, 2]\n")
    assert problems(repo) == ["data/providers.yaml:6: provider #1, field 'id': found [1, 2], "
                              "allowed: a lowercase slug such as 'my-cloud'"]


def test_a_malformed_field_definition_is_one_message(repo):
    edit(repo / "data/fields.yaml", "  mig: {values: *yes_no}", "  mig: {values: [yes, no]}")
    found = problems(repo)
    assert len(found) == 1 and found[0].startswith("data/fields.yaml:") and "field 'mig'" in found[0], found


def test_a_merge_key_is_one_message(repo):
    edit(repo / "data/fields.yaml", "  time_slicing: {values: *yes_no}", "  time_slicing: {<<: *yes_no}")
    found = problems(repo)
    assert len(found) == 1 and "merge key '<<'" in found[0], found


# Every scalar in the first provider's record, in the field definitions and (a sample) in the
# English words, in turn, replaced by a value of another type: the loader reports or accepts,
# never raises anything else, and each message names a file and a line.
WRONG = ([1, 2], {"a": 1}, 7, None, True, "text", 2.5)


def _paths(node, at=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*at, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*at, i))
    else:
        yield at


def _set(node, path, value):
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value


@pytest.mark.long
@pytest.mark.parametrize("name", ["providers", "fields", "i18n/en"])   # en: its words are compared with every translation's
def test_a_value_of_the_wrong_type_anywhere_is_reported_not_raised(tmp_path, name):
    root = copy_repo(tmp_path / "repo")
    path = root / "data" / f"{name}.yaml"
    original = yaml.safe_load(path.read_text(encoding="utf-8"))
    scope = {"providers": original["providers"][:1]} if name == "providers" else original
    paths = list(_paths(scope))
    rng = random.Random(32)
    for at in rng.sample(paths, min(40, len(paths))):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        _set(data, at, rng.choice(WRONG))
        edited = root / "data" / f"{name}.yaml"
        edited.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        try:
            load_atlas(root)
        except DataError as exc:
            assert exc.problems and all(p.file.startswith("data/") and p.line >= 1 for p in exc.problems), at
        finally:
            path.write_text(yaml.safe_dump(original, allow_unicode=True, sort_keys=False), encoding="utf-8")
