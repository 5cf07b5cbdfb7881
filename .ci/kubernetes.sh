#!/usr/bin/env bash
# Checks deploy/kubernetes/: every manifest validates in strict mode (an unknown or misspelled field is an error,
# not silently dropped as the API server would) against the Kubernetes JSON schemas kubernetes-validate ships,
# and every file the ConfigMap copies from the repository is byte-identical to it.
#
#   .ci/kubernetes.sh [DIR]    # DIR defaults to deploy/kubernetes; the copies are compared with this repository
#
# The versions: 1.33 is the oldest Kubernetes the manifests are meant for (backoffLimitPerIndex and the FailIndex
# action of podFailurePolicy are GA there; podFailurePolicy and CronJob timeZone earlier), so a field newer than
# that fails the check; 1.37 is the newest kubernetes-validate 1.37.0 has schemas for.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-deploy/kubernetes}"

KUBERNETES_VALIDATE_VERSION=1.37.0
KUBERNETES_VERSIONS=(1.33.0 1.37.0)

# (--break-system-packages only where the system Python refuses plain installs, PEP 668.)
pip_install() {
  python3 -m pip install -q "$@" 2>/dev/null || python3 -m pip install -q --break-system-packages "$@"
}
installed="$( (python3 -m pip show kubernetes-validate 2>/dev/null || true) | sed -n "s/^Version: //p")"
if [ "$installed" != "$KUBERNETES_VALIDATE_VERSION" ]; then
  pip_install "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION"
fi
python3 -c 'import yaml' 2>/dev/null || pip_install pyyaml

shopt -s nullglob
manifests=("$dir"/*.yaml)
[ "${#manifests[@]}" -gt 0 ] || { echo "no manifests in $dir"; exit 1; }

for version in "${KUBERNETES_VERSIONS[@]}"; do
  echo "== $dir: strict schema validation against Kubernetes $version (kubernetes-validate $KUBERNETES_VALIDATE_VERSION)"
  # kubernetes-validate exits non-zero when any document fails; set -e stops here then.
  python3 -m kubernetes_validate --strict --no-warn -k "$version" "${manifests[@]}"
done

echo "== $dir: the ConfigMap's files are byte-identical to the repository files they copy"
python3 - "$dir" <<'PY'
import pathlib, sys, yaml

directory = pathlib.Path(sys.argv[1])
docs = [d for f in sorted(directory.glob("*.yaml")) for d in yaml.safe_load_all(f.read_text()) if d]

def pod_specs(doc):
    kind, spec = doc.get("kind"), doc.get("spec") or {}
    if kind == "Job":
        yield doc["metadata"]["name"], spec["template"]["spec"]
    elif kind == "CronJob":
        yield doc["metadata"]["name"], spec["jobTemplate"]["spec"]["template"]["spec"]

problems = []
config_maps = {d["metadata"]["name"]: d.get("data") or {} for d in docs if d.get("kind") == "ConfigMap"}
for cm_name, data in config_maps.items():
    # Each workload mounting the ConfigMap maps its keys to paths relative to the mount; those paths are the
    # repository paths of the files the keys copy (see configmap.yaml).
    sources = {}
    for workload, pod in (p for d in docs for p in pod_specs(d)):
        for volume in pod.get("volumes") or []:
            cm = volume.get("configMap")
            if not cm or cm.get("name") != cm_name:
                continue
            items = {i["key"]: i["path"] for i in cm.get("items") or []}
            for key in data:
                if key not in items:
                    problems.append(f"{workload}: volume {volume['name']} does not map key {key} of ConfigMap {cm_name}")
                elif sources.setdefault(key, items[key]) != items[key]:
                    problems.append(f"{workload}: maps {key} to {items[key]}, another workload to {sources[key]}")
            for key in items.keys() - data.keys():
                problems.append(f"{workload}: maps key {key}, which ConfigMap {cm_name} does not have")
    for key, text in data.items():
        if key not in sources:
            problems.append(f"ConfigMap {cm_name}: key {key} is mounted by no workload, so its source is unknown")
            continue
        source = pathlib.Path(sources[key])
        if not source.is_file():
            problems.append(f"ConfigMap {cm_name}: key {key} copies {source}, which is not in the repository")
        elif source.read_bytes() != text.encode():
            problems.append(f"ConfigMap {cm_name}: key {key} differs from {source}: copy the file in again")
        else:
            print(f"{cm_name}/{key} == {source}")

if not config_maps:
    problems.append(f"no ConfigMap in {directory}")
for p in problems:
    print(f"error: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
