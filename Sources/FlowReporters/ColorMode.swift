/// When the text format is written for a person: `--color auto|always|never`.
///
/// The decision is a pure function of the mode, whether standard output is a terminal, and the
/// environment, so the CLI only asks `isatty(STDOUT_FILENO)` and the rule itself is tested here.
public enum ColorMode: String, CaseIterable, Sendable {
    /// Source lines, carets and colours when standard output is a terminal (colours off under
    /// `NO_COLOR` or `TERM=dumb`); one line a finding otherwise, for pipes, files and editors.
    case auto
    /// Source lines, carets and colours, wherever the output goes (a CI log that shows ANSI colours,
    /// `less -R`).
    case always
    /// No colours. On a terminal the source lines and carets are still shown.
    case never

    /// The text style for this mode.
    ///
    /// - Parameters:
    ///   - isTerminal: whether standard output is a terminal (`isatty(STDOUT_FILENO) == 1`).
    ///   - environment: the process environment, for `NO_COLOR` (https://no-color.org: set and not
    ///     empty turns colours off) and `TERM=dumb`.
    public func textStyle(isTerminal: Bool, environment: [String: String] = [:]) -> TextReporter.Style {
        switch self {
        case .always:
            return .source(colors: true)
        case .never:
            return isTerminal ? .source(colors: false) : .lines
        case .auto:
            guard isTerminal else { return .lines }
            let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
            return .source(colors: !noColor)
        }
    }
}
