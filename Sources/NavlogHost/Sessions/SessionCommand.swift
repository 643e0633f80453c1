
/// One thing a client asks of a session.
public enum SessionCommand: Sendable, Equatable, CustomStringConvertible {
    /// Acts on an element of the visible screen: taps a button or item, flips a toggle
    /// (`value` `true`/`false` or none to flip), enters text in a text field.
    case action(element: String, value: String?)
    /// The system back button: pops the visible stack without asking the coordinator.
    case back
    /// The user's swipe-down on the top sheet.
    case dismiss
    /// Selects the tab with this title.
    case selectTab(String)
    /// Follows a deep link.
    case deepLink(String)
    /// Lets time pass: runs the asynchronous work that falls due.
    case wait(nanoseconds: UInt64)

    public var description: String {
        switch self {
        case .action(let element, let value): value.map { "action \(element)=\($0)" } ?? "action \(element)"
        case .back: "back"
        case .dismiss: "dismiss"
        case .selectTab(let title): "select \(title)"
        case .deepLink(let url): "deeplink \(url)"
        case .wait(let nanoseconds): "wait \(nanoseconds / 1_000_000)ms"
        }
    }
}
