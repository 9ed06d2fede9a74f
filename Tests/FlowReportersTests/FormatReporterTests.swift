import FlowLoaders
import FlowLensTestSupport
import FlowModel
import FlowReporters
import FlowRules
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

private let showcaseFile = "Fixtures/showcase.flow.yaml"

private func showcaseReport() -> Report {
    let graph = load(showcaseYAML, file: showcaseFile)
    return Report(graph: FlowGraph(flows: graph.flows, files: [showcaseFile], loadFindings: graph.loadFindings),
                  findings: Analyzer().analyze(graph))
}

/// A message with everything some format must escape: markup, entities, quotes, percent signs,
/// line breaks (LF, CRLF, CR), table pipes, property separators, a tab and a control character.
private let hostileMessage = "a <b>&amp; \"c\" 'd' 100% done\nsecond | line\r\nthird: x, y\rfourth\tend\u{1}*_[x](y)`z`"
private let hostileFile = "dir/we,ird:name <&> \"q\".flow.yaml"

/// A report whose findings carry hostile text, of every severity, one without a location, and a
/// checked file without findings.
private func hostileReport() -> Report {
    let findings = [
        Finding(rule: "missing-data-key", severity: .error, message: hostileMessage,
                location: SourceLocation(file: hostileFile, line: 3, column: 5), flow: "F", step: "s", key: "k",
                related: [RelatedLocation(message: "set <here> & \"there\"", location: SourceLocation(file: hostileFile, line: 1, column: 1))],
                path: ["a", "b"]),
        Finding(rule: "unused-data-key", severity: .warning, message: "50% | of: it, all", location: SourceLocation(file: hostileFile, line: 4)),
        Finding(rule: "dead-end", severity: .note, message: "just a note", location: SourceLocation(file: hostileFile)),
        Finding(rule: "invalid-input", severity: .error, message: "no location <at all>", location: nil),
    ]
    return Report(graph: FlowGraph(files: [hostileFile, "clean.flow.yaml"]), findings: findings)
}

/// The text the hostile file has, for the source view: a tab, wide characters, CRLF line ends.
private let hostileSource = "version: 1\r\nflows:\r\n\tkey: 名前 \u{1B}[31mred\r\nshort\r\n"

private func golden(_ output: String, _ name: String) {
    if let mismatch = goldenMismatch(output, name: name) { Issue.record(Comment(rawValue: mismatch)) }
}

#if canImport(FoundationXML) || os(macOS)
private func parseXML(_ text: String) throws -> XMLDocument {
    try XMLDocument(data: Data(text.utf8), options: [])
}

private func elements(_ node: XMLElement, _ name: String) -> [XMLElement] { node.elements(forName: name) }

private func attribute(_ node: XMLElement, _ name: String) -> String? { node.attribute(forName: name)?.stringValue }
#endif

/// What an XML parser gives back for text the reporters wrote: forbidden control characters are
/// replaced by U+FFFD; everything else survives.
private func xmlRoundTrip(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 && !["\t", "\n", "\r"].contains($0) ? "\u{FFFD}" : $0 }))
}

/// Undoes GitHub's workflow-command escaping, as the runner does.
private func githubUnescape(_ text: String) -> String {
    text.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
        .replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ",")
        .replacingOccurrences(of: "%25", with: "%")
}

@Suite("Output formats")
struct FormatReporterTests {
    // MARK: Golden files

    @Test("GitHub workflow commands match the golden file")
    func githubGolden() { golden(GitHubReporter().report(showcaseReport()), "showcase.github") }

    @Test("checkstyle XML matches the golden file")
    func checkstyleGolden() { golden(CheckstyleReporter().report(showcaseReport()), "showcase.checkstyle.xml") }

    @Test("JUnit XML matches the golden file")
    func junitGolden() { golden(JUnitReporter().report(showcaseReport()), "showcase.junit.xml") }

    @Test("GitLab Code Quality JSON matches the golden file")
    func gitlabGolden() { golden(GitLabReporter().report(showcaseReport()), "showcase.gitlab.json") }

