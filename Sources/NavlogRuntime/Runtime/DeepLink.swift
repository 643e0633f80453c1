
/// One step of a multi-step navigation, such as a deep link: a description for the record, a
/// check that runs before any step moves anything, and the move itself.
public struct NavigationStep {
    /// What the step does, as it appears in the `deeplink` event: `select tab Settings`.
    public var description: String
    /// Throws, with the reason, when the step cannot be taken. Runs before any step performs.
    public var check: () throws -> Void
    /// Takes the step.
    public var perform: () throws -> Void

    public init(_ description: String, check: @escaping () throws -> Void = {}, perform: @escaping () throws -> Void) {
        self.description = description
        self.check = check
        self.perform = perform
    }

    // MARK: - Common steps

    /// Selects the tab titled `title`; fails the check when there is no such tab.
    public static func selectTab(_ title: String, in tabs: TabContainer) -> NavigationStep {
        NavigationStep(
            "select tab \(title)",
            check: {
                guard tabs.tabs.contains(where: { $0.title.lowercased() == title.lowercased() }) else {
                    throw DeepLinkUnreachable("no tab '\(title)' in \(tabs.id); tabs: \(tabs.tabs.map(\.title).joined(separator: ", "))")
                }
            },
            perform: { try tabs.select(title) }
        )
    }

    /// Pushes the screen `make` builds onto `stack`.
    public static func push(_ name: String, on stack: NavigationStack, make: @escaping () throws -> Screen) -> NavigationStep {
        NavigationStep("push \(name)", perform: { try stack.push(try make()) })
    }

    /// Pops `stack` to its root, if it holds more than the root.
    public static func popToRoot(_ stack: NavigationStack) -> NavigationStep {
        NavigationStep("pop \(stack.id) to root", perform: { if stack.stackScreens.count > 1 { try stack.popToRoot() } })
    }

    /// Dismisses every modal, if any is presented.
    public static func dismissAll(in window: Window) -> NavigationStep {
        NavigationStep("dismiss all modals", perform: { if !window.modals.isEmpty { try window.dismissAll() } })
    }
}

/// The reason a deep link cannot be reached; thrown from a step's check or a resolver.
public struct DeepLinkUnreachable: Error, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// An app that can turn a deep link into navigation steps.
public protocol DeepLinkHandling: AnyObject {
    /// Returns the steps that reach `url` from wherever the app is, or throws
    /// ``DeepLinkUnreachable`` with the reason.
    func steps(for url: String) throws -> [NavigationStep]
}

extension NavigationContext {
    /// Performs a multi-step navigation as one cause: records a `deeplink` event listing the
    /// steps, checks every step, and only then performs them, each caused by that event.
    ///
    /// When a check fails, an `error` event gives the reason and nothing has moved.
    public func performDeepLink(_ url: String, subject: String, steps: [NavigationStep]) throws {
        let event = record(
            .deepLink, subject: subject, screen: window.visibleScreen?.id,
            payload: ["url": .string(url), "steps": .array(steps.map { .string($0.description) })]
        )
        try withCause(event) {
            for (index, step) in steps.enumerated() {
                do {
                    try step.check()
                } catch {
                    throw fail(.unreachableDeepLink(url: url, reason: "step \(index + 1) (\(step.description)): \(error)"), subject: subject)
                }
            }
            for (index, step) in steps.enumerated() {
                do {
                    try step.perform()
                } catch {
                    throw fail(.deepLinkStepFailed(url: url, step: index + 1, reason: "\(error)"), subject: subject)
                }
            }
        }
    }

    /// Resolves `url` with `handler` and performs the steps; an unresolvable link is recorded
    /// as a `deeplink` event followed by an `error` with the reason.
    public func openDeepLink(_ url: String, with handler: some DeepLinkHandling & ScreenOwner) throws {
        let steps: [NavigationStep]
        do {
            steps = try handler.steps(for: url)
        } catch {
            let event = record(.deepLink, subject: handler.id, screen: window.visibleScreen?.id, payload: ["url": .string(url), "steps": []])
            throw withCause(event) { fail(.unreachableDeepLink(url: url, reason: "\(error)"), subject: handler.id) }
        }
        try performDeepLink(url, subject: handler.id, steps: steps)
    }
}
