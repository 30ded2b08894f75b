#!/usr/bin/env python3
"""Validates every `--json` output of the golden cases against docs/schema/.

A golden case (tests/golden/NAME.args, one argument per line) that passes
`--json` has its expected stdout in NAME.out; the golden test keeps that file
equal to what willfit prints, and this check keeps it equal to the contract:
the schema of its command (`train`, `max`, `which`, `cost`, `devices`,
`device`, `models`; the plain answer `fit`; an array of plain answers `grid`).
Every schema must itself be valid JSON Schema (draft 2020-12).

Usage: validate_json.py SCHEMA_DIR GOLDEN_DIR      (needs python3-jsonschema)
       validate_json.py --self-test SCHEMA_DIR GOLDEN_DIR
"""
import copy
import glob
import json
import os
import sys

from jsonschema import Draft202012Validator

COMMANDS = ("train", "max", "which", "cost", "devices", "device", "models")


def load_schemas(schema_dir):
    schemas = {}
    for path in sorted(glob.glob(os.path.join(schema_dir, "*.schema.json"))):
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
        schemas[os.path.basename(path)[:-len(".schema.json")]] = schema
    return schemas


def inline(node, schemas, home):
    """The schema with every $ref replaced by what it names (the schemas have no
    cycles), so that any jsonschema version validates it without a resolver:
    `#/$defs/X` within its own file, `urn:willfit:schema:NAME[#/$defs/X]` across."""
    if isinstance(node, list):
        return [inline(v, schemas, home) for v in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        ref = node["$ref"]
        base, _, fragment = ref.partition("#")
        target_home = home
        if base:
            target_home = next((n for n, sc in schemas.items() if sc.get("$id") == base), None)
            if target_home is None:
                raise KeyError(f"$ref to an unknown schema: {ref}")
        target = schemas[target_home]
        for part in [p for p in fragment.split("/") if p]:
            target = target[part]
        rest = {k: v for k, v in node.items() if k != "$ref"}
        resolved = inline(target, schemas, target_home)
        return {**resolved, **inline(rest, schemas, home)}
    return {k: inline(v, schemas, home) for k, v in node.items() if k != "$defs"}


def validator(schemas, name):
    return Draft202012Validator(inline(schemas[name], schemas, name))


def schema_for(args, document):
    if isinstance(document, list):
        return "grid"
    return args[0] if args and args[0] in COMMANDS else "fit"


def errors(schemas, name, document):
    return sorted(validator(schemas, name).iter_errors(document), key=lambda e: list(e.absolute_path))


def golden_json_cases(golden_dir):
    for args_path in sorted(glob.glob(os.path.join(golden_dir, "*.args"))):
        with open(args_path, encoding="utf-8") as f:
            args = [line for line in f.read().split("\n") if line != ""]
        if "--json" not in args:
            continue
        with open(args_path[:-len(".args")] + ".out", encoding="utf-8") as f:
            text = f.read()
        yield os.path.basename(args_path)[:-len(".args")], args, text


def main():
    argv = sys.argv[1:]
    self_test = argv[:1] == ["--self-test"]
    if self_test:
        argv = argv[1:]
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    schemas = load_schemas(argv[0])
    failures, used, count = [], set(), 0
    for name, args, text in golden_json_cases(argv[1]):
        if text == "":
            continue  # an error case: nothing on stdout
        count += 1
        document = json.loads(text)
        schema = schema_for(args, document)
        used.add(schema)
        if self_test:
            continue
        for e in errors(schemas, schema, document):
            path = "/".join(str(p) for p in e.absolute_path) or "(the document)"
            failures.append(f"tests/golden/{name}.out: {schema}.schema.json: at {path}: {e.message}")
    unused = sorted(set(schemas) - used)
    if unused:
        failures.append("no golden case checks " + ", ".join(f"{u}.schema.json" for u in unused)
                        + ": add a golden case with --json")
    if self_test:
        return run_self_test(schemas, argv[1])
    for f in failures:
        print(f)
    print(f"schema: {count} golden --json outputs against {len(schemas)} schemas, {len(failures)} problems")
    return 1 if failures else 0


def run_self_test(schemas, golden_dir):
    """A removed key, a retyped key and a wrong enum value must each fail."""
    caught = 0
    for name, args, text in golden_json_cases(golden_dir):
        if name != "json_no_fit":
            continue
        good = json.loads(text)
        assert not errors(schemas, "fit", good), errors(schemas, "fit", good)
        cases = []
        d = copy.deepcopy(good); del d["result"]["required_bytes"]; cases.append(d)
        d = copy.deepcopy(good); d["memory"]["total_bytes"] = str(d["memory"]["total_bytes"]); cases.append(d)
        d = copy.deepcopy(good); d["result"]["verdict"] = "maybe"; cases.append(d)
        d = copy.deepcopy(good); d["model"]["params"] = 1.5; cases.append(d)
        d = copy.deepcopy(good); d["speed"]["notes"] = "one note"; cases.append(d)
        for bad in cases:
            assert errors(schemas, "fit", bad), "a broken document passed"
            assert errors(schemas, "grid", [good, bad]), "a broken grid cell passed"
            caught += 1
    assert caught == 5, "tests/golden/json_no_fit.out is missing"
    print(f"self-test: {caught} broken documents (a key removed, retyped, a wrong enum) are rejected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
