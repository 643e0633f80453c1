/// The fingerprints of a `viewmodel.change`'s snapshot and of the snapshot before it: all the
/// report's churn figures compare of view-model states (docs/REPORT.md).
///
/// The snapshot before is the new one with each changed field set back to its `previous`
/// value, or removed where that is `null` (the recorder writes `null` for a field that was
/// absent); a snapshot that is not an object was `previous.value`.
public struct SnapshotFingerprints: Sendable, Equatable {
    /// The snapshot's ``JSONFingerprint``.
    public var now: UInt64
    /// The fingerprint of the snapshot before the change.
    public var before: UInt64

    /// The fingerprints of a `viewmodel.change` payload's `snapshot` and `previous` members,
    /// which hold ``JSONFingerprint/digest(_:)``s of themselves when `digested` (they give the
    /// same fingerprints), given the fields it `changed`.
    public init(snapshot: JSONValue?, previous: JSONValue?, changed fields: some Collection<String>, digested: Bool) {
        if digested {
            var keys: [UInt64] = []
            keys.reserveCapacity(fields.count)
            for field in fields {
                let key = JSONFingerprint.of(field)
                if !keys.contains(key) { keys.append(key) }
            }
            self = SnapshotFingerprints(snapshot: snapshot.flatMap(DigestParts.init), previous: previous.flatMap(DigestParts.init), changedKeys: keys)
            return
        }
        let snapshot = snapshot ?? .null
        guard case .object(let members) = snapshot else {
            now = JSONFingerprint.of(snapshot)
            before = JSONFingerprint.of(previous?["value"] ?? .null)
            return
        }
        var sum = JSONFingerprint.ObjectSum()
        for (key, value) in members { sum.add(key, value) }
        now = sum.fingerprint
        let previous = previous?.objectValue ?? [:]
        var seen: Set<String> = []
        for field in fields where seen.insert(field).inserted {
            if let value = members[field] { sum.remove(field, value) }
            if let old = previous[field], old != .null { sum.add(field, old) }
        }
        before = sum.fingerprint
    }

    /// A ``JSONFingerprint/digest(_:)`` taken apart: an object's members as the fingerprints
    /// of their keys and values, or another value's fingerprint. A journal reader fills one in
    /// straight from a block's bytes, reusing its storage from one event to the next.
    public struct DigestParts: Sendable {
        /// The fingerprint of a value that is not an object.
        public var fingerprint: UInt64
        public var isObject: Bool
        /// An object's members, in key order.
        public var members: [(key: UInt64, value: UInt64)] = []

        public init(fingerprint: UInt64, isObject: Bool = false) {
            self.fingerprint = fingerprint
            self.isObject = isObject
        }

        /// The parts of the digest `digest` holds; nil when it is not one.
        public init?(_ digest: JSONValue) {
            switch JSONFingerprint.Digest(digest) {
            case nil: return nil
            case .value(let fingerprint)?: self.init(fingerprint: fingerprint)
            case let object?:
                self.init(fingerprint: 0, isObject: true)
                object.forEachMember { members.append(($0, $1)) }
            }
        }

        /// The digest itself, as ``JSONFingerprint/digest(_:)`` gives it.
        public var digest: JSONValue {
            guard isObject else { return .int(Int64(bitPattern: fingerprint)) }
            var pairs: [JSONValue] = []
            pairs.reserveCapacity(2 * members.count)
            for member in members {
                pairs.append(.int(Int64(bitPattern: member.key)))
                pairs.append(.int(Int64(bitPattern: member.value)))
            }
            return .array(pairs)
        }
    }

    /// The fingerprints of a `viewmodel.change` whose `snapshot` and `previous` have these
    /// digests (nil when absent), given the distinct fingerprints of the fields it changed.
    public init(snapshot: DigestParts?, previous: DigestParts?, changedKeys keys: [UInt64]) {
        guard let snapshot, snapshot.isObject else {
            now = snapshot?.fingerprint ?? JSONFingerprint.null
            let value = JSONFingerprint.of("value")
            before = previous?.isObject == true ? previous?.members.first { $0.key == value }?.value ?? JSONFingerprint.null : JSONFingerprint.null
            return
        }
        var sum = JSONFingerprint.ObjectSum()
        for member in snapshot.members { sum.add(key: member.key, value: member.value) }
        now = sum.fingerprint
        var earlier = sum
        for member in snapshot.members where keys.contains(member.key) { earlier.remove(key: member.key, value: member.value) }
        if let previous, previous.isObject {
            for member in previous.members where member.value != JSONFingerprint.null && keys.contains(member.key) {
                earlier.add(key: member.key, value: member.value)
            }
        }
        before = earlier.fingerprint
    }

    /// The fingerprints of a `viewmodel.change` payload (see ``init(snapshot:previous:changed:digested:)``).
    public init(payload: JSONValue, changed fields: some Collection<String>, digested: Bool) {
        self.init(snapshot: payload["snapshot"], previous: payload["previous"], changed: fields, digested: digested)
    }
}
