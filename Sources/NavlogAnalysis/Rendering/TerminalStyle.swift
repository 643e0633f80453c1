/// How text output is painted: plain, or with ANSI colours for a terminal.
///
/// The CLI chooses: colour only when stdout is a terminal, `NO_COLOR` is unset and `TERM` is
/// not `dumb` (https://no-color.org). A plain style returns every text as it is, so plain
/// output is byte for byte what it was before colour existed.
public struct TerminalStyle: Sendable, Equatable {
    /// Whether ANSI escape sequences are written.
    public var isColored: Bool

    public init(isColored: Bool) {
        self.isColored = isColored
    }

    /// No colour.
    public static let plain = TerminalStyle(isColored: false)

    /// Whether a terminal on `isTerminal` should get colour, given the environment.
    public static func automatic(isTerminal: Bool, environment: [String: String]) -> TerminalStyle {
        TerminalStyle(isColored: isTerminal && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb")
    }

    /// A failure: bold red.
    func failure(_ text: String) -> String { paint(text, "1;31") }
    /// A warning: yellow.
    func warning(_ text: String) -> String { paint(text, "33") }
    /// A line a diff removes: red.
    func removed(_ text: String) -> String { paint(text, "31") }
    /// A line a diff adds: green.
    func added(_ text: String) -> String { paint(text, "32") }
    /// A hunk header or other landmark: cyan.
    func landmark(_ text: String) -> String { paint(text, "36") }

    /// `text` between the SGR code and the reset, when colouring; `text` as it is otherwise.
    private func paint(_ text: String, _ code: String) -> String {
        isColored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
