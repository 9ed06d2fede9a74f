#!/usr/bin/env python3
"""Print the structure PlantUML itself parses from a .puml file, as JSON: a reference for FlowLens's
FlowKit loader.

    scripts/plantuml-structure.py FILE.puml [--define NAME=value ...] [--jar PLANTUML_JAR] [--no-cache]
    scripts/plantuml-structure.py --batch FILE.puml... [--define NAME=value ...]   (one JVM for them all)

For each `@startuml ... @enduml` block that PlantUML parses as a STATE diagram it prints the states
(with their parent composite), the `[*]` pseudo-states of each composite, the transitions
(from, to, label) and the notes, as PlantUML's own parser built them. Other blocks (class diagrams of
FlowKit models, ...) are listed under "skipped" with their diagram type.

`--define NAME=value` sets an environment variable for the PlantUML process (which otherwise
inherits this one's environment): that is what the preprocessor's `%getenv("NAME")` reads
(PlantUML 1.2020.2 looks at the Java system property NAME, then at the environment variable; an
unset name gives ""). Only the `--define`s are echoed under "defines". Nothing is written next to
the input: the process runs in a temporary directory; the compiled helper is cached in
`${XDG_CACHE_HOME:-~/.cache}/flowlens/plantuml-structure/` (`--no-cache` compiles it in memory on
every run instead).

Exit status: 0 when PlantUML accepts the file; 1 when it reports an error (a syntax or preprocessor
error in a block, or no diagram at all, e.g. `@startuml` without `@enduml`), with one
`FILE:LINE: plantuml: MESSAGE` line per error on stderr (the JSON is still printed); 2 when
PlantUML or Java cannot be run.

Output (sorted keys, two-space indent; lists in PlantUML's order, which is the source order):

    {"file": ..., "plantuml": "1.2020.02", "defines": {NAME: value},
     "diagrams": [{"line": <line of @startuml>, "endLine": <line of @enduml>, "title": str|null,
                   "states": [{"name", "display", "kind", "parent", "description": [lines]}],
                   "pseudoStates": [{"id", "kind", "parent"}],
                   "transitions": [{"from", "to", "label", "hidden"}],
                   "notes": [{"id", "text", "parent", "attachedTo": [names]}]}],
     "skipped": [{"line", "endLine", "diagram"}],
     "errors": [{"line", "message", "block"}],
     "warnings": [str]}

- Lines are 1-based lines of the input file.
- `states` are in the order PlantUML created them: first mention (a concurrent region is created
  at its `--`, after the states above it). `kind` is "state", "composite" (a `state X { ... }`),
  "choice" (`<<choice>>`), "fork-join" (`<<fork>>`/`<<join>>`) or "region" (a concurrent region
  of a composite split by `--`; PlantUML names it `CONC<n>`). `parent` is the enclosing composite
  (or region), null at the top level. `description` is the state's body lines: `Prompt: String?`
  gives ["String?"], which FlowKit reads as the context type.
- `pseudoStates` are PlantUML's own entities for `[*]` and `[H]`: `*start`/`*end` at the top level,
  `*start*X`/`*end*X` inside composite X (`[*]` as a source is the start, as a target the end), and
  `*historical*X` for `[H]`; `kind` is "start", "end" or "history". Transitions name them by id.
- `transitions` are in declaration order, always in the written direction (A to B for
  `A -up-> B`, which PlantUML stores reversed); `label` is the text after `:` (null if none);
  `hidden` is true for `-[hidden]->` layout links. Links between a note and a state are not
  transitions: they are the note's `attachedTo`.

How the structure is obtained, and why (observed with PlantUML 1.2020.02, Debian package, Java 17):

- `-tscxml` (exists in this version) is flat and lossy: composite states vanish together with
  their own outgoing transitions (`CreateAccount --> Authenticate` is missing from LoginFlow.puml's
  SCXML), their `[*]` become `startCreateAccount`/`endCreateAccount`, notes become states, state
  descriptions are dropped, and a file whose second block is a class diagram makes it throw a
  ClassCastException (exit 1).
- `-txmi` has nesting (UML:State inside UML:State), descriptions (UML:Attribute) and labels
  (UML:Association name), but: links written `A -up-> B` or `A -left-> B` come out as B to A
  (the exporter writes PlantUML's internally reversed link); notes come out as states named after
  their first line (`note "Hi" as N1` is indistinguishable from a state `Hi`); `<<choice>>` and
  `<<fork>>` states are plain states; and a block with a syntax error makes the exporter throw
  (UnsupportedOperationException: XMI_STANDARD) without saying where the error is.
- `-tsvg` has no `<!--entity X-->` comments in this version, only `<!--MD5=[...]\\nlink A to B-->`
  (or `reverse link B to A` for -up->/-left->) per link: no labels, no nesting, no descriptions,
  no list of states; everything else is geometry.
- `-syntax` (source on stdin) gives only "ERROR", a line number and "Syntax Error?", one block at a
  time; the number is not reliably the file's line (0-based for a file that starts with
  `@startuml`, shifted otherwise). `plantuml FILE` prints "Error line N in file: ..." with a 0-based
  N, and "Warning: no image in FILE" (exit 100) when no block is closed by `@enduml`.
- Things PlantUML 1.2020.2 itself rejects in a state diagram (syntax error): `B <-- A` and
  `B <- A` (reversed arrows), `[H*]` (deep history), `!procedure` (the preprocessor of this version
  has `!function` but not `!procedure`), a link drawn to a note (`N .. B`, `N -- B`).

None of them gives states, nesting and edges faithfully, so this script asks PlantUML's parser
directly: a small Java program (below), compiled with javac against the same plantuml.jar the
`plantuml` command runs (or run by Java's single-file source launcher when that fails), reads the file with PlantUML's SourceStringReader
(preprocessor included: `!if`, `%getenv`, `!include` relative to the file's folder), and walks the
StateDiagram PlantUML built: leaves with their LeafType (STATE, CIRCLE_START, CIRCLE_END, NOTE,
STATE_CHOICE, STATE_FORK_JOIN, PSEUDO_STATE), groups with their GroupType (STATE,
CONCURRENT_STATE) and parent container, body lines, and links with their label and `isInverted()`
flag (set for -up->/-left->, whose entities PlantUML swaps). Errors are PlantUML's own
(PSystemError: message and line). This reads PlantUML internals of the 1.2020 line; with another
version the Java compile may fail, and the script says so (exit 2).

One run costs one JVM start: about 0.45 s per file here with the cached helper (1 s the first
time, or with --no-cache); --batch reads every file named in that one JVM (the agreement test's 41
files in one run per set of --defines). A batch prints what single runs print, except for the names
PlantUML generates from a counter that runs on across the JVM's files (unnamed notes `GMN<n>`,
concurrent regions `CONC<n>`). For comparison, `plantuml -tsvg` on the 13 samples of samples/flowkit
takes 1.2 s in one call and 6.5 s as 13 calls: JVM start-up (0.5 s) dominates.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

JAVA_SOURCE = r"""
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.*;
import net.sourceforge.plantuml.*;
import net.sourceforge.plantuml.core.Diagram;
import net.sourceforge.plantuml.cucadiagram.*;
import net.sourceforge.plantuml.error.PSystemError;
import net.sourceforge.plantuml.preproc.Defines;
import net.sourceforge.plantuml.statediagram.StateDiagram;
import net.sourceforge.plantuml.version.Version;

