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
            let digest = snapshot.flatMap(JSONFingerprint.Digest.init)
            let previous = previous.flatMap(JSONFingerprint.Digest.init)
            guard let digest, let sum = digest.sum else {
                now = digest?.fingerprint ?? JSONFingerprint.null
                before = previous?.member(key: JSONFingerprint.of("value")) ?? JSONFingerprint.null
                return
            }
            now = sum.fingerprint
            var keys: [UInt64] = []
            keys.reserveCapacity(fields.count)
            for field in fields {
                let key = JSONFingerprint.of(field)
                if !keys.contains(key) { keys.append(key) }
            }
            var earlier = sum
            digest.forEachMember { key, value in
                if keys.contains(key) { earlier.remove(key: key, value: value) }
            }
            previous?.forEachMember { key, old in
                if old != JSONFingerprint.null, keys.contains(key) { earlier.add(key: key, value: old) }
            }
            before = earlier.fingerprint
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

    /// The fingerprints of a `viewmodel.change` payload (see ``init(snapshot:previous:changed:digested:)``).
    public init(payload: JSONValue, changed fields: some Collection<String>, digested: Bool) {
        self.init(snapshot: payload["snapshot"], previous: payload["previous"], changed: fields, digested: digested)
    }
}
