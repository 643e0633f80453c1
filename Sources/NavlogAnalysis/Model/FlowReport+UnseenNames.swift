/// A name given to a report (an app, or a screen of a funnel, `--from`, `--to` or `--ending`)
/// that the journals read never showed: most often a typo, which would otherwise give an empty
/// result without a word.
public struct UnseenName: Sendable, Equatable, CustomStringConvertible {
    /// The options of a report that name apps or screens.
    public enum Option: String, Sendable, CaseIterable {
        case app
        case funnel
        case from
        case to
        case ending
    }

    /// The option that gave the name.
    public var option: Option
    public var name: String

    public init(option: Option, name: String) {
        self.option = option
        self.name = name
    }

    /// A sentence naming the option and the name, such as
    /// `--funnel names screen 'Nope', which no session read shows`.
    public var description: String {
        switch option {
        case .app: "--app names app '\(name)', which no session read belongs to"
        default: "--\(option.rawValue) names screen '\(name)', which no session read shows"
        }
    }
}

extension FlowReport {
    /// Returns the names in `options` that this report's journals never showed, in the order
    /// of ``UnseenName/Option``, then as given (sets sorted), each once per option.
    ///
    /// Apps are checked against every session read (``Summary/appsRead``), screens against the
    /// screens the reported sessions showed (``screens``): a screen outside the sessions the
    /// filters kept could not count in the report either.
    ///
    /// ```swift
    /// let report = try FlowReport.read(journals: paths, options: options).value
    /// for unseen in report.unseenNames(in: options) { print("warning: \(unseen)") }
    /// ```
    public func unseenNames(in options: ReportOptions) -> [UnseenName] {
        let appsRead = Set(summary.appsRead)
        let screensShown = Set(screens.map(\.screen))
        var unseen: [UnseenName] = []
        func check(_ names: [String], _ option: UnseenName.Option, against seen: Set<String>) {
            var checked: Set<String> = []
            for name in names where !seen.contains(name) && checked.insert(name).inserted {
                unseen.append(UnseenName(option: option, name: name))
            }
        }
        check(options.apps.sorted(), .app, against: appsRead)
        check(options.funnels.flatMap(\.steps), .funnel, against: screensShown)
        check(options.pathsFrom, .from, against: screensShown)
        check(options.pathsTo, .to, against: screensShown)
        check(options.expectedEndings.sorted(), .ending, against: screensShown)
        return unseen
    }
}