    @Test("GitLab Code Quality: every field GitLab requires, unique fingerprints that ignore lines")
    func gitlabShape() throws {
        let report = showcaseReport()
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(GitLabReporter().report(report).utf8)) as? [[String: Any]])
        #expect(issues.count == report.findings.count)
        for (issue, finding) in zip(issues, report.findings) {
            #expect(issue["check_name"] as? String == finding.rule)
            #expect((issue["description"] as? String)?.hasPrefix(finding.message) == true)
            #expect(issue["severity"] as? String == ["error": "major", "warning": "minor", "note": "info"][finding.severity.rawValue])
            let location = try #require(issue["location"] as? [String: Any])
            #expect(location["path"] as? String == finding.location?.file)
            #expect((location["lines"] as? [String: Any])?["begin"] as? Int == finding.location?.line)
        }
        let fingerprints = issues.compactMap { $0["fingerprint"] as? String }
        #expect(Set(fingerprints).count == issues.count)
        // Moved down ten lines, the same findings keep their fingerprints.
        var moved = report
        moved.findings = moved.findings.map { finding in
            var finding = finding
            finding.location?.line += 10
            return finding
        }
        let movedIssues = try #require(try JSONSerialization.jsonObject(with: Data(GitLabReporter().report(moved).utf8)) as? [[String: Any]])
        #expect(movedIssues.compactMap { $0["fingerprint"] as? String } == fingerprints)
    }

    @Test("Markdown summary matches the golden file")
    func markdownGolden() { golden(MarkdownReporter().report(showcaseReport()), "showcase.md") }

    @Test("text with source lines and carets matches the golden file")
    func caretGolden() {
        let reporter = TextReporter(style: .source(colors: false), sources: [showcaseFile: showcaseYAML])
        golden(reporter.report(showcaseReport()), "showcase.caret.txt")
    }

    @Test("coloured text with source lines and carets matches the golden file")
    func caretColorGolden() {
        let reporter = TextReporter(style: .source(colors: true), sources: [showcaseFile: showcaseYAML])
        golden(reporter.report(showcaseReport()), "showcase.caret-color.txt")
    }

    // MARK: Every format

    @Test("every format is a pure function of the report: same bytes, no absolute paths, no times")
    func deterministic() {
        let reporters: [any Reporter] = [GitHubReporter(), CheckstyleReporter(), JUnitReporter(), MarkdownReporter(),
                                         TextReporter(style: .source(colors: true), sources: [showcaseFile: showcaseYAML])]
        for reporter in reporters {
            let first = reporter.report(showcaseReport()), second = reporter.report(showcaseReport())
            #expect(first == second, "\(type(of: reporter))")
            #expect(!first.contains(packageRoot), "\(type(of: reporter))")
            #expect(!first.contains("time=") && !first.contains("timestamp"), "\(type(of: reporter))")
        }
    }

    // MARK: GitHub

    @Test("GitHub: one command per finding, the right command for each severity, unknown places left out")
    func githubCommands() {
        let lines = GitHubReporter().report(hostileReport()).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 && lines.last == "")
        #expect(lines[0] == "::error title=invalid-input::no location <at all>")
        #expect(lines[3].hasPrefix("::warning file=dir/we%2Cird%3Aname <&> \"q\".flow.yaml,line=4,title=unused-data-key::50%25 | of: it, all"))
        #expect(lines[1] == "::notice file=dir/we%2Cird%3Aname <&> \"q\".flow.yaml,title=dead-end::just a note")
        #expect(GitHubReporter().report(Report(graph: FlowGraph(), findings: [])) == "")
    }

    @Test("GitHub: hostile text is escaped so it cannot end a property or start a command")
    func githubHostile() throws {
        let output = GitHubReporter().report(hostileReport())
        let line = try #require(output.split(separator: "\n").first { $0.contains("missing-data-key") })
        #expect(line.hasPrefix("::error file=dir/we%2Cird%3Aname <&> \"q\".flow.yaml,line=3,col=5,title=missing-data-key::"))
        #expect(!line.contains("\r"))
        let message = String(line[line.range(of: "title=missing-data-key::")!.upperBound...])
        #expect(message.hasPrefix("a <b>&amp; \"c\" 'd' 100%25 done%0Asecond | line%0D%0Athird: x, y%0Dfourth\tend"))
        // Every character comes back but the control character U+0001, which has no escape (U+FFFD).
        #expect(githubUnescape(message) == hostileMessage.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}"))
        // Properties: the file name decodes back, and contains no raw separator.
        let properties = line.dropFirst("::error ".count).prefix { $0 != ":" }
        #expect(properties.split(separator: ",").count == 4)
        #expect(githubUnescape(String(properties.split(separator: ",")[0].dropFirst("file=".count))) == hostileFile)
        #expect(GitHubReporter.escapeProperty("a%b\r\n:,") == "a%25b%0D%0A%3A%2C")
        #expect(GitHubReporter.escapeData("a%b\r\n:,") == "a%25b%0D%0A:,")
    }

    // MARK: Checkstyle

    #if canImport(FoundationXML) || os(macOS)
    @Test("checkstyle: well-formed, one <file> per checked file in sorted order, findings with their rule")
    func checkstyleShape() throws {
        let report = showcaseReport()
        let document = try parseXML(CheckstyleReporter().report(report))
        let root = try #require(document.rootElement())
        #expect(root.name == "checkstyle" && attribute(root, "version") == "4.3")
        let files = elements(root, "file")
        #expect(files.map { attribute($0, "name") } == [showcaseFile])
        let errors = elements(files[0], "error")
        #expect(errors.count == report.findings.count)
        for (element, finding) in zip(errors, report.findings) {
            #expect(attribute(element, "line") == String(finding.location!.line))
            #expect(attribute(element, "column") == String(finding.location!.column))
            #expect(attribute(element, "severity") == finding.severity.rawValue)
            #expect(attribute(element, "message") == finding.message)
            #expect(attribute(element, "source") == "flowlens.\(finding.rule)")
        }
    }

    @Test("checkstyle: hostile text survives a parser; clean files are listed; unknown places left out")
    func checkstyleHostile() throws {
        let output = CheckstyleReporter().report(hostileReport())
        #expect(!output.contains("\u{1}"))
        let root = try #require(try parseXML(output).rootElement())
        let files = elements(root, "file")
        #expect(files.map { attribute($0, "name") } == ["flowlens", "clean.flow.yaml", hostileFile])
        #expect(elements(files[1], "error").isEmpty)
        let errors = elements(files[2], "error")
        #expect(errors.map { attribute($0, "severity") } == ["info", "error", "warning"])
        #expect(attribute(errors[0], "line") == nil && attribute(errors[0], "column") == nil)
        #expect(attribute(errors[1], "message") == xmlRoundTrip(hostileMessage))
        #expect(attribute(errors[1], "line") == "3" && attribute(errors[1], "column") == "5")
        #expect(attribute(errors[2], "line") == "4" && attribute(errors[2], "column") == nil)
        let unlocated = try #require(elements(files[0], "error").first)
        #expect(attribute(unlocated, "message") == "no location <at all>" && attribute(unlocated, "source") == "flowlens.invalid-input")
    }

    // MARK: JUnit

    @Test("JUnit: well-formed, one suite per file, a case per finding, counts that add up (warnings failing the run)")
    func junitShape() throws {
        let report = showcaseReport()
        let root = try #require(try parseXML(JUnitReporter(warningsFail: true).report(report)).rootElement())
        #expect(root.name == "testsuites")
        #expect(attribute(root, "tests") == String(report.findings.count))
        #expect(attribute(root, "failures") == String(report.errors.count + report.warnings.count))
        let suites = elements(root, "testsuite")
        #expect(suites.map { attribute($0, "name") } == [showcaseFile])
        let cases = elements(suites[0], "testcase")
        #expect(attribute(suites[0], "tests") == String(cases.count))
        #expect(attribute(suites[0], "failures") == String(cases.filter { !elements($0, "failure").isEmpty }.count))
        for (element, finding) in zip(cases, report.findings) {
            #expect(attribute(element, "classname") == showcaseFile && attribute(element, "file") == showcaseFile)
            #expect(attribute(element, "name") == "\(finding.rule) at \(finding.location!.line):\(finding.location!.column)")
            let failure = try #require(elements(element, "failure").first)
            #expect(attribute(failure, "message") == finding.message && attribute(failure, "type") == finding.severity.rawValue)
            #expect(failure.stringValue?.hasPrefix(String(TextReporter().line(finding).dropLast())) == true)
        }
    }

    @Test("JUnit: warnings that do not fail the run are passing cases with the finding in system-out")
    func junitWarningsPass() throws {
        let report = showcaseReport()
        #expect(!report.warnings.isEmpty && !report.errors.isEmpty)
        let root = try #require(try parseXML(JUnitReporter().report(report)).rootElement())
        #expect(attribute(root, "failures") == String(report.errors.count))
        let cases = elements(try #require(elements(root, "testsuite").first), "testcase")
        for (element, finding) in zip(cases, report.findings) {
            let failures = elements(element, "failure")
            #expect(failures.isEmpty == (finding.severity != .error), "\(finding.rule)")
            if finding.severity == .warning {
                #expect(elements(element, "system-out").first?.stringValue?.hasPrefix(String(TextReporter().line(finding).dropLast())) == true)
            }
        }
    }

    @Test("JUnit: hostile text survives a parser; notes pass; clean files are a passing case")
    func junitHostile() throws {
        let output = JUnitReporter(warningsFail: true).report(hostileReport())
        let root = try #require(try parseXML(output).rootElement())
        #expect(attribute(root, "tests") == "5" && attribute(root, "failures") == "3")
        let suites = elements(root, "testsuite")
        #expect(suites.map { attribute($0, "name") } == ["flowlens", "clean.flow.yaml", hostileFile])
        #expect(suites.map { attribute($0, "failures") } == ["1", "0", "2"])
        let clean = try #require(elements(suites[1], "testcase").first)
        #expect(attribute(clean, "name") == "no findings" && elements(clean, "failure").isEmpty)
        let cases = elements(suites[2], "testcase")
        #expect(cases.map { attribute($0, "name") } == ["dead-end", "missing-data-key at 3:5", "unused-data-key at 4"])
        #expect(cases.map { attribute($0, "line") } == [nil, "3", "4"])
        let failure = try #require(elements(cases[1], "failure").first)
        #expect(attribute(failure, "message") == xmlRoundTrip(hostileMessage))
        let body = try #require(failure.stringValue)
        #expect(body.contains(xmlRoundTrip(hostileMessage)))
        #expect(body.contains("related: \(hostileFile):1:1: set <here> & \"there\"\n") && body.hasSuffix("path: a → b"))
        #expect(elements(cases[0], "failure").isEmpty)
        #expect(elements(cases[0], "system-out").first?.stringValue?.contains("just a note") == true)
        #expect(attribute(try #require(elements(suites[0], "testcase").first), "file") == nil)
    }

    @Test("JUnit and checkstyle: an empty report is still well-formed")
    func xmlEmpty() throws {
        let empty = Report(graph: FlowGraph(), findings: [])
        let junit = try #require(try parseXML(JUnitReporter().report(empty)).rootElement())
        #expect(attribute(junit, "tests") == "0" && elements(junit, "testsuite").isEmpty)
        let checkstyle = try #require(try parseXML(CheckstyleReporter().report(empty)).rootElement())
        #expect(checkstyle.name == "checkstyle")
    }
    #endif

    // MARK: Markdown

    @Test("Markdown: headline, a row per finding, a row per rule")
    func markdownShape() {
        let report = showcaseReport()
        let output = MarkdownReporter().report(report)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines[0] == MarkdownReporter.marker)
        #expect(lines[1] == "### ❌ FlowLens: 8 errors, 1 warning in 2 flows (1 file)")
        let rows = lines.filter { $0.hasPrefix("| error |") || $0.hasPrefix("| warning |") }
        #expect(rows.count == report.findings.count)
        #expect(output.contains("| `type-mismatch` | error | 2 |"))
    }

    @Test("Markdown: hostile text stays inside its cell and shows as written")
    func markdownHostile() throws {
        let output = MarkdownReporter().report(hostileReport())
        let row = try #require(output.split(separator: "\n").first { $0.contains("missing-data-key") && $0.hasPrefix("| error") })
        #expect(row == "| error | `missing-data-key` | `dir/we,ird:name <&> \"q\".flow.yaml:3` | "
            + "a \\<b\\>\\&amp; \"c\" 'd' 100% done<br>second \\| line<br>third: x, y<br>fourth end \\*\\_\\[x\\](y)\\`z\\` |")
        #expect(output.contains("| note | `dead-end` | `dir/we,ird:name <&> \"q\".flow.yaml` | just a note |"))
        #expect(output.contains("| warning | `unused-data-key` | `dir/we,ird:name <&> \"q\".flow.yaml:4` | 50% \\| of: it, all |"))
        #expect(output.contains("| error | `invalid-input` | — | no location \\<at all\\> |"))
        // Every table row has exactly its cells: no unescaped pipe inside one.
        let tables = output.components(separatedBy: "\n\n").filter { $0.hasPrefix("|") }
        #expect(tables.count == 2)
        for (table, pipes) in zip(tables, [5, 4]) {
            for line in table.split(separator: "\n") {
                var count = 0
                var previous: Character = " "
                for character in line {
                    if character == "|" && previous != "\\" { count += 1 }
                    previous = character
                }
                #expect(count == pipes, "\(line)")
            }
        }
        #expect(tables[1].hasSuffix("| `invalid-input` | error | 1 |\n| `missing-data-key` | error | 1 |\n| `unused-data-key` | warning | 1 |\n| `dead-end` | note | 1 |\n"))
    }

    @Test("Markdown: code spans survive backticks and pipes in file names")
    func markdownCode() {
        let finding = Finding(rule: "dead-end", severity: .error, message: "m", location: SourceLocation(file: "a`b|c.yaml", line: 2))
        let output = MarkdownReporter().report(Report(graph: FlowGraph(files: ["a`b|c.yaml"]), findings: [finding]))
        #expect(output.contains("| ``a`b\\|c.yaml:2`` |"))
    }

    @Test("Markdown: no findings is a clean 'No problems found'")
    func markdownEmpty() {
        let report = Report(graph: FlowGraph(files: ["a.flow.yaml"]), findings: [])
        #expect(MarkdownReporter().report(report) == "\(MarkdownReporter.marker)\n### ✅ FlowLens: No problems found\n\nChecked 0 flows (1 file).\n")
    }

    @Test("Markdown: a long report lists the first findings and says how many it left out")
    func markdownTruncated() {
        let output = MarkdownReporter(maxFindings: 2).report(showcaseReport())
        #expect(output.split(separator: "\n").filter { $0.hasPrefix("| error |") || $0.hasPrefix("| warning |") }.count == 2)
        #expect(output.contains("… and 7 more findings, not listed here; run `flowlens check` to see them all."))
        #expect(output.contains("| `type-mismatch` | error | 2 |"))
    }

    // MARK: Text

    @Test("text: the default style is still one line a finding")
    func textDefault() {
        let report = showcaseReport()
        #expect(TextReporter().style == .lines)
        #expect(TextReporter(sources: [showcaseFile: showcaseYAML]).report(report) == report.findings.map(TextReporter().line).joined())
        #expect(!TextReporter().report(report).contains("\u{1B}"))
    }

    @Test("text: each finding's first line is the plain line; colours only when asked")
    func textSourceHeaders() {
        let report = showcaseReport()
        let plain = TextReporter(style: .source(colors: false), sources: [showcaseFile: showcaseYAML]).report(report)
        #expect(!plain.contains("\u{1B}"))
        let headers = plain.split(separator: "\n").filter { $0.hasPrefix(showcaseFile) }.map(String.init)
        #expect(headers == report.findings.map { String(TextReporter().line($0).dropLast()) })
        let colored = TextReporter(style: .source(colors: true), sources: [showcaseFile: showcaseYAML]).report(report)
        #expect(colored.contains("\u{1B}[1m\u{1B}[31merror\u{1B}[0m") && colored.contains("\u{1B}[1m\u{1B}[33mwarning\u{1B}[0m"))
        #expect(colored.contains("\u{1B}[2m[missing-data-key]\u{1B}[0m"))
    }

    @Test("text: the caret lines up under tabs and wide characters; control characters are not sent")
    func textCaret() {
        let finding = { (line: Int, column: Int) in
            Finding(rule: "dead-end", severity: .note, message: "here", location: SourceLocation(file: hostileFile, line: line, column: column))
        }
        let report = Report(graph: FlowGraph(files: [hostileFile]),
                            findings: [finding(3, 7), finding(4, 99), finding(9, 1), finding(2, 0)])
        let output = TextReporter(style: .source(colors: false), sources: [hostileFile: hostileSource]).report(report)
        // Line 3 is "\tkey: 名前 ESC[31mred": the tab is 4 cells, 名 and 前 two each; column 7 is 名.
        #expect(output == """
            \(hostileFile):2: note: here [dead-end]
              |
            2 | flows:
            \(hostileFile):3:7: note: here [dead-end]
              |
            3 |     key: 名前 \u{FFFD}[31mred
              |          ^
            \(hostileFile):4:99: note: here [dead-end]
              |
            4 | short
              |      ^
            \(hostileFile):9:1: note: here [dead-end]

            """)
        #expect(!output.contains("\u{1B}"))
    }

    @Test("text: a finding whose file is not among the sources is shown as its line alone")
    func textMissingSource() {
        let report = hostileReport()
        let output = TextReporter(style: .source(colors: false)).report(report)
        #expect(output == TextReporter().report(report))
        let read = TextReporter.sources(for: report) { $0 == hostileFile ? hostileSource : nil }
        #expect(read == [hostileFile: hostileSource])
    }

    @Test("text: hostile messages are passed through on the finding's line, which stays the API format")
    func textHostile() {
        let output = TextReporter(style: .source(colors: false), sources: [hostileFile: hostileSource]).report(hostileReport())
        // Column 5 is the colon: after the tab (4 cells) and "key" (3).
        let caret = "  | " + String(repeating: " ", count: 7) + "^\n"
        #expect(output.contains("\(hostileFile):3:5: error: \(hostileMessage) [missing-data-key]\n  |\n3 |     key: 名前 \u{FFFD}[31mred\n" + caret))
    }

    @Test("--color: source view on a terminal or when forced; colours unless never, NO_COLOR or TERM=dumb")
    func colorMode() {
        #expect(ColorMode.auto.textStyle(isTerminal: true) == .source(colors: true))
        #expect(ColorMode.auto.textStyle(isTerminal: false) == .lines)
        #expect(ColorMode.auto.textStyle(isTerminal: true, environment: ["NO_COLOR": "1"]) == .source(colors: false))
        #expect(ColorMode.auto.textStyle(isTerminal: true, environment: ["NO_COLOR": ""]) == .source(colors: true))
        #expect(ColorMode.auto.textStyle(isTerminal: true, environment: ["TERM": "dumb"]) == .source(colors: false))
        #expect(ColorMode.always.textStyle(isTerminal: false, environment: ["NO_COLOR": "1"]) == .source(colors: true))
        #expect(ColorMode.never.textStyle(isTerminal: true) == .source(colors: false))
        #expect(ColorMode.never.textStyle(isTerminal: false) == .lines)
        #expect(ColorMode.allCases.map(\.rawValue) == ["auto", "always", "never"])
    }
}
