/// A parsed scenario: an optional `app` line and the steps that follow, each with its line.
///
/// The language is line-based; see `docs/SCENARIOS.md` for the full reference. In short:
///
/// ```
/// # Comments start with '#'.
/// app master-detail detail_style=modal
/// tap open-detail
/// expect screen Detail
/// dismiss
/// enter search "swift concurrency"
/// select Settings
/// deeplink tabs://settings/notifications
/// wait 500ms
/// expect text "Notifications"
/// expect stack Settings Notifications
/// back
/// ```
public struct Scenario: Sendable, Equatable {
    /// The file name (or label) errors name, such as `Config/scenarios/articles.scenario`.
    public var source: String
    /// The app named by an `app` line, with its `key=value` parameters, if any.
    public var app: AppLine?
    public var steps: [ScenarioStep]

    public struct AppLine: Sendable, Equatable {
        public var name: String
        public var parameters: [String: String]
        public var line: Int

        public init(name: String, parameters: [String: String], line: Int) {
            self.name = name
            self.parameters = parameters
            self.line = line
        }
    }

    public init(source: String, app: AppLine?, steps: [ScenarioStep]) {
        self.source = source
        self.app = app
        self.steps = steps
    }
}

/// One line of a scenario that does something.
public struct ScenarioStep: Sendable, Equatable {
    public var line: Int
    public var command: ScenarioCommand
    /// The line as written, for messages.
    public var text: String
}

/// What a scenario line asks for.
public enum ScenarioCommand: Sendable, Equatable {
    case tap(String)
    case enter(String, text: String)
    case back
    case dismiss
    case select(String)
    case deepLink(String)
    /// Waits this long; `nil` waits until no asynchronous work is pending.
    case wait(nanoseconds: UInt64?)
    /// The visible screen has this type name (`Detail`) or instance id (`Detail#1`).
    case expectScreen(String)
    /// Some text on the visible screen contains this.
    case expectText(String)
    /// No text on the visible screen contains this.
    case expectNoText(String)
    /// The visible stack holds exactly these screens, bottom to top.
    case expectStack([String])

    /// The session command this line sends, if it is not an expectation or a wait until idle.
    var sessionCommand: SessionCommand? {
        switch self {
        case .tap(let element): .action(element: element, value: nil)
        case .enter(let element, let text): .action(element: element, value: text)
        case .back: .back
        case .dismiss: .dismiss
        case .select(let tab): .selectTab(tab)
        case .deepLink(let url): .deepLink(url)
        case .wait(let nanoseconds?): .wait(nanoseconds: nanoseconds)
        case .wait(nil), .expectScreen, .expectText, .expectNoText, .expectStack: nil
        }
    }
}

/// A scenario that could not be parsed or did not hold, at a file and line.
public struct ScenarioError: Error, Equatable, CustomStringConvertible {
    public var source: String
    public var line: Int
    public var message: String
    /// For a failed expectation: what was expected and what was there.
    public var expected: String?
    public var actual: String?

    public init(source: String, line: Int, message: String, expected: String? = nil, actual: String? = nil) {
        self.source = source
        self.line = line
        self.message = message
        self.expected = expected
        self.actual = actual
    }

    public var description: String {
        var text = "\(source):\(line): \(message)"
        if let expected { text += "\n  expected: \(expected)" }
        if let actual { text += "\n  actual:   \(actual)" }
        return text
    }
}
