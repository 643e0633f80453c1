import NavlogEvents

/// A user's intent on one element of the visible screen.
public struct UserAction: Equatable, Sendable {
    /// The id of the element acted on.
    public var element: String
    /// The text entered into a text field, or `"true"`/`"false"` for a toggle.
    public var value: String?

    public init(element: String, value: String? = nil) {
        self.element = element
        self.value = value
    }
}

/// A headless view: it renders its state into ``Element``s and turns actions on them into
/// calls on its presenter, delegate or tap handler. A view never knows which coordinator, or
/// which presentation style, is behind what it asks for.
public protocol ScreenView: AnyObject {
    /// Renders the view's current state.
    func render() -> Element

    /// Handles an action on one of the elements ``render()`` returned. The runtime has already
    /// checked that the element exists and takes actions.
    func handle(_ action: UserAction) throws

    /// The presenter, model layer or data source that serve this view; the screen binds each
    /// to itself when it is built, so their events name the screen.
    var boundObjects: [any ScreenBound] { get }

    /// Called once when a screen starts hosting the view (`viewDidLoad`).
    func didAttach(to screen: Screen)

    /// Called each time the view's screen becomes the one the user sees (`viewDidAppear`,
    /// SwiftUI `onAppear`), after the event that brought it on top.
    func didAppear()

    /// Whether the view's content arrives asynchronously, so that its presenter or interactor
    /// says when it is fully displayed (``Screen/reportReady(_:)``). When `false` (the
    /// default), the screen is ready as soon as it first appears and the runtime records
    /// `screen.ready` itself.
    var reportsReadiness: Bool { get }
}

extension ScreenView {
    public var boundObjects: [any ScreenBound] { [] }
    public func didAttach(to screen: Screen) {}
    public func didAppear() {}
    public var reportsReadiness: Bool { false }
}

// MARK: - Performing actions

extension NavigationContext {
    /// Records a user intent the system performs without a rendered element (back, swipe,
    /// tab bar): an `action` with role `system`. Returns its `sessionSeq`, to use as cause.
    ///
    /// It takes the screen's id, not the screen: the caller must hold no reference that would
    /// outlive the cause and delay the deallocations the gesture leads to.
    func recordSystemAction(_ element: String, onScreen screenID: String, value: String? = nil) -> UInt64 {
        var payload: [String: JSONValue] = ["element": .string(element), "role": "system"]
        if let value { payload["value"] = .string(value) }
        return record(.action, subject: screenID, screen: screenID, payload: .object(payload))
    }

    /// Performs `action` on the visible screen: records an `action` event, then lets the view
    /// handle it, with the action as cause of everything that follows.
    ///
    /// An element that is not on screen, or takes no action, is refused with an `error` event
    /// and nothing moves. No reference to the screen outlives the handling, so what the action
    /// deallocates (a popped screen's presenter) is recorded under the action too.
    public func performAction(element: String, value: String? = nil) throws {
        let action = UserAction(element: element, value: value)
        let event = try {
            guard let screen = window.visibleScreen else { throw fail(.noVisibleScreen, subject: window.id) }
            return try recordAction(action, on: screen)
        }()
        try withCause(event) { try window.visibleScreen?.view.handle(action) }
    }

    /// Performs `action` on `screen`, which should be visible.
    public func perform(_ action: UserAction, on screen: Screen) throws {
        let event = try recordAction(action, on: screen)
        try withCause(event) { try screen.view.handle(action) }
    }

    /// Checks `action` against what `screen` renders and records it; refuses it with an
    /// `error` event when the element is missing, takes no action, or needs a value.
    private func recordAction(_ action: UserAction, on screen: Screen) throws -> UInt64 {
        let tree = screen.render()
        guard let target = tree.element(withID: action.element) else {
            throw fail(
                .unknownElement(element: action.element, screen: screen.id, available: tree.actionableIDs),
                subject: screen.id, screen: screen.id
            )
        }
        guard target.role.isActionable else {
            throw fail(
                .elementNotActionable(element: action.element, role: target.role.rawValue, screen: screen.id),
                subject: screen.id, screen: screen.id
            )
        }
        if target.role == .textField, action.value == nil {
            throw fail(.missingValue(element: action.element, screen: screen.id), subject: screen.id, screen: screen.id)
        }
        var payload: [String: JSONValue] = ["element": .string(action.element), "role": .string(target.role.rawValue)]
        if let value = action.value { payload["value"] = .string(value) }
        let privatePaths = target.isPrivate == true && action.value != nil ? ["value"] : []
        return record(.action, subject: screen.id, screen: screen.id, payload: .object(payload), privatePaths: privatePaths)
    }
}