public class PlantUMLStructure {
    static String q(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c)); else b.append(c);
            }
        }
        return b.append('"').toString();
    }

    static String lines(Display d) {
        if (d == null || Display.isNull(d)) return null;
        List<String> out = new ArrayList<>();
        for (CharSequence cs : d) out.add(cs.toString());
        return String.join("\n", out);
    }

    static String list(Collection<String> items) {
        StringBuilder b = new StringBuilder("[");
        for (String s : items) { if (b.length() > 1) b.append(','); b.append(q(s)); }
        return b.append(']').toString();
    }

    static int line(LineLocation l) { return l == null ? -1 : l.getPosition() + 1; }

    static String parent(IEntity e, IGroup root) {
        IGroup p = e.getParentContainer();
        return (p == null || p == root) ? null : p.getCodeGetName();
    }

    static int order(IEntity e) {
        String digits = e.getUid().replaceAll("[^0-9]", "");
        return digits.isEmpty() ? Integer.MAX_VALUE : Integer.parseInt(digits);
    }

    static String leafKind(LeafType t) {
        switch (t.name()) {
            case "STATE": return "state";
            case "STATE_CHOICE": return "choice";
            case "STATE_FORK_JOIN": return "fork-join";
            case "CIRCLE_START": return "start";
            case "CIRCLE_END": return "end";
            case "PSEUDO_STATE": return "history";
            case "NOTE": return "note";
            default: return t.name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    static String stateDiagram(StateDiagram d) {
        IGroup root = d.getRootGroup();
        List<IEntity> entities = new ArrayList<>();
        entities.addAll(d.getGroups(false));
        entities.addAll(d.getLeafsvalues());
        entities.sort(Comparator.comparingInt(PlantUMLStructure::order));
        Set<IEntity> notes = new HashSet<>();
        Map<IEntity, List<String>> attached = new HashMap<>();
        List<String> states = new ArrayList<>(), pseudo = new ArrayList<>();
        for (IEntity e : entities) {
            if (e == root) continue;
            String name = e.getCodeGetName();
            if (e.isGroup()) {
                GroupType g = ((IGroup) e).getGroupType();
                String kind = g == GroupType.CONCURRENT_STATE ? "region" : g == GroupType.STATE ? "composite" : g.name().toLowerCase(Locale.ROOT);
                states.add("{\"name\":" + q(name) + ",\"display\":" + q(lines(e.getDisplay())) + ",\"kind\":" + q(kind)
                    + ",\"parent\":" + q(parent(e, root)) + ",\"description\":" + list(e.getBodier().getRawBody()) + "}");
                continue;
            }
            String kind = leafKind(e.getLeafType());
            if (kind.equals("note")) { notes.add(e); attached.put(e, new ArrayList<>()); continue; }
            if (kind.equals("start") || kind.equals("end") || kind.equals("history")) {
                pseudo.add("{\"id\":" + q(name) + ",\"kind\":" + q(kind) + ",\"parent\":" + q(parent(e, root)) + "}");
                continue;
            }
            states.add("{\"name\":" + q(name) + ",\"display\":" + q(lines(e.getDisplay())) + ",\"kind\":" + q(kind)
                + ",\"parent\":" + q(parent(e, root)) + ",\"description\":" + list(e.getBodier().getRawBody()) + "}");
        }
        List<String> transitions = new ArrayList<>();
        for (Link l : d.getLinks()) {
            IEntity a = l.getEntity1(), b = l.getEntity2();
            if (l.isInverted()) { IEntity t = a; a = b; b = t; }
            if (notes.contains(a) || notes.contains(b)) {
                if (notes.contains(a)) attached.get(a).add(b.getCodeGetName());
                if (notes.contains(b)) attached.get(b).add(a.getCodeGetName());
                continue;
            }
            transitions.add("{\"from\":" + q(a.getCodeGetName()) + ",\"to\":" + q(b.getCodeGetName())
                + ",\"label\":" + q(lines(l.getLabel())) + ",\"hidden\":" + (l.isHidden() || l.isInvis() || l.getType().isInvisible()) + "}");
        }
        List<String> noteJSON = new ArrayList<>();
        for (IEntity e : entities) {
            if (!notes.contains(e)) continue;
            noteJSON.add("{\"id\":" + q(e.getCodeGetName()) + ",\"text\":" + q(lines(e.getDisplay()))
                + ",\"parent\":" + q(parent(e, root)) + ",\"attachedTo\":" + list(attached.get(e)) + "}");
        }
        String title = d.getTitle() == null ? null : lines(d.getTitle().getDisplay());
        return ",\"diagram\":\"state\",\"title\":" + q(title)
            + ",\"states\":[" + String.join(",", states) + "]"
            + ",\"pseudoStates\":[" + String.join(",", pseudo) + "]"
            + ",\"transitions\":[" + String.join(",", transitions) + "]"
            + ",\"notes\":[" + String.join(",", noteJSON) + "]";
    }

    // One JSON line per file named: a batch of files costs one JVM start.
    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            String line;
            try { line = structure(arg); }
            catch (Throwable t) { line = "{\"exception\":" + q(t.toString()) + "}"; }
            System.out.println(line);
        }
    }

    static String structure(String path) throws Exception {
        File file = new File(path).getAbsoluteFile();
        String source = new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8);
        SourceStringReader reader = new SourceStringReader(Defines.createWithFileName(file), source, "UTF-8",
            Collections.<String>emptyList(), file.getParentFile());
        List<String> blocks = new ArrayList<>();
        for (BlockUml block : reader.getBlocks()) {
            List<StringLocated> data = block.getData();
            String head = "{\"line\":" + (data.isEmpty() ? -1 : line(data.get(0).getLocation()))
                + ",\"endLine\":" + (data.isEmpty() ? -1 : line(data.get(data.size() - 1).getLocation()));
            Diagram d = block.getDiagram();
            if (d instanceof PSystemError) {
                List<String> errors = new ArrayList<>();
                for (ErrorUml e : ((PSystemError) d).getErrorsUml())
                    errors.add("{\"line\":" + line(e.getLineLocation()) + ",\"message\":" + q(e.getError()) + "}");
                blocks.add(head + ",\"diagram\":\"error\",\"errors\":[" + String.join(",", errors) + "]}");
            } else if (d instanceof StateDiagram) {
                String finalError = ((StateDiagram) d).checkFinalError();
                String errors = finalError == null ? "" : ",\"errors\":[{\"line\":" + line(data.get(0).getLocation()) + ",\"message\":" + q(finalError) + "}]";
                blocks.add(head + stateDiagram((StateDiagram) d) + errors + "}");
            } else {
                String type = d instanceof UmlDiagram ? ((UmlDiagram) d).getUmlDiagramType().name().toLowerCase(Locale.ROOT) : d.getClass().getSimpleName();
                blocks.add(head + ",\"diagram\":" + q(type) + "}");
            }
        }
        return "{\"version\":" + q(Version.versionString()) + ",\"blocks\":[" + String.join(",", blocks) + "]}";
    }
}
"""


def fail(message, status=2):
    print(f"plantuml-structure: {message}", file=sys.stderr)
    sys.exit(status)


def find_jar(explicit):
    """The plantuml.jar the `plantuml` command runs: --jar, $PLANTUML_JAR, the launcher's `-jar`."""
    candidates = [explicit, os.environ.get("PLANTUML_JAR")]
    launcher = shutil.which("plantuml")
    if launcher:
        try:
            with open(launcher, "rb") as handle:
                head = handle.read(65536)
            if head.startswith(b"#!"):
                match = re.search(rb"-jar\s+(\S+\.jar)", head)
                if match:
                    candidates.append(match.group(1).decode())
            elif launcher.endswith(".jar"):
                candidates.append(launcher)
        except OSError:
            pass
    candidates.append("/usr/share/plantuml/plantuml.jar")
    for candidate in candidates:
        if candidate and os.path.isfile(candidate):
            return candidate
    fail("cannot find plantuml.jar (tried --jar, $PLANTUML_JAR, the `plantuml` launcher, /usr/share/plantuml)")


