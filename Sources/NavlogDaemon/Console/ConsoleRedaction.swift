import NavlogEvents
import NavlogRuntime

/// Redacts the private values of a session's picture for the web console, as the journal
/// stores them.
///
/// What a user typed into a text field reaches the journal as the value of an `action` event,
/// private when the field is (``Element/isPrivate``) or a `privacy.redact` rule names it
/// (`action.value:ELEMENT`). The console shows a field's value as that event would be stored:
/// each value goes through the journal's own ``Redactor`` as such an event, so the console's
/// `hmac:…` is the journal's, and in `remove` mode the value is gone.
struct ConsoleRedaction {
    let redactor: Redactor

    /// Redacts the visible screen's text fields in `state`.
    func redact(_ state: inout NavigationState) {
        guard var visible = state.visible else { return }
        redact(&visible.elements, session: state.session)
        state.visible = visible
    }

    /// Redacts `element` and its children in place.
    func redact(_ element: inout Element, session: String) {
        if element.role == .textField, let id = element.id, let value = element.value {
            let event = Event(wallNanoseconds: 0, monotonicNanoseconds: 0, session: session, sessionSeq: 0, kind: .action, subject: id,
                              payload: ["element": .string(id), "value": .string(value)], privatePaths: element.isPrivate == true ? ["value"] : [])
            if redactor.mayRedact(event) {
                let stored = redactor.redact(event).payload["value"]
                element.value = stored?.stringValue
            }
        }
        guard var children = element.children else { return }
        for index in children.indices { redact(&children[index], session: session) }
        element.children = children
    }
}
