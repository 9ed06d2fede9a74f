#!/usr/bin/env bash
# Packs `flowlens` as a SwiftPM artifact bundle, FlowLensPlugins/FlowLensBinary.artifactbundle, for the
# binary plugins (FlowLensPlugins/Package.swift): packages using them run this binary during
# `swift build` instead of compiling FlowLens and swift-syntax from source.
#
#   scripts/make-artifact-bundle.sh            a release build, with Swift's standard library linked
#                                              statically (the binary needs only Graphviz's shared
#                                              libraries and the C library); for releases and measurements
#   scripts/make-artifact-bundle.sh --debug    the debug binary already built in .build/debug (no build):
#                                              what scripts/test.sh tests the binary plugins with, cheaply
#   scripts/make-artifact-bundle.sh --binary PATH   packs that binary (no build)
#   scripts/make-artifact-bundle.sh --output DIR    writes the bundle into DIR instead of FlowLensPlugins/
#                                              (relative paths are relative to the repository root)
#   scripts/make-artifact-bundle.sh --zip      also writes FlowLensBinary.artifactbundle.zip and prints
#                                              its checksum (`swift package compute-checksum`), for a
#                                              `.binaryTarget(url:checksum:)` in a release
#
# The bundle is built, never committed (.gitignore). It holds one variant: this machine's target
# triple (e.g. x86_64-unknown-linux-gnu); a release for more platforms adds one variant a machine.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=release
zip=false
binary=
output=FlowLensPlugins
while [ $# -gt 0 ]; do
  case "$1" in
    --debug) mode=debug; binary=.build/debug/flowlens ;;
    --binary) [ $# -ge 2 ] || { echo "make-artifact-bundle: --binary needs a path" >&2; exit 2; }; mode=given; binary=$2; shift ;;
    --output) [ $# -ge 2 ] || { echo "make-artifact-bundle: --output needs a folder" >&2; exit 2; }; output=$2; shift ;;
    --zip) zip=true ;;
    *) echo "make-artifact-bundle: unknown option '$1' (use --debug, --binary PATH, --output DIR, --zip)" >&2; exit 2 ;;
  esac
  shift
done

version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/FlowModel/Version.swift)
[ -n "$version" ] || { echo "make-artifact-bundle: no version in Sources/FlowModel/Version.swift" >&2; exit 1; }
# The first unversionedTriple of the target info is the target's (the runtime's follow).
triple=$(swiftc -print-target-info | sed -n 's/.*"unversionedTriple": *"\([^"]*\)".*/\1/p' | head -n 1)
[ -n "$triple" ] || { echo "make-artifact-bundle: swiftc -print-target-info names no target triple" >&2; exit 1; }

if [ "$mode" = release ]; then
  # A scratch path of its own, so the release build never waits for (or disturbs) the debug one.
  scratch=${FLOWLENS_RELEASE_SCRATCH:-.build-release}
  swift build -c release --product flowlens --static-swift-stdlib --scratch-path "$scratch" >&2
  binary="$scratch/release/flowlens"
fi
[ -x "$binary" ] || { echo "make-artifact-bundle: $binary is not built (swift build --product flowlens)" >&2; exit 1; }
mkdir -p "$output"

bundle=$output/FlowLensBinary.artifactbundle
variant="flowlens-$version-$triple"
staging=$(mktemp -d "$output/.bundle.XXXXXX")
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/$variant/bin"
cp "$binary" "$staging/$variant/bin/flowlens"
[ "$mode" = release ] && strip "$staging/$variant/bin/flowlens" 2>/dev/null || true
cat > "$staging/info.json" <<JSON
{
  "schemaVersion": "1.0",
  "artifacts": {
    "flowlens": {
      "version": "$version",
      "type": "executable",
      "variants": [
        {
          "path": "$variant/bin/flowlens",
          "supportedTriples": ["$triple"]
        }
      ]
    }
  }
}
JSON
# Replaced whole, so a bundle is never half written.
rm -rf "$bundle"
mv "$staging" "$bundle"
trap - EXIT
echo "make-artifact-bundle: $bundle ($mode, $triple, $(du -h "$bundle/$variant/bin/flowlens" | cut -f1))" >&2

if [ "$zip" = true ]; then
  rm -f "$bundle.zip"
  (cd "$output" && zip -qry FlowLensBinary.artifactbundle.zip FlowLensBinary.artifactbundle)
  echo "make-artifact-bundle: $bundle.zip, checksum $(swift package compute-checksum "$bundle.zip")" >&2
fi