def find_java():
    home = os.environ.get("JAVA_HOME")
    if home and os.access(os.path.join(home, "bin", "java"), os.X_OK):
        return os.path.join(home, "bin", "java")
    java = shutil.which("java")
    if not java:
        fail("cannot find java (needed to run PlantUML)")
    return java


def compiled_helper(java, jar):
    """The helper compiled once per (source, jar, JDK) in the user's cache directory, or None when it
    cannot be (no javac next to java, unwritable cache): then the source launcher is used."""
    javac = os.path.join(os.path.dirname(os.path.realpath(java)), "javac")
    if not os.access(javac, os.X_OK):
        return None
    try:
        stat = os.stat(jar)
    except OSError:
        return None
    key = hashlib.sha256("\0".join([JAVA_SOURCE, os.path.realpath(jar), str(stat.st_size), str(stat.st_mtime_ns),
                                     os.path.realpath(java)]).encode()).hexdigest()[:16]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    target = os.path.join(base, "flowlens", "plantuml-structure", key)
    if os.path.isfile(os.path.join(target, "PlantUMLStructure.class")):
        return target
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        staging = tempfile.mkdtemp(prefix=key + ".", dir=os.path.dirname(target))
        source = os.path.join(staging, "PlantUMLStructure.java")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(JAVA_SOURCE)
        result = subprocess.run([javac, "-nowarn", "-encoding", "UTF-8", "-cp", jar, "-d", staging, source],
                                capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            shutil.rmtree(staging, ignore_errors=True)
            return None  # the source launcher will run it and report the compile error
        os.remove(source)
        try:
            os.rename(staging, target)
        except OSError:  # another run got there first
            shutil.rmtree(staging, ignore_errors=True)
        return target if os.path.isfile(os.path.join(target, "PlantUMLStructure.class")) else None
    except (OSError, subprocess.TimeoutExpired):
        return None


def parse_define(text):
    name, sep, value = text.partition("=")
    if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise argparse.ArgumentTypeError(f"expected NAME=value, got {text!r}")
    return name, value


def unclosed_starts(path, blocks):
    """@startuml lines PlantUML dropped because no @enduml follows (it ignores them silently)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    covered = [(b["line"], b["endLine"]) for b in blocks]
    return [number for number, text in enumerate(lines, start=1)
            if re.match(r"\s*@startuml\b", text) and not any(start <= number <= end for start, end in covered)]


def structure(path, parsed, defines):
    """The output for one file from the helper's JSON line: (exit status, output, stderr lines)."""
    if "exception" in parsed:
        return 2, None, [f"plantuml-structure: PlantUML failed on {path}: {parsed['exception']}"]
    blocks = parsed["blocks"]
    diagrams, skipped, errors = [], [], []
    for index, block in enumerate(blocks):
        for error in block.pop("errors", []):
            errors.append({"block": index, "line": error["line"], "message": error["message"]})
        if block["diagram"] == "state":
            block.pop("diagram")
            diagrams.append(block)
        else:
            skipped.append({key: block[key] for key in ("line", "endLine", "diagram")})
    unclosed = unclosed_starts(path, blocks)
    warnings = [f"line {number}: @startuml without a following @enduml: PlantUML ignores this block"
                for number in unclosed]
    if not blocks:
        # What `plantuml FILE` says: "Warning: no image in FILE" (exit 100); with -pipe, "No diagram found".
        errors.append({"block": None, "line": unclosed[0] if unclosed else None,
                       "message": "no diagram found: no @startuml ... @enduml block"
                                  + (" (@startuml without @enduml)" if unclosed else "")})

    output = {"file": path, "plantuml": parsed["version"], "defines": dict(sorted(defines)),
              "diagrams": diagrams, "skipped": skipped, "errors": errors, "warnings": warnings}
    messages = [f"{path}: warning: {warning}" for warning in warnings]
    for error in errors:
        where = f"{path}:{error['line']}" if error["line"] else path
        messages.append(f"{where}: plantuml: {error['message']}")
    return (1 if errors else 0), output, messages


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", metavar="file", help="a .puml file (several with --batch)")
    parser.add_argument("--define", action="append", type=parse_define, default=[], metavar="NAME=value",
                        help="environment variable for the PlantUML process (read by %%getenv); repeatable")
    parser.add_argument("--jar", help="plantuml.jar to use (default: the one the `plantuml` command runs)")
    parser.add_argument("--no-cache", action="store_true",
                        help="do not compile the Java helper into ~/.cache/flowlens (slower: compiled on every run)")
    parser.add_argument("--batch", action="store_true",
                        help="every FILE in one JVM: prints {\"results\": [{\"file\", \"status\", \"output\", "
                             "\"stderr\"}]}, each what one run on that file would print and exit with; exit 0, "
                             "or 2 when PlantUML cannot run")
    args = parser.parse_args()
    if len(args.files) > 1 and not args.batch:
        parser.error("several files need --batch")

    for path in args.files:
        if not os.path.isfile(path):
            fail(f"{path}: no such file")
    jar, java = find_jar(args.jar), find_java()
    environment = dict(os.environ)
    environment.update(dict(args.define))

    with tempfile.TemporaryDirectory(prefix="plantuml-structure-") as workdir:
        classes = None if args.no_cache else compiled_helper(java, jar)
        if classes:
            launch = ["-cp", os.pathsep.join([jar, classes]), "PlantUMLStructure"]
        else:  # Java's single-file source launcher compiles the helper in memory (about 0.6 s more).
            helper = os.path.join(workdir, "PlantUMLStructure.java")
            with open(helper, "w", encoding="utf-8") as handle:
                handle.write(JAVA_SOURCE)
            launch = ["-cp", jar, helper]
        command = [java, "-Djava.awt.headless=true", "-Dfile.encoding=UTF-8", *launch,
                   *[os.path.abspath(path) for path in args.files]]
        try:
            result = subprocess.run(command, cwd=workdir, env=environment, capture_output=True, text=True,
                                    timeout=300 * len(args.files))
        except (OSError, subprocess.TimeoutExpired) as error:
            fail(f"cannot run PlantUML: {error}")
    if result.returncode != 0:
        detail = result.stderr.strip()
        if "error: compilation failed" in detail or "cannot find symbol" in detail:
            detail = (f"the helper does not compile against {jar}; it reads PlantUML 1.2020 internals "
                      f"(is this another PlantUML version?)\n{detail}")
        fail(f"PlantUML failed (exit {result.returncode}):\n{detail}")
    lines = result.stdout.splitlines()
    if len(lines) != len(args.files):
        fail(f"the helper printed {len(lines)} lines for {len(args.files)} files:\n{result.stdout[:2000]}")
    results = []
    for path, line in zip(args.files, lines):
        try:
            parsed = json.loads(line)
        except json.JSONDecodeError as error:
            fail(f"unreadable helper output ({error}):\n{line[:2000]}")
        results.append((path, *structure(path, parsed, args.define)))

    if args.batch:
        batch = {"results": [{"file": path, "status": status, "output": output, "stderr": "".join(m + "\n" for m in messages)}
                             for path, status, output, messages in results]}
        json.dump(batch, sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    path, status, output, messages = results[0]
    if output is None:
        fail("\n".join(messages).removeprefix("plantuml-structure: "))
    json.dump(output, sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")
    for message in messages:
        print(message, file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
