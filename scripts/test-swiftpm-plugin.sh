#!/usr/bin/env bash
# Tests FlowLens's SwiftPM plugins with an example package:
#   scripts/test-swiftpm-plugin.sh            the plugins built from source, with examples/swiftpm-plugin
#                                             (it compiles FlowLens and swift-syntax again: scripts/test.sh
#                                             --all and --packages run it, not the default CI run);
#   scripts/test-swiftpm-plugin.sh --binary   (scripts/test.sh, CI) the binary plugins (FlowLensPlugins), with
#                                             examples/swiftpm-binary-plugin, on an artifact bundle of
#                                             the debug binary already built (no release build here);
#   1. the build-tool plugin checks the sample's flow during `swift build`, and the build passes;
#   2. the command plugin is listed, and `swift package flowlens` checks the targets and exits 0;
#   3. with a planted defect (a flow file added to the target for the test, removed after it),
#      `swift build` fails with the finding as a `file:line:col: error:` line, and `swift package
#      flowlens` fails too; without it, the build passes again.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --binary ]; then
  name=test-swiftpm-binary-plugin
  scripts/make-artifact-bundle.sh --debug
  sample=examples/swiftpm-binary-plugin
  target=Orders
  files='["Sources/Orders/Flows/cancel-order.flow.yaml", "Sources/Orders/Orders.swift"]'
else
  name=test-swiftpm-plugin
  sample=examples/swiftpm-plugin
  target=Returns
  files='["Sources/Returns/Flows/return-item.flow.yaml", "Sources/Returns/Returns.swift"]'
fi
fail() { echo "$name: FAILED: $*" >&2; exit 1; }
# `swift package` itself (SwiftPM, not FlowLens) once died of a segmentation fault in its own exit
# path, after the plugin had failed as it should on the planted defect (a bad pointer in libdispatch's
# event loop while it built its usage text for the error; Swift 6.3.1, a CI run on one core), before
# printing the plugin's findings. A run killed by a signal is repeated once; the repeat must pass the
# same checks, so a crash of FlowLens's own binary, which is an exit status, is never hidden.
swift_package() {
  local status=0
  swift package "$@" || status=$?
  if [ "$status" -ge 128 ]; then
    echo "$name: swift package $* was killed by signal $((status - 128)) (SwiftPM crashed); running it again" >&2
    status=0
    swift package "$@" || status=$?
  fi
  return "$status"
}
log=$(mktemp)
planted=$sample/Sources/$target/Flows/planted-defect.flow.yaml
trap 'rm -f "$log" "$planted"' EXIT

# 1. swift build runs the check (its stamp removed first, so it reruns even when the build is warm).
find "$sample/.build/plugins/outputs" -name 'FlowLensChecked*.swift' -delete 2>/dev/null || true
swift build --package-path "$sample" >"$log" 2>&1 || { cat "$log"; fail "swift build of the clean sample failed"; }
grep -q "0 errors, 0 warnings in 1 flow (2 files)" "$log" || { cat "$log"; fail "swift build did not run FlowLens on the sample's 2 files"; }
if [ "$name" = test-swiftpm-binary-plugin ]; then
  # The point of the binary plugins: nothing of FlowLens is compiled, only the bundle's binary runs.
  ! grep -qE "Compiling (SwiftSyntax|FlowLoaders|flowlens)" "$log" || { cat "$log"; fail "swift build compiled FlowLens's sources"; }
  [ -z "$(ls -A "$sample/.build/checkouts" 2>/dev/null)" ] || fail "swift build fetched dependencies ($(ls "$sample/.build/checkouts"))"
fi
echo "$name: ok: swift build ran FlowLens on the clean sample and passed"

# 2. The command plugin.
swift package --package-path "$sample" plugin --list 2>/dev/null | grep -q "FlowLensCommandPlugin" || fail "the command plugin is not listed"
swift_package --package-path "$sample" flowlens >"$log" 2>&1 || { cat "$log"; fail "swift package flowlens failed on the clean sample"; }
grep -q "0 errors, 0 warnings in 1 flow (2 files)" "$log" || { cat "$log"; fail "swift package flowlens did not check the targets"; }
swift_package --package-path "$sample" flowlens check --format json 2>/dev/null >"$log" || fail "swift package flowlens check --format json failed"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["files"] == json.loads(sys.argv[2]), r["files"]; assert r["findings"] == []' "$log" "$files" \
    || fail "swift package flowlens check --format json did not print the sample's report"
echo "$name: ok: swift package flowlens checked the targets and exited 0"

# 3. A planted defect, in a flow file added for the test and removed after it (the trap): 'Ship'
#    reads `address`, which nothing writes.
cat >"$planted" <<'YAML'
version: 1
flows:
  - name: Planted defect
    steps:
      - id: ship
        reads: {address: String}
        next: done
      - id: done
        kind: end
YAML
status=0
swift build --package-path "$sample" >"$log" 2>&1 || status=$?
[ "$status" -ne 0 ] || { cat "$log"; fail "swift build passed with a planted error finding"; }
grep -q "^Sources/$target/Flows/planted-defect.flow.yaml:6:17: error: step 'ship' reads 'address', but.*\[missing-data-key\]$" "$log" \
    || { cat "$log"; fail "swift build did not print the planted finding as file:line:col: error:"; }
echo "$name: ok: swift build failed on the planted defect (status $status) with the finding"
status=0
swift_package --package-path "$sample" flowlens >"$log" 2>&1 || status=$?
[ "$status" -ne 0 ] || { cat "$log"; fail "swift package flowlens passed with a planted error finding"; }
grep -q "Plugin ended with exit code 1" "$log" && grep -q "planted-defect.flow.yaml:6:17: error: .*\[missing-data-key\]" "$log" \
    || { cat "$log"; fail "swift package flowlens did not report the planted finding with flowlens's status 1"; }
echo "$name: ok: swift package flowlens failed on the planted defect (flowlens status 1, swift package status $status)"
rm -f "$planted"
swift build --package-path "$sample" >"$log" 2>&1 || { cat "$log"; fail "swift build failed after the planted defect was removed"; }
echo "$name: ok: swift build passes again once the defect is removed"
