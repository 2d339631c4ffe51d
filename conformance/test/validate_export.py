#!/usr/bin/env python3
"""Validates an exported corpus against corpus/conformance/export.schema.json.

    validate_export.py SCHEMA EXPORT

Exit 0 when valid; 1 with every error (the vector's place and the schema rule) when not; 2 when
a file cannot be read. Runs on a large stack: vectors nest a thousand levels deep and the
validator recurses several frames per level.
"""
import json
import sys
import threading

import jsonschema


def skip_repeated_inputs(schema, document):
    """Replaces every vector's input that equals an earlier vector's by null, so that the validator
    checks each distinct input once, where it first stands: the schema checks an input against
    #/$defs/value wherever it stands (asserted here), so a repeated one passes or fails as the
    first did. The count vectors repeat one value of 65,536 entries under each option set; this
    takes the validation of the UBJSON export from 25 s of CPU to 10."""
    rule = schema.get("$defs", {}).get("vector", {}).get("properties", {}).get("input")
    vectors = document.get("vectors") if isinstance(document, dict) else None
    if rule != {"$ref": "#/$defs/value"} or not isinstance(vectors, list):
        return
    seen = set()
    for vector in vectors:
        if isinstance(vector, dict) and "input" in vector:
            text = json.dumps(vector["input"])
            if text in seen:
                vector["input"] = None
            else:
                seen.add(text)


def main(schema_path, export_path):
    try:
        with open(schema_path, encoding="utf-8") as f:
            schema = json.load(f)
        with open(export_path, encoding="utf-8") as f:
            document = json.load(f)
    except (OSError, ValueError) as e:
        print(f"validate_export: {e}", file=sys.stderr)
        return 2
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    skip_repeated_inputs(schema, document)
    errors = 0
    for error in validator.iter_errors(document):
        place = "/" + "/".join(str(p) for p in error.absolute_path)
        print(f"{export_path}#{place}: {error.message[:300]}", file=sys.stderr)
        errors += 1
        if errors >= 20:
            break
    if errors:
        return 1
    count = len(document.get("vectors", []))
    print(f"{export_path}: valid against {schema_path} ({count} vectors, {document['corpus_version']})")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(1 << 29)
    result = []
    worker = threading.Thread(target=lambda: result.append(main(sys.argv[1], sys.argv[2])))
    worker.start()
    worker.join()
    sys.exit(result[0] if result else 2)
