#!/usr/bin/env bash
# Seeds the corpus of one fuzz target: scripts/fuzz/seeds.sh TARGET FOLDER (scripts/fuzz.sh calls it
# for a corpus that does not exist yet). The seeds are the files FlowLens reads in samples/ and in
# the tests' fixtures, chosen by kind: Swift files by the library they import; the writer targets,
# whose input is bytes decoded into a flow graph (Sources/FlowLensFuzzing/FuzzGraph.swift), start
# from the declarative samples' bytes and from the saved regression inputs. Nothing here is
# committed: a corpus grows in .build/fuzz-corpus/ as libFuzzer finds new paths.
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: seeds.sh TARGET FOLDER}
folder=${2:?usage: seeds.sh TARGET FOLDER}
mkdir -p "$folder"
roots=(samples Tests/FlowLoadersTests/Fixtures Tests/FlowReflectionTests)

files() { find "${roots[@]}" -type f \( "$@" \) -not -path '*/.build/*' | sort; }
swift_importing() { files -name '*.swift' | xargs grep -l -E "^import ($1)\$" || true; }

case "$target" in
  yaml) list=$(files -name '*.flow.yaml' -o -name '*.flow.yml') ;;
  json) list=$(files -name '*.flow.json') ;;
  flowios) list=$(swift_importing 'Flow_iOS') ;;
  flowstate) list=$(swift_importing 'FlowState') ;;
  syrup) list=$(swift_importing 'Syrup') ;;
  elevate) list=$(files -name '*.rb') ;;
  plantuml) list=$(files -name '*.puml' -o -name '*.plantuml') ;;
  dot | svg | mermaid | review | reports) list=$(files -name '*.flow.yaml' -o -name '*.flow.json') ;;
  *) echo "seeds.sh: unknown target '$target'" >&2; exit 2 ;;
esac
n=0
for file in $list; do
  cp "$file" "$folder/seed-$(printf '%03d' $n)-$(basename "$file")"
  n=$((n + 1))
done
regressions=Tests/FlowLensFuzzingTests/Regressions/$target
if [ -d "$regressions" ]; then
  for file in "$regressions"/*; do [ -f "$file" ] && cp "$file" "$folder/regression-$(basename "$file")"; done
fi
# libFuzzer needs at least one input to start from.
[ "$(ls -A "$folder")" ] || printf 'x' > "$folder/seed-empty"
echo "seeds.sh: $target: $(ls "$folder" | wc -l) seeds in $folder" >&2
