/// A view model (or observable state) with fields that must never be stored in clear.
///
/// The runtime marks these fields in every `presenter.init` and `viewmodel.change` it records;
/// the journal writer replaces their values with keyed hashes (or removes them) before anything
/// is written. Nested fields use dots: `"address.street"`.
///
/// ```swift
/// struct ProfileViewModel: Codable, Equatable, PrivateFields {
///     static let privateFields: Set<String> = ["email", "address.street"]
///     var email: String
///     var address: Address
///     var isVerified: Bool
/// }
/// ```
///
/// Text fields are marked at the element instead: `.textField("email", …, isPrivate: true)`
/// makes the values entered into it private in the `action` events.
public protocol PrivateFields {
    /// The snapshot key paths whose values are private.
    static var privateFields: Set<String> { get }
}

extension Event {
    /// The payload paths of `fields` in a view-model payload: each under `snapshot` and `previous`.
    public static func viewModelPrivatePaths(_ fields: Set<String>) -> [String] {
        fields.sorted().flatMap { ["snapshot." + $0, "previous." + $0] }
    }
}
