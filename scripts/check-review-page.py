#!/usr/bin/env python3
"""Checks a FlowLens review page (`flowlens export --format html`) in a real headless Chromium.

Usage: check-review-page.py PAGE.html [--screenshot FILE.png] [--flow NAME] [--index-screenshot FILE.png]
                            [--hostile TEXT]...

It loads the page from disk with Debian's chromium (driven by Playwright) and fails (exit 1, one line
per problem on stderr) when:
  - the page logs a console error or warning, throws, opens a dialog, or asks for anything that is
    not the page itself (a network request, a script, a font, an image);
  - it has a script other than its own, an element with an event-handler attribute, or a
    `javascript:` URL (markup that user text could have injected);
  - clicking a finding, a path or a "missing" link does not highlight exactly the diagram elements
    it names (every finding is clicked, and up to 300 paths), or the first is not on screen after;
  - a flow's status disagrees with itself: its header, its index row and the findings listed beside
    its diagram must give the same count of errors, warnings and notes ("no problems" only when none
    is listed), and its diagram's subtitle the same words;
  - the "only flows with problems" filter does not hide the clean flows;
  - a diagram opens smaller than 3/4 of the size Graphviz drew it at (text too small to read), or
    the first does not zoom in with its + button, show whole with Fit, zoom in with + and show whole
    again with 0 on the keyboard when focused; or the search box does not keep exactly the flows
    whose name, steps or keys hold the text typed (it types the first flow's name);
  - a --hostile TEXT does not appear on the page as text (proving it was escaped, not dropped).

--screenshot writes a PNG: the section of --flow (or the first flow with a finding) after clicking
its first finding, as a reader sees it on arriving there (the top of the section, at most one
window high, 1400 × 1000 CSS pixels). --index-screenshot writes the first window of the page: its
title, search box and the index of flows. Exit status: 0 all good, 1 a check failed, 2 cannot run
(no chromium/playwright).
"""
import argparse
import os
import shutil
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("page")
    parser.add_argument("--screenshot")
    parser.add_argument("--flow")
    parser.add_argument("--index-screenshot")
    parser.add_argument("--hostile", action="append", default=[])
    args = parser.parse_args()

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("check-review-page: Playwright is missing: run scripts/bootstrap.sh --test", file=sys.stderr)
        return 2
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("check-review-page: chromium is missing: run scripts/bootstrap.sh --test", file=sys.stderr)
        return 2

    page_path = os.path.abspath(args.page)
    page_url = "file://" + page_path
    problems = []

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000}, device_scale_factor=1)
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: problems.append(f"uncaught exception: {e}"))
        page.on("dialog", lambda d: (problems.append(f"dialog opened: {d.message}"), d.dismiss()))

        def on_request(request):
            if request.url != page_url and not request.url.startswith("data:"):
                problems.append(f"request for {request.url}")
        page.on("request", on_request)

        page.goto(page_url, wait_until="load")
        if args.index_screenshot:
            page.screenshot(path=args.index_screenshot, animations="disabled")

        injected = page.evaluate("""() => {
            const found = [];
            const scripts = document.querySelectorAll("script");
            if (scripts.length !== 1 || scripts[0].src) found.push(`expected the page's one inline script, found ${scripts.length}`);
            for (const el of document.querySelectorAll("*")) {
                for (const attr of el.attributes) {
                    if (/^on/i.test(attr.name)) found.push(`<${el.localName}> has an event handler ${attr.name}`);
                    if (/^\\s*javascript:/i.test(attr.value)) found.push(`<${el.localName}> has a javascript: URL in ${attr.name}`);
                }
            }
            for (const tag of ["iframe", "object", "embed", "img", "link", "foreignObject", "image"]) {
                const n = document.getElementsByTagName(tag).length;
                if (n) found.push(`${n} <${tag}> element(s)`);
            }
            return found;
        }""")
        problems.extend(f"injected markup: {x}" for x in injected)

        text = page.evaluate("() => document.body.innerText")
        for hostile in args.hostile:
            if hostile not in text:
                problems.append(f"hostile text not shown as text: {hostile!r}")

        findings = page.query_selector_all("button.finding")
        if not findings and "No problems found" not in text:
            problems.append("no clickable finding on the page")
        # Every finding, and the paths (capped, to keep the check quick): each highlights exactly its
        # elements, and the first is scrolled into view.
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        paths = page.query_selector_all("button.path")
        for button in findings + paths[:300]:
            target = button.get_attribute("data-target")
            button.click()
            state = page.evaluate("""(ids) => {
                ids = ids.split(" ");
                for (const id of ids) {
                    const el = document.getElementById(id);
                    if (!el) return `${id} missing`;
                    if (!el.classList.contains("flowlens-hl")) return `${id} not highlighted`;
                    const box = el.getBoundingClientRect();
                    if (box.width === 0 && box.height === 0) return `${id} has no size`;
                }
                const all = document.querySelectorAll(".flowlens-hl").length;
                if (all !== ids.length) return `${all} elements highlighted, not ${ids.length}`;
                const box = document.getElementById(ids[0]).getBoundingClientRect();
                const inView = box.bottom > 0 && box.right > 0 && box.top < innerHeight && box.left < innerWidth;
                return inView ? "ok" : "not scrolled into view";
            }""", target)
            if state != "ok":
                label = " ".join(button.inner_text().split())[:100]
                problems.append(f"clicking '{label}' (target {target}): {state}")

        disagreements = page.evaluate("""() => {
            const found = [];
            const rows = [...document.querySelectorAll('table.index tbody tr')];
            document.querySelectorAll('section.flow').forEach((section, n) => {
                const name = section.querySelector('h2').textContent;
                const counts = ["error", "warning", "note"].map(s => section.querySelectorAll(`.side .finding.${s}`).length);
                const words = counts.map((c, i) => c ? `${c} ${["error", "warning", "note"][i]}${c === 1 ? "" : "s"}` : null).filter(x => x);
                const header = section.querySelector('p.meta').textContent;
                const row = rows[n] ? rows[n].lastElementChild.textContent : "";
                for (const [where, text] of [["header", header], ["index", row]]) {
                    if (words.length === 0 && !text.includes("no problems")) found.push(`${name}: ${where} says '${text.trim()}' but no finding is listed`);
                    for (const word of words) if (!text.includes(word)) found.push(`${name}: ${where} does not say '${word}'`);
                    if (words.length && text.includes("no problems")) found.push(`${name}: ${where} says no problems`);
                }
                const svgText = [...section.querySelectorAll('figure.diagram svg text')].map(t => t.textContent);
                const subtitle = svgText.find(t => t.includes(" · ")) || "";
                const expected = words.length ? words.join(" · ") : "no problems found";
                if (svgText.length && !subtitle.endsWith(expected)) found.push(`${name}: the diagram says '${subtitle}', not '${expected}'`);
            });
            return found;
        }""")
        problems.extend(f"status: {x}" for x in disagreements)

        clean = page.evaluate("() => document.querySelectorAll('section.flow.status-clean').length")
        page.check("#only-problems")
        visible_clean = page.evaluate("() => [...document.querySelectorAll('section.flow.status-clean')].filter(s => s.offsetParent !== null).length")
        if clean and visible_clean:
            problems.append(f"the filter left {visible_clean} of {clean} clean flows visible")
        page.uncheck("#only-problems")

        # Every diagram opens at a readable size: never below 3/4 of the size Graphviz drew it at
        # (its 9-point labels 12 pixels high), the box scrolling instead.
        small = page.evaluate("""() => [...document.querySelectorAll('section.flow')].map(section => {
            const svg = section.querySelector('figure.diagram svg');
            if (!svg) return null;
            const shown = svg.getBoundingClientRect().width, drawn = svg.width.baseVal.value;
            return shown < 0.75 * drawn - 1 ? `${section.querySelector('h2').textContent}: ${Math.round(shown)} of ${Math.round(drawn)} pixels wide` : null;
        }).filter(x => x)""")
        problems.extend(f"a diagram opens too small to read: {x}" for x in small)

        figure = page.query_selector("figure.diagram svg")
        if figure and not page.query_selector(".diagram-box .zoom button[data-zoom=in]"):
            problems.append("the diagrams have no zoom buttons")
        elif figure:
            def width():
                return page.evaluate("() => document.querySelector('figure.diagram svg').getBoundingClientRect().width")

            def whole():
                """'ok' when the first diagram is entirely in its box (and as large as fits), else why not."""
                return page.evaluate("""() => {
                    const figure = document.querySelector('figure.diagram'), svg = figure.querySelector('svg');
                    const box = svg.getBoundingClientRect(), room = parseFloat(getComputedStyle(figure).maxHeight);
                    if (box.width > figure.clientWidth + 1 || box.height > room + 1) return `${Math.round(box.width)}×${Math.round(box.height)} does not fit ${figure.clientWidth}×${Math.round(room)}`;
                    const fills = box.width >= figure.clientWidth - 1 || box.height >= room - 1 || box.width >= svg.width.baseVal.value - 1;
                    return fills ? "ok" : `${Math.round(box.width)}×${Math.round(box.height)} is smaller than it need be`;
                }""")
            opened = width()
            page.click(".diagram-box .zoom button[data-zoom=in]")
            if not width() > opened * 1.2:
                problems.append(f"the zoom-in button did not enlarge the first diagram ({opened} -> {width()})")
            page.click(".diagram-box .zoom button[data-zoom=fit]")
            state = whole()
            if state != "ok":
                problems.append(f"the Fit button did not show the whole first diagram: {state}")
            fitted = width()
            page.focus("figure.diagram")
            page.keyboard.press("+")
            page.keyboard.press("+")
            if not width() > fitted * 1.5:
                problems.append(f"pressing + twice on the focused diagram did not zoom in ({fitted} -> {width()})")
            page.keyboard.press("0")
            if abs(width() - fitted) > 1:
                problems.append("pressing 0 on the focused diagram did not show it whole again")

        if not page.query_selector("#search"):
            problems.append("the page has no search box")
        else:
            query = page.evaluate("() => document.querySelector('section.flow h2').textContent").strip().lower()
            page.fill("#search", query)
            state = page.evaluate("""(query) => {
                const sections = [...document.querySelectorAll('section.flow')];
                const wrong = sections.filter(s => (s.offsetParent !== null) !== s.getAttribute('data-search').includes(query));
                const shown = sections.filter(s => s.offsetParent !== null).length;
                return wrong.length ? `${wrong.length} flows shown or hidden wrongly` : (shown ? "ok" : "nothing shown");
            }""", query)
            if state != "ok":
                problems.append(f"searching for {query!r}: {state}")
            page.fill("#search", "")
            hidden = page.evaluate("() => [...document.querySelectorAll('section.flow')].filter(s => s.offsetParent === null).length")
            if hidden:
                problems.append(f"an empty search left {hidden} flows hidden")

        if args.screenshot:
            # As a reader first sees it: no zoom, filter or search left over from the checks above.
            page.reload(wait_until="load")
            sections = page.query_selector_all("section.flow")
            chosen = None
            for section in sections:
                title = section.query_selector("h2").inner_text()
                if (args.flow and title == args.flow) or (not args.flow and section.query_selector("button.finding")):
                    chosen = section
                    break
            if chosen is None:
                problems.append(f"no flow to screenshot (--flow {args.flow!r})")
            else:
                first = chosen.query_selector("button.finding")
                if first:
                    first.click()
                    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
                # The section's top where a link to it puts it (below the page's toolbar); the window's
                # height at most.
                box = chosen.evaluate("""(section) => {
                    section.scrollIntoView({ block: "start" });
                    const box = section.getBoundingClientRect();
                    return { x: box.left, y: box.top, width: box.width, height: Math.min(box.height, window.innerHeight - box.top) };
                }""")
                page.screenshot(path=args.screenshot, clip=box, animations="disabled")
        browser.close()

    for problem in problems:
        print(f"{args.page}: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
