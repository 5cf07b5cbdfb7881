#!/usr/bin/env python3
"""Checks pipelines/pipeline.schema.json (and the service and test files' schemas) with an independent validator
(Python jsonschema, PyYAML):
the schema is valid draft 2020-12; every example pipeline, every step example and every file in
Tests/PushlineCLITests/Inputs/schema-valid/ validates against it; and every file in
Tests/PushlineCLITests/Inputs/misspelled/ fails it, at the key its first line names; every file in
Tests/PushlineCLITests/Inputs/schema-invalid/ (keys that exclude or need another, values out of bounds) fails it."""
import glob
import json
import re
import sys

import jsonschema
import yaml


class CoreLoader(yaml.SafeLoader):
    """YAML 1.2's core schema, as Pushline (Yams) and yaml-language-server read files: only true/false are
    booleans, there are no timestamps, and `<<` is an ordinary key (Pushline rejects merge keys), where PyYAML
    reads YAML 1.1 (yes/no/on/off, dates, merges)."""


CoreLoader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers
            if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:merge")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))


def load(path):
    with open(path) as stream:
        return yaml.load(stream, Loader=CoreLoader)


schema = json.load(open("pipelines/pipeline.schema.json"))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
failures = []

# The example pipelines, and values validate accepts in forms an editor might not expect.
# Service files (`pushline serve`) have a schema of their own (pipelines/service.schema.json), checked below.
# Test files (`pushline test`) have theirs too (pipelines/test.schema.json), checked below.
pipeline_files = [p for p in sorted(glob.glob("pipelines/*.yaml"))
                  if not p.endswith(".service.yaml") and not p.endswith(".test.yaml")]
with open("pipelines/service.schema.json", encoding="utf-8") as file:
    service_validator = jsonschema.Draft202012Validator(json.load(file))
for path in sorted(glob.glob("pipelines/*.service.yaml")):
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in service_validator.iter_errors(load(path))]
    print(f"{path}: {'ok' if not errors else 'INVALID'} (service schema)")
    failures += [f"{path}: {error}" for error in errors]
with open("pipelines/test.schema.json", encoding="utf-8") as file:
    test_schema = json.load(file)
jsonschema.Draft202012Validator.check_schema(test_schema)
test_validator = jsonschema.Draft202012Validator(test_schema)
for path in sorted(glob.glob("pipelines/*.test.yaml")):
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in test_validator.iter_errors(load(path))]
    print(f"{path}: {'ok' if not errors else 'INVALID'} (test schema)")
    failures += [f"{path}: {error}" for error in errors]


def modeline_validator(path):
    """The validator of the schema a file's modeline names, as an editor picks it: a pipeline with plugins names
    its own (`pushline schema --pipeline`), which knows its plugins' steps."""
    with open(path, encoding="utf-8") as file:
        first = file.readline()
    match = re.match(r"# yaml-language-server: \$schema=\./(\S+)", first)
    if not match or match.group(1) == "pipeline.schema.json":
        return validator, "pipeline.schema.json"
    with open("pipelines/" + match.group(1), encoding="utf-8") as file:
        own = json.load(file)
    jsonschema.Draft202012Validator.check_schema(own)
    return jsonschema.Draft202012Validator(own), match.group(1)


for path in pipeline_files + sorted(glob.glob("Tests/PushlineCLITests/Inputs/schema-valid/*.yaml")):
    file_validator, schema_name = modeline_validator(path) if path.startswith("pipelines/") else (validator, "pipeline.schema.json")
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in file_validator.iter_errors(load(path))]
    print(f"{path}: {'ok' if not errors else 'INVALID'} ({schema_name})")
    failures += [f"{path}: {error}" for error in errors]

for name, definition in schema["$defs"].items():
    if not name.endswith("-step"):
        continue
    step = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{name}"})
    for index, example in enumerate(definition.get("examples", [])):
        failures += [f"{name} example {index + 1}: {e.message}" for e in step.iter_errors(example)]
    print(f"{name}: {len(definition.get('examples', []))} examples checked")

misspelled = sorted(glob.glob("Tests/PushlineCLITests/Inputs/misspelled/*.yaml"))
if not misspelled:
    failures.append("no misspelled-key fixtures found")


def messages(errors):
    """Every message, including those under anyOf branches (an inline list or a path, say)."""
    for error in errors:
        yield error.message
        yield from messages(error.context or [])


for path in misspelled:
    key = open(path).readline().removeprefix("# misspelled:").strip()
    found = list(messages(validator.iter_errors(load(path))))
    rejected = any(f"'{key}' was unexpected" in message for message in found)
    print(f"{path}: {'rejected' if rejected else 'NOT REJECTED'} ('{key}')")
    if not rejected:
        failures.append(f"{path}: the schema does not reject '{key}' (errors: {found})")

# Keys that exclude each other, keys that need another, values out of bounds: rejected somewhere in the file.
invalid = sorted(glob.glob("Tests/PushlineCLITests/Inputs/schema-invalid/*.yaml"))
if not invalid:
    failures.append("no schema-invalid fixtures found")
for path in invalid:
    found = list(validator.iter_errors(load(path)))
    print(f"{path}: {'rejected' if found else 'NOT REJECTED'}")
    if not found:
        failures.append(f"{path}: the schema accepts it, but validate rejects it")

if failures:
    print("\n".join(["schema check failed:"] + failures), file=sys.stderr)
    sys.exit(1)
