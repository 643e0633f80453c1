import NavlogEvents

/// The names a ``ReportBuilder``'s events use, with what the session trackers work out from
/// them once per name rather than once per event: a screen's type, and whether a view model's
/// field is rendered.
///
/// Shared by reference between the builder and its trackers, on the builder's thread only.
final class ReportNames {
    var table = NameTable()
    private let options: ReportOptions
    /// By name id: its type's id in ``typeNames`` (`Detail` for `Detail#1`), once asked for.
    private var types: [NameID?] = []
    /// The types' names: apart from ``table``, which may be a copy of a reader's table that
    /// only the reader adds to.
    private var typeNames = NameTable()
    /// By view model and field: whether the field is listed as not rendered.
    private var nonRendered: [NonRenderedKey: Bool] = [:]

    private struct NonRenderedKey: Hashable {
        var field: NameID
        var viewModel: NameID?
    }

    init(options: ReportOptions) {
        self.options = options
        hasNonRenderedFields = !options.nonRenderedFields.isEmpty
    }

    private let hasNonRenderedFields: Bool

    subscript(id: NameID) -> String { table[id] }

    /// The type of the instance named `id`, as an id of its own (not one of ``table``'s).
    func type(of id: NameID) -> NameID {
        let index = Int(id.rawValue)
        if index < types.count, let type = types[index] { return type }
        let type = typeNames.id(of: InstanceID.typeName(of: table[id]))
        if index >= types.count { types += [NameID?](repeating: nil, count: table.count - types.count) }
        types[index] = type
        return type
    }

    /// The type name of the instance named `id`.
    func typeName(of id: NameID) -> String {
        // The id first, on a line of its own: `typeNames[type(of: id)]` read `typeNames` before
        // the argument added a new type to it, and subscripted that older copy (a trap for a
        // screen whose type no push or present had asked for, such as a window's root).
        let typeID = type(of: id)
        return typeNames[typeID]
    }

    /// Whether `field` of `viewModel` is listed in ``ReportOptions/nonRenderedFields``.
    func isNonRendered(field: NameID, viewModel: NameID?) -> Bool {
        // Most reports list no such field: no lookup at all then.
        guard hasNonRenderedFields else { return false }
        let key = NonRenderedKey(field: field, viewModel: viewModel)
        if let known = nonRendered[key] { return known }
        let answer = options.isNonRendered(field: table[field], viewModel: viewModel.map { table[$0] })
        nonRendered[key] = answer
        return answer
    }
}
