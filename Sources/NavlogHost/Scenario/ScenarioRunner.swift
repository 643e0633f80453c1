import NavlogEvents

/// Runs a scenario's steps against a session, stopping at the first failure.
public enum ScenarioRunner {
    /// What a run did.
    public struct Outcome: Sendable {
        /// How many steps ran to completion.
        public var stepsRun: Int
        /// The first failure: a refused action or an expectation that did not hold.
        public var failure: ScenarioError?

        public var succeeded: Bool { failure == nil }
    }

    /// Runs every step of `scenario` on `session`, in order.
    public static func run(_ scenario: Scenario, on session: SessionCore) -> Outcome {
        for (index, step) in scenario.steps.enumerated() {
            if let failure = perform(step, source: scenario.source, on: session) {
                return Outcome(stepsRun: index, failure: failure)
            }
        }
        return Outcome(stepsRun: scenario.steps.count, failure: nil)
    }

    static func perform(_ step: ScenarioStep, source: String, on session: SessionCore) -> ScenarioError? {
        func failure(_ message: String, expected: String? = nil, actual: String? = nil) -> ScenarioError {
            ScenarioError(source: source, line: step.line, message: message, expected: expected, actual: actual)
        }
        if let command = step.command.sessionCommand {
            do {
                try session.perform(command)
            } catch {
                return failure("\(step.text): \(error)")
            }
            return nil
        }
        let state = session.state()
        let screen = state.visible
        switch step.command {
        case .wait(nanoseconds: nil):
            session.waitUntilIdle()
        case .expectScreen(let expected):
            let actual = screen?.id ?? "no screen"
            if screen.map({ $0.id == expected || InstanceID.typeName(of: $0.id) == expected }) != true {
                return failure("expect screen", expected: expected, actual: actual)
            }
        case .expectText(let expected):
            let texts = screen?.elements.visibleTexts ?? []
            if !texts.contains(where: { $0.contains(expected) }) {
                return failure("expect text", expected: quoted(expected), actual: texts.map(quoted).joined(separator: ", "))
            }
        case .expectNoText(let unexpected):
            let texts = screen?.elements.visibleTexts ?? []
            if let found = texts.first(where: { $0.contains(unexpected) }) {
                return failure("expect no-text", expected: "no text containing \(quoted(unexpected))", actual: quoted(found))
            }
        case .expectStack(let expected):
            let actual = visibleStack(in: session)
            let matches = actual.count == expected.count
                && zip(actual, expected).allSatisfy { $0 == $1 || InstanceID.typeName(of: $0) == $1 }
            if !matches {
                return failure("expect stack", expected: expected.joined(separator: " "), actual: actual.isEmpty ? "no stack" : actual.joined(separator: " "))
            }
        default:
            break
        }
        return nil
    }

    /// The screens of the stack the user is in, bottom to top.
    static func visibleStack(in session: SessionCore) -> [String] {
        session.context.window.topContainer?.activeStack?.screens.map(\.id) ?? []
    }

    private static func quoted(_ text: String) -> String { "\"\(text)\"" }
}
