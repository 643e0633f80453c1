/// Replaces the private values of events with keyed hashes, or removes them.
///
/// A value is private when app code marked it (``Event/privatePaths``, filled from
/// ``PrivateFields`` and private text fields) or a ``RedactionRule`` of the policy names it.
/// The journal writer runs every event through its redactor on the writer thread, before
/// encoding, so clear values never reach a file and the caller's `record` pays nothing.
///
/// A hash is `hmac:` followed by the first 16 hex digits (64 bits) of HMAC-SHA256 under the
/// key, over the value's UTF-8 bytes for a string and over its compact JSON (keys sorted)
/// otherwise. Equal values give equal hashes under one key; `null` stays `null`.
public struct Redactor: Sendable {
    public let policy: PrivacyPolicy
    private let hmac: HMACSHA256
    private let fieldRules: [String: [[String]]]
    private let anyViewModelRules: [[String]]
    private let actionElements: Set<String>
    private let isEveryActionPrivate: Bool
    private let isDeepLinkURLPrivate: Bool
    private let isErrorMessagePrivate: Bool

    /// The prefix of every hashed value.
    public static let hashPrefix = "hmac:"
    /// Hex digits kept of the 64 of the tag.
    public static let hashDigits = 16

    public init(policy: PrivacyPolicy, key: [UInt8]) {
        self.policy = policy
        hmac = HMACSHA256(key: key)
        var fieldRules: [String: [[String]]] = [:]
        var anyViewModelRules: [[String]] = []
        var actionElements: Set<String> = []
        var isEveryActionPrivate = false
        var isDeepLinkURLPrivate = false
        var isErrorMessagePrivate = false
        for rule in policy.rules {
            switch rule {
            case .viewModelField("*", let path): anyViewModelRules.append(path)
            case .viewModelField(let viewModel, let path): fieldRules[viewModel, default: []].append(path)
            case .actionValue("*"): isEveryActionPrivate = true
            case .actionValue(let element): actionElements.insert(element)
            case .deepLinkURL: isDeepLinkURLPrivate = true
            case .errorMessage: isErrorMessagePrivate = true
            }
        }
        self.isDeepLinkURLPrivate = isDeepLinkURLPrivate
        self.isErrorMessagePrivate = isErrorMessagePrivate
        self.fieldRules = fieldRules
        self.anyViewModelRules = anyViewModelRules
        self.actionElements = actionElements
        self.isEveryActionPrivate = isEveryActionPrivate
    }

    // MARK: - Hashing

    /// Returns the stored form of a private value: `hmac:3f2a…` (16 hex digits).
    public func hash(_ value: JSONValue) -> String {
        let tag: [UInt8]
        if case .string(let text) = value {
            tag = hmac.authenticationCode(for: text.utf8)
        } else {
            tag = hmac.authenticationCode(for: value.serialized().utf8)
        }
        return Self.hashPrefix + String(tag.hexString.prefix(Self.hashDigits))
    }

    // MARK: - Redacting

    /// The payload paths of `event` to protect, as components; empty when there is nothing to do.
    public func privatePaths(of event: Event) -> [[String]] {
        var paths = event.privatePaths.map { $0.split(separator: ".").map(String.init) }
        switch event.kind {
        case .viewModelChange, .presenterInit:
            guard !fieldRules.isEmpty || !anyViewModelRules.isEmpty,
                  let viewModel = event.payload["viewmodel"]?.stringValue else { break }
            for path in (fieldRules[viewModel] ?? []) + anyViewModelRules {
                paths.append(["snapshot"] + path)
                paths.append(["previous"] + path)
            }
        case .action:
            guard isEveryActionPrivate || !actionElements.isEmpty else { break }
            if isEveryActionPrivate || event.payload["element"]?.stringValue.map(actionElements.contains) == true {
                paths.append(["value"])
            }
        case .deepLink:
            if isDeepLinkURLPrivate { paths.append(["url"]) }
        case .error:
            if isErrorMessagePrivate
                || (isDeepLinkURLPrivate && event.payload["code"]?.stringValue.map(RedactionRule.deepLinkErrorCodes.contains) == true)
            {
                paths.append(["message"])
            }
        default:
            break
        }
        return paths
    }

    /// Whether ``redact(_:)`` could change `event`: it carries marks, or a configured rule may
    /// apply to its kind. Most events need nothing, and the writer skips them without a copy.
    public func mayRedact(_ event: Event) -> Bool {
        mayRedact(kind: event.kind, isMarked: !event.privatePaths.isEmpty)
    }

    /// ``mayRedact(_:)`` from the two fields it reads, for callers that hold events in a
    /// buffer and must not copy them out to ask.
    public func mayRedact(kind: EventKind, isMarked: Bool) -> Bool {
        if isMarked { return true }
        switch kind {
        case .viewModelChange, .presenterInit: return !fieldRules.isEmpty || !anyViewModelRules.isEmpty
        case .action: return isEveryActionPrivate || !actionElements.isEmpty
        case .deepLink: return isDeepLinkURLPrivate
        case .error: return isErrorMessagePrivate || isDeepLinkURLPrivate
        default: return false
        }
    }

    /// Returns `event` with its private values hashed or removed, and its marks cleared.
    public func redact(_ event: Event) -> Event {
        let paths = privatePaths(of: event)
        var result = event
        result.privatePaths = []
        guard !paths.isEmpty else { return result }
        var removed: [String] = []
        for path in paths {
            if apply(path[...], to: &result.payload), policy.mode == .remove { removed.append(path.joined(separator: ".")) }
        }
        if !removed.isEmpty, case .object(var members) = result.payload {
            members["redacted"] = .array(Array(Set(removed)).sorted().map { .string($0) })
            result.payload = .object(members)
        }
        return result
    }

    /// Protects the value at `path` inside `value`; returns whether it found one. Arrays on the
    /// way apply the rest of the path to each element.
    private func apply(_ path: ArraySlice<String>, to value: inout JSONValue) -> Bool {
        switch value {
        case .object(var members):
            guard let key = path.first, var child = members[key] else { return false }
            let rest = path.dropFirst()
            if rest.isEmpty {
                if case .null = child { return false }
                if policy.mode == .remove {
                    members[key] = nil
                } else {
                    members[key] = .string(hash(child))
                }
                value = .object(members)
                return true
            }
            let found = apply(rest, to: &child)
            members[key] = child
            value = .object(members)
            return found
        case .array(var items):
            var found = false
            for index in items.indices where apply(path, to: &items[index]) { found = true }
            value = .array(items)
            return found
        default:
            return false
        }
    }
}
