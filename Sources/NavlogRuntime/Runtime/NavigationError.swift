
/// A navigation request the runtime refused. Each one is recorded as an `error` event before it
/// is thrown, and the state is left as it was.
public enum NavigationError: Error, Equatable, CustomStringConvertible, Sendable {
    case stackTooShallow(stack: String, count: Int)
    case screenNotInStack(screen: String, stack: String)
    case emptyStackNotAllowed(stack: String)
    case screenAlreadyShown(screen: String)
    case nothingPresented
    case cannotSwipeDismissFullScreen(screen: String)
    case alreadyHasParent(child: String, parent: String)
    case alreadyStarted(coordinator: String)
    case coordinatorFinished(coordinator: String)
    case unknownTab(container: String, requested: String, available: [String])
    case unknownElement(element: String, screen: String, available: [String])
    case elementNotActionable(element: String, role: String, screen: String)
    case missingValue(element: String, screen: String)
    case noVisibleScreen
    case noStack(screen: String)
    case unreachableDeepLink(url: String, reason: String)
    case deepLinkStepFailed(url: String, step: Int, reason: String)
    case sessionEnded(String)
    case rejected(subject: String, reason: String)

    /// A stable, machine-readable name for the error, used in `error` events.
    public var code: String {
        switch self {
        case .stackTooShallow: "stack_too_shallow"
        case .screenNotInStack: "screen_not_in_stack"
        case .emptyStackNotAllowed: "empty_stack"
        case .screenAlreadyShown: "screen_already_shown"
        case .nothingPresented: "nothing_presented"
        case .cannotSwipeDismissFullScreen: "full_screen_not_swipeable"
        case .alreadyHasParent: "already_has_parent"
        case .alreadyStarted: "already_started"
        case .coordinatorFinished: "coordinator_finished"
        case .unknownTab: "unknown_tab"
        case .unknownElement: "unknown_element"
        case .elementNotActionable: "element_not_actionable"
        case .missingValue: "missing_value"
        case .noVisibleScreen: "no_visible_screen"
        case .noStack: "no_stack"
        case .unreachableDeepLink: "unreachable_deeplink"
        case .deepLinkStepFailed: "deeplink_step_failed"
        case .sessionEnded: "session_ended"
        case .rejected: "rejected"
        }
    }

    public var description: String {
        switch self {
        case .stackTooShallow(let stack, let count):
            count == 0
                ? "cannot pop \(stack): the stack is empty"
                : "cannot pop \(stack): it holds only its root screen"
        case .screenNotInStack(let screen, let stack):
            "cannot pop to \(screen): it is not on \(stack)"
        case .emptyStackNotAllowed(let stack):
            "cannot set \(stack) to no screens: a stack needs a root screen"
        case .screenAlreadyShown(let screen):
            "cannot show \(screen): it is already on screen"
        case .nothingPresented:
            "cannot dismiss: nothing is presented"
        case .cannotSwipeDismissFullScreen(let screen):
            "cannot swipe-dismiss \(screen): it is presented full screen"
        case .alreadyHasParent(let child, let parent):
            "cannot coordinate to \(child): it already has the parent \(parent)"
        case .alreadyStarted(let coordinator):
            "cannot start \(coordinator): it has already started"
        case .coordinatorFinished(let coordinator):
            "cannot use \(coordinator): it has finished"
        case .unknownTab(let container, let requested, let available):
            "no tab '\(requested)' in \(container); tabs: \(available.joined(separator: ", "))"
        case .unknownElement(let element, let screen, let available):
            "no element '\(element)' on screen \(screen); actionable elements: "
                + (available.isEmpty ? "none" : available.joined(separator: ", "))
        case .elementNotActionable(let element, let role, let screen):
            "element '\(element)' on screen \(screen) is a \(role), which takes no action"
        case .missingValue(let element, let screen):
            "element '\(element)' on screen \(screen) is a text field: give a value to enter"
        case .noVisibleScreen:
            "no screen is visible"
        case .noStack(let screen):
            "cannot go back from \(screen): it is not in a navigation stack"
        case .unreachableDeepLink(let url, let reason):
            "deep link \(url) cannot be reached: \(reason)"
        case .deepLinkStepFailed(let url, let step, let reason):
            "deep link \(url) failed at step \(step): \(reason)"
        case .sessionEnded(let session):
            "session \(session) has ended"
        case .rejected(let subject, let reason):
            "\(subject) refused: \(reason)"
        }
    }
}
