#!/usr/bin/env python3
"""Render Mermaid files with the real Mermaid library in headless Chromium; fail on any error, and on
any label that does not read as FlowLens meant it to.

Usage: python3 scripts/validate-mermaid.py [--no-labels] FILE_OR_DIR...

Each FILE is a `.mmd` file (one diagram) or a `.md` file (every ```mermaid block in it); a DIR is
searched recursively for both. All diagrams are rendered in one page, offline: the page loads the
`mermaid.js` that the `mmdc` package ships (scripts/bootstrap.sh --test installs it from PyPI; only its
bundled JavaScript file is used, not its own renderer) from a temporary folder, with Mermaid's
default limits (maxTextSize 50000, maxEdges 500) and securityLevel "strict", and calls
`mermaid.render` on each diagram. Chromium is Debian's `chromium`, run headless with no network use.

Then it reads what the rendered SVG shows: the text of every node, state, note and edge label. A
diagram FlowLens writes ends with a comment `%% flowlens-labels: [...]` listing, as JSON, the text of
every label as FlowLens meant it; the shown texts must be exactly those (compared as multisets,
ignoring white space and where lines break), so that an escape Mermaid renders as something else
(`#58;` shown as `ﬂ°°58¶ß`, Markdown emphasis eating `_`, a tag eating `<U+202E>`) fails. A diagram
without that comment is invalid (`--no-labels` renders it without the comparison).

One line per diagram:

    ok FILE[#n] (svg N bytes, L labels as meant)
    invalid FILE[#n]: <Mermaid's error message, or the labels that differ, on one line>

Exit status: 0 when every diagram renders, 1 when one does not, 2 when Chromium or mermaid.js is
missing or the page did not report (a set-up problem, not a diagram's).
"""

import importlib.util
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile


def mermaid_js():
    spec = importlib.util.find_spec("mmdc")
    if spec is None or spec.origin is None:
        return None
    path = pathlib.Path(spec.origin).parent / "assets" / "mermaid.js"
    return path if path.is_file() else None


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def diagrams(paths):
    out = []
    for arg in paths:
        path = pathlib.Path(arg)
        files = sorted(p for p in path.rglob("*") if p.suffix in (".mmd", ".md")) if path.is_dir() else [path]
        for file in files:
            text = file.read_text(encoding="utf-8")
            if file.suffix == ".md":
                blocks = re.findall(r"^```mermaid\n(.*?)^```$", text, flags=re.S | re.M)
                for n, block in enumerate(blocks, 1):
                    out.append((f"{file}#{n}", block))
            else:
                out.append((str(file), text))
    return out


PAGE = """<!doctype html><html><head><meta charset="utf-8"></head><body><pre id="result">pending</pre>
<script src="mermaid.js"></script>
<script>
const diagrams = %s;
(async () => {
  const results = [];
  try {
    mermaid.initialize({startOnLoad: false, securityLevel: "strict", maxTextSize: 50000, maxEdges: 500});
    for (let n = 0; n < diagrams.length; n++) {
      try {
        const rendered = await mermaid.render("diagram" + n, diagrams[n]);
        const holder = document.createElement("div");
        holder.innerHTML = rendered.svg;
        document.body.appendChild(holder);
        const labels = [];
        holder.querySelectorAll("span.nodeLabel, span.edgeLabel").forEach(function (e) { labels.push(e.textContent); });
        holder.remove();
        results.push({ok: true, size: rendered.svg.length, labels: labels});
      } catch (error) {
        results.push({ok: false, error: String((error && error.message) || error)});
      }
    }
  } catch (error) {
    results.push({ok: false, error: "set-up: " + String(error)});
  }
  document.getElementById("result").textContent = JSON.stringify(results);
})();
</script></body></html>
"""


LABELS = re.compile(r"^[ \t]*%% flowlens-labels: (\[.*\])[ \t]*$", flags=re.M)


def meant_labels(text):
    """The labels a diagram's `flowlens-labels` comment lists; None without one."""
    match = LABELS.search(text)
    return None if match is None else json.loads(match.group(1))


def compare(meant, shown):
    """'' when the shown labels are the meant ones (white space aside), else what differs."""
    def normal(texts):
        return sorted(t for t in ("".join(text.split()) for text in texts) if t)
    want, got = normal(meant), normal(shown)
    if want == got:
        return ""
    missing, unexpected = list(want), []
    for text in got:
        if text in missing:
            missing.remove(text)
        else:
            unexpected.append(text)
    parts = []
    if missing:
        parts.append("not shown: " + json.dumps(missing[:5], ensure_ascii=False) + (f" and {len(missing) - 5} more" if len(missing) > 5 else ""))
    if unexpected:
        parts.append("shown instead: " + json.dumps(unexpected[:5], ensure_ascii=False) + (f" and {len(unexpected) - 5} more" if len(unexpected) > 5 else ""))
    return "; ".join(parts)


def main(argv):
    check_labels = "--no-labels" not in argv
    argv = [arg for arg in argv if arg != "--no-labels"]
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[3], file=sys.stderr)
        return 2
    script, browser = mermaid_js(), chromium()
    if script is None or browser is None:
        print("validate-mermaid: needs Debian's chromium and the mmdc package (scripts/bootstrap.sh --test)", file=sys.stderr)
        return 2
    found = diagrams(argv[1:])
    if not found:
        print("validate-mermaid: no .mmd or .md files found", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(script, pathlib.Path(folder) / "mermaid.js")
        # JSON inside a <script>: no "</" can close it early.
        data = json.dumps([text for _, text in found]).replace("</", "<\\/").replace("<!--", "<\\!--")
        page = pathlib.Path(folder) / "validate.html"
        page.write_text(PAGE % data, encoding="utf-8")
        run = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
             "--allow-file-access-from-files", f"--user-data-dir={folder}/profile", "--virtual-time-budget=120000",
             "--dump-dom", page.as_uri()],
            capture_output=True, text=True, timeout=600)
    match = re.search(r'<pre id="result">(.*?)</pre>', run.stdout, flags=re.S)
    if not match or match.group(1) == "pending":
        print("validate-mermaid: the page did not report; chromium said:\n" + run.stderr[-2000:], file=sys.stderr)
        return 2
    import html
    results = json.loads(html.unescape(match.group(1)))
    failed = 0
    for (name, text), result in zip(found, results):
        if result.get("ok"):
            meant = meant_labels(text)
            if not check_labels:
                print(f"ok {name} (svg {result['size']} bytes)")
            elif meant is None:
                failed += 1
                print(f"invalid {name}: no %% flowlens-labels comment to compare the rendered labels with")
            elif (difference := compare(meant, result["labels"])):
                failed += 1
                print(f"invalid {name}: labels do not render as meant: {difference}")
            else:
                print(f"ok {name} (svg {result['size']} bytes, {len(meant)} labels as meant)")
        else:
            failed += 1
            print(f"invalid {name}: " + " ".join(result.get("error", "?").split()))
    if len(results) != len(found):
        print("validate-mermaid: " + " ".join(results[-1].get("error", "").split()), file=sys.stderr)
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
