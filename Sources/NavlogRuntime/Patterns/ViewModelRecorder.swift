import NavlogEvents

/// Something that belongs to one screen once the screen is built: a presenter, a VIPER model
/// layer or a data source. Events about it then carry the screen's id.
public protocol ScreenBound: AnyObject {
    /// The instance name, such as `MasterPresenter#1`.
    var id: String { get }
    /// Called by the screen that hosts the view this object serves.
    func bind(to screen: Screen)
}

/// Keeps an observable value and records a `viewmodel.change` each time it is set to a
/// different value, synchronously and in order.
///
/// The payload holds the view model's type name, the full new snapshot, the names of the
/// top-level fields that changed and their previous values, so a reader can print a -/+ diff
/// without replaying the stream.
struct ViewModelRecorder<Value: Codable & Equatable> {
    private(set) var value: Value
    private var snapshot: JSONValue
    private let typeName = JSONValue.string(InstanceID.typeName(of: Value.self))
    /// The payload paths ``PrivateFields`` marks, under `snapshot` and `previous`.
    let privatePaths: [String]

    init(_ value: Value) {
        self.value = value
        self.snapshot = ViewModelRecorder.makeSnapshot(of: value)
        self.privatePaths = (Value.self as? any PrivateFields.Type).map { Event.viewModelPrivatePaths($0.privateFields) } ?? []
    }

    /// The private paths of a `presenter.init` payload, which has a snapshot only.
    var initPrivatePaths: [String] { privatePaths.filter { $0.hasPrefix("snapshot.") } }

    var currentSnapshot: JSONValue { snapshot }

    mutating func set(_ newValue: Value, context: NavigationContext, subject: String, screen: String?) {
        guard newValue != value else { return }
        let newSnapshot = ViewModelRecorder.makeSnapshot(of: newValue)
        value = newValue
        var changed: [JSONValue] = []
        var previous: [String: JSONValue] = [:]
        if case .object(let old) = snapshot, case .object(let new) = newSnapshot {
            // One lookup per field: each new field against its old value, then the old fields
            // that are gone.
            var keys: [String] = []
            var kept = 0
            for (key, value) in new {
                let before = old[key]
                if before != nil { kept += 1 }
                if before != value {
                    keys.append(key)
                    previous[key] = before ?? .null
                }
            }
            if old.count > kept {
                for (key, value) in old where new[key] == nil {
                    keys.append(key)
                    previous[key] = value
                }
            }
            keys.sort()
            changed = keys.map { .string($0) }
        } else {
            previous["value"] = snapshot
        }
        snapshot = newSnapshot
        context.record(
            .viewModelChange, subject: subject, screen: screen,
            payload: [
                "viewmodel": typeName,
                "snapshot": newSnapshot, "changed": .array(changed), "previous": .object(previous),
            ],
            privatePaths: privatePaths
        )
    }

    static func makeSnapshot(of value: Value) -> JSONValue {
        do {
            return try JSONValue(encoding: value)
        } catch {
            return ["unencodable": .string(String(describing: error))]
        }
    }
}
