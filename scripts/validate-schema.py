#!/usr/bin/env python3
"""Validate FlowLens flow files against the FlowLens JSON Schema.

Usage: python3 scripts/validate-schema.py SCHEMA FILE...

Each FILE is read as YAML (`.yaml`, `.yml`, with `yaml.safe_load`) or JSON (`.json`) and validated
with jsonschema's Draft 2020-12 validator; the schema itself is checked first. One line per file:

    ok FILE
    invalid FILE: <path>: <message>     (one line per error, sorted)
    unreadable FILE: <message>          (the file cannot be read or parsed)

Exit status: 0 when every file is valid, 1 when some file is invalid, 2 when some file is
unreadable (or the schema itself is broken).
"""

import json
import sys

import jsonschema
import yaml


def load(path):
    """Parses `path` as JSON or YAML, chosen by its extension."""
    with open(path, encoding="utf-8") as f:
        if path.endswith(".json"):
            return json.load(f)
        return yaml.safe_load(f)


def pointer(error):
    """The JSON Pointer of the instance location an error concerns (`/` for the root)."""
    return "/" + "/".join(str(part) for part in error.absolute_path)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    schema_path, files = argv[1], argv[2:]
    try:
        schema = load(schema_path)
        jsonschema.Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, yaml.YAMLError, jsonschema.SchemaError) as e:
        print(f"bad schema {schema_path}: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    return validate_files(jsonschema.Draft202012Validator(schema), files, load)


def validate_files(validator, files, read):
    """Validates each file (parsed with `read`), printing one line per result; returns the exit status.

    Shared with scripts/validate-sarif.py."""
    status = 0
    for path in files:
        try:
            instance = read(path)
        except (OSError, ValueError, yaml.YAMLError) as e:
            message = " ".join(str(e).split())
            print(f"unreadable {path}: {message}")
            status = 2
            continue
        errors = sorted((pointer(e), e.message) for e in validator.iter_errors(instance))
        if not errors:
            print(f"ok {path}")
        for where, message in errors:
            print(f"invalid {path}: {where}: {message}")
        if errors:
            status = max(status, 1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
