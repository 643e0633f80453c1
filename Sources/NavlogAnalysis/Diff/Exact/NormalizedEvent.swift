import NavlogEvents

/// An event with everything that varies between two runs of the same script removed: the
/// journal sequence number, the run, the times and the cursor.
///
/// What stays is what the exact comparison compares: the place in the session
/// (`sessionSeq`), the kind, the subject, the screen, the cause and parent, and the payload
/// minus its time-like fields (see ``timeLikeKeys``) and minus any ignored field paths.
public struct NormalizedEvent: Sendable, Equatable, Codable {
    /// The event's place in its session, from 1.
    public var sessionSeq: UInt64
    public var kind: EventKind
    public var subject: String
    public var screen: String?
    /// The `sessionSeq` of the event that caused this one.
    public var cause: UInt64?
    public var parent: String?
    public var payload: JSONValue

    enum CodingKeys: String, CodingKey {
        case sessionSeq = "n", kind = "k", subject = "s", screen = "screen", cause = "c", parent = "parent", payload = "p"
    }

    /// Top-level payload keys that hold times and are dropped, as are keys ending in `_ns`.
    public static let timeLikeKeys: Set<String> = ["time", "timestamp", "wall", "mono", "elapsed", "duration", "cursor", "seq", "run"]

    /// Normalizes `event`, dropping the payload fields at `ignoredPaths` too (dot-separated
    /// paths into the payload, such as `parameters.latency_ms`).
    public init(_ event: Event, ignoring ignoredPaths: [[String]] = []) {
        sessionSeq = event.sessionSeq
        kind = event.kind
        subject = event.subject
        screen = event.screen
        cause = event.cause
        parent = event.parent
        var payload = event.payload
        if case .object(var members) = payload {
            for key in members.keys where NormalizedEvent.timeLikeKeys.contains(key) || key.hasSuffix("_ns") {
                members[key] = nil
            }
            payload = .object(members)
        }
        for path in ignoredPaths { payload = NormalizedEvent.removing(path[...], from: payload) }
        // Any payload may hold a hashed private value (an action's text, a view-model field, a
        // private app parameter in session.start).
        payload = NormalizedEvent.maskingHashes(payload)
        self.payload = payload
    }

    /// The stand-in for every private value hashed by a journal (`hmac:` and 16 hex digits).
    public static let maskedHash = "hmac:…"

    /// Replaces hashed private values with ``maskedHash``: two journals hash under different
    /// keys, so their hashes say only that a private value was there.
    static func maskingHashes(_ value: JSONValue) -> JSONValue {
        maskedCopy(of: value) ?? value
    }

    /// The value with its hashes masked, or `nil` when it holds none. A value without hashes
    /// (most of them) is kept as it is rather than rebuilt, so it still shares its storage with
    /// the journal reader's decoded values: a long walk's events then take far less memory,
    /// and comparing two of them finds the shared storage equal at once.
    private static func maskedCopy(of value: JSONValue) -> JSONValue? {
        switch value {
        case .string(let text) where text.utf8.count == 21 && text.hasPrefix("hmac:"):
            return .string(maskedHash)
        case .object(let members):
            var copy: [String: JSONValue]?
            for (key, member) in members {
                guard let masked = maskedCopy(of: member) else { continue }
                if copy == nil { copy = members }
                copy![key] = masked
            }
            return copy.map(JSONValue.object)
        case .array(let items):
            var copy: [JSONValue]?
            for (index, item) in items.enumerated() {
                guard let masked = maskedCopy(of: item) else { continue }
                if copy == nil { copy = items }
                copy![index] = masked
            }
            return copy.map(JSONValue.array)
        default:
            return nil
        }
    }

    /// An event with this content and zero times, for models that read events.
    var event: Event {
        Event(
            wallNanoseconds: 0, monotonicNanoseconds: 0, session: "", sessionSeq: sessionSeq, kind: kind,
            subject: subject, screen: screen, cause: cause, parent: parent, payload: payload
        )
    }

    // MARK: - Text

    /// The one-line form diffs show: `12 screen.push DetailCoordinator#1 [Detail#1] ←10 depth=2`.
    ///
    /// View-model snapshots are left out of the line (their fields are compared one by one);
    /// the view model's name and the fields that changed stay.
    public var line: String {
        var parts = ["\(sessionSeq) \(kind) \(subject)"]
        if let screen, screen != subject { parts.append("[\(screen)]") }
        if let cause { parts.append("←\(cause)") }
        if let parent { parts.append("parent=\(parent)") }
        let members = payload.objectValue ?? [:]
        switch kind {
        case .viewModelChange, .presenterInit:
            if let name = members["viewmodel"]?.stringValue { parts.append(name) }
            if let changed = members["changed"]?.arrayValue?.compactMap(\.stringValue) {
                parts.append("changed=" + changed.joined(separator: ","))
            }
        default:
            for key in members.keys.sorted() where key != "snapshot" && key != "previous" {
                let value = members[key]!
                parts.append("\(key)=\(value.stringValue ?? value.serialized())")
            }
        }
        return parts.joined(separator: " ")
    }

    /// The view-model snapshot the event carries, if any.
    var snapshot: [String: JSONValue]? {
        payload["snapshot"]?.objectValue
    }

    // MARK: - Ignored fields

    /// The event with the payload fields at `paths` removed as well.
    func ignoring(_ paths: [[String]]) -> NormalizedEvent {
        var copy = self
        for path in paths { copy.payload = NormalizedEvent.removing(path[...], from: copy.payload) }
        return copy
    }

    private static func removing(_ path: ArraySlice<String>, from value: JSONValue) -> JSONValue {
        guard let key = path.first, case .object(var members) = value, let child = members[key] else { return value }
        if path.count == 1 {
            members[key] = nil
        } else {
            members[key] = removing(path.dropFirst(), from: child)
        }
        return .object(members)
    }
}
