/// What to protect beyond what app code marks, and how: the configuration's side of privacy.
///
/// Rules (`privacy.redact` in `navlogd.json`, `--redact` on `navlog run` and `explore`):
///
/// | rule | protects |
/// |---|---|
/// | `ProfileViewModel.email` | field `email` of view model type `ProfileViewModel`, in `presenter.init` and `viewmodel.change` snapshots and previous values |
/// | `ProfileViewModel.address.street` | a nested field |
/// | `*.email` | field `email` of every view model |
/// | `action.value:profile-name` | the value entered into element `profile-name` (`action` events) |
/// | `action.value:*` | every action value |
/// | `deeplink.url` | the URL of `deeplink` events, and the message of the `error` a deep link fails with (it quotes the URL) |
/// | `error.message` | the message of every `error` event (its `code` stays) |
public struct PrivacyPolicy: Sendable, Equatable {
    /// What becomes of a private value.
    public enum Mode: String, Sendable, CaseIterable {
        /// Replaced by `hmac:` and 16 hex digits of HMAC-SHA256 under the journal's key.
        case hash
        /// Removed; the payload lists the removed paths under `redacted`.
        case remove
    }

    public var mode: Mode
    public var rules: [RedactionRule]

    public init(mode: Mode = .hash, rules: [RedactionRule] = []) {
        self.mode = mode
        self.rules = rules
    }
}

/// One configured redaction; see ``PrivacyPolicy`` for the syntax.
public enum RedactionRule: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// A field of a view model type's snapshot (`viewModel` may be `*`).
    case viewModelField(viewModel: String, path: [String])
    /// The value of actions on an element (`element` may be `*`).
    case actionValue(element: String)
    /// The URL of `deeplink` events, and the message of the `error` events a deep link fails
    /// with (codes ``deepLinkErrorCodes``), which quote it.
    case deepLinkURL
    /// The message of every `error` event.
    case errorMessage

    static let actionPrefix = "action.value:"
    /// The `error` codes whose message quotes a deep link's URL (the runtime's
    /// `NavigationError.unreachableDeepLink` and `.deepLinkStepFailed`).
    public static let deepLinkErrorCodes: Set<String> = ["unreachable_deeplink", "deeplink_step_failed"]
    /// The rules that name an event kind's member, by their text.
    private static let eventMemberRules: [String: RedactionRule] = ["deeplink.url": .deepLinkURL, "error.message": .errorMessage]

    /// Parses one rule; throws a sentence saying what is wrong.
    public init(parsing text: String) throws {
        if let rule = Self.eventMemberRules[text] {
            self = rule
            return
        }
        if let known = Self.eventMemberRules.keys.first(where: { text.hasPrefix($0.prefix { $0 != "." } + ".") }) {
            throw RedactionRuleError(rule: text, reason: "names a member of '\(known.prefix { $0 != "." })' events other than the one a rule protects (\(known))")
        }
        if text.hasPrefix(Self.actionPrefix) {
            let element = String(text.dropFirst(Self.actionPrefix.count))
            guard !element.isEmpty, !element.contains(where: { $0.isWhitespace }) else {
                throw RedactionRuleError(rule: text, reason: "needs an element id after 'action.value:', such as action.value:profile-name")
            }
            self = .actionValue(element: element)
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2 else {
            throw RedactionRuleError(rule: text, reason: "must be ViewModelType.field (such as ProfileViewModel.email), action.value:ELEMENT, deeplink.url or error.message")
        }
        for (index, part) in parts.enumerated() {
            let isWildcard = index == 0 && part == "*"
            guard isWildcard || (!part.isEmpty && part.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })) else {
                throw RedactionRuleError(rule: text, reason: "part \(index + 1) ('\(part)') must be a name of letters, digits, '_' or '-'" + (index == 0 ? " or '*'" : ""))
            }
        }
        self = .viewModelField(viewModel: parts[0], path: Array(parts.dropFirst()))
    }

    public var description: String {
        switch self {
        case .viewModelField(let viewModel, let path): ([viewModel] + path).joined(separator: ".")
        case .actionValue(let element): Self.actionPrefix + element
        case .deepLinkURL: "deeplink.url"
        case .errorMessage: "error.message"
        }
    }
}

/// A redaction rule that does not parse.
public struct RedactionRuleError: Error, CustomStringConvertible {
    public var rule: String
    public var reason: String

    public var description: String { "redaction rule '\(rule)' \(reason)" }
}
