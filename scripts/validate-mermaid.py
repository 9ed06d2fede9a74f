#!/usr/bin/env python3
"""Render Mermaid files with the real Mermaid library in headless Chromium; fail on any error.

Usage: python3 scripts/validate-mermaid.py FILE_OR_DIR...

Each FILE is a `.mmd` file (one diagram) or a `.md` file (every ```mermaid block in it); a DIR is
searched recursively for both. All diagrams are rendered in one page, offline: the page loads the
`mermaid.js` that the `mmdc` package ships (scripts/bootstrap.sh installs it from PyPI; only its
bundled JavaScript file is used, not its own renderer) from a temporary folder, with Mermaid's
default limits (maxTextSize 50000, maxEdges 500) and securityLevel "strict", and calls
`mermaid.render` on each diagram. Chromium is Debian's `chromium`, run headless with no network use.

One line per diagram:

    ok FILE[#n] (svg N bytes)
    invalid FILE[#n]: <Mermaid's error message, on one line>

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
        results.push({ok: true, size: rendered.svg.length});
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


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    script, browser = mermaid_js(), chromium()
    if script is None or browser is None:
        print("validate-mermaid: needs Debian's chromium and the mmdc package (scripts/bootstrap.sh)", file=sys.stderr)
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
    for (name, _), result in zip(found, results):
        if result.get("ok"):
            print(f"ok {name} (svg {result['size']} bytes)")
        else:
            failed += 1
            print(f"invalid {name}: " + " ".join(result.get("error", "?").split()))
    if len(results) != len(found):
        print("validate-mermaid: " + " ".join(results[-1].get("error", "").split()), file=sys.stderr)
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
