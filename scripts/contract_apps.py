"""Checks that docs/openapi.yaml describes the apps a live navlogd serves (scripts/contract).

The schema of POST /v1/sessions lists the built-in apps and their parameters; GET /v1/apps says
what the daemon accepts. schemathesis finds a parameter the schema allows and the daemon
refuses, but not one the daemon gained and the schema lacks: this compares them both ways.

    python3 contract_apps.py OPENAPI_YAML BASE_URL TOKEN
"""
import json
import re
import sys
import urllib.request

import yaml


def expected_schema(parameter):
    """The JSON schema of a parameter, from the `expected` text of GET /v1/apps."""
    text = parameter["expected"]
    if text == "any text":
        return {"type": "string"}
    if text == "true or false":
        return {"type": "boolean"}
    if text.startswith("one of "):
        return {"type": "string", "enum": text[len("one of "):].split(", ")}
    match = re.fullmatch(r"an? (integer|number) from (\S+) to (\S+)", text)
    if match:
        kind, low, high = match.groups()
        cast = int if kind == "integer" else float
        return {"type": kind, "minimum": cast(low), "maximum": cast(high)}
    raise SystemExit(f"contract: {parameter['name']}: cannot read expected '{text}'")


def main(spec_path, base_url, token):
    spec = yaml.safe_load(open(spec_path))
    schemas = spec["components"]["schemas"]
    variants = spec["paths"]["/v1/sessions"]["post"]["requestBody"]["content"]["application/json"]["schema"]["oneOf"]
    documented = {}
    for variant in variants:
        schema = schemas[variant["$ref"].split("/")[-1]]
        (app,) = schema["properties"]["app"]["enum"]
        properties = schema["properties"]["parameters"]["properties"]
        documented[app] = {name: schemas[p["$ref"].split("/")[-1]] if "$ref" in p else p for name, p in properties.items()}

    request = urllib.request.Request(base_url + "/v1/apps", headers={"Authorization": f"Bearer {token}"})
    served = {app["name"]: app["parameters"] for app in json.load(urllib.request.urlopen(request, timeout=10))["apps"]}

    problems = []
    if sorted(documented) != sorted(served):
        problems.append(f"apps: docs/openapi.yaml lists {sorted(documented)}, navlogd serves {sorted(served)}")
    for app in sorted(set(documented) & set(served)):
        names = [p["name"] for p in served[app]]
        if sorted(documented[app]) != sorted(names):
            problems.append(f"{app}: docs/openapi.yaml has parameters {sorted(documented[app])}, navlogd {sorted(names)}")
            continue
        for parameter in served[app]:
            want = expected_schema(parameter)
            have = {key: documented[app][parameter["name"]].get(key) for key in want}
            if have != want:
                problems.append(f"{app}.{parameter['name']}: docs/openapi.yaml says {have}, navlogd expects {want}")
    for problem in problems:
        print(f"contract: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"contract: the {len(served)} apps and their parameters match GET /v1/apps")


if __name__ == "__main__":
    main(*sys.argv[1:])
