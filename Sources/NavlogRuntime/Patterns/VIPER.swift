import NavlogEvents

/// The VIPER roles the runtime knows about. Entities are plain values; views are
/// ``ScreenView``s; presenters are ``Presenter``s; the Model layer is an ``ObservableModel``.

/// A VIPER interactor: the business logic of one module, doing its work asynchronously on the
/// session's ``WorkScheduler`` and reporting to its output (the presenter).
public protocol Interactor: AnyObject {}

/// A VIPER entity: plain data the interactor works with.
public protocol Entity: Codable, Equatable, Sendable {}

/// A VIPER router: it performs the transitions out of one module's screen. Screens it builds
/// name it as their owner, so it hears when they leave.
open class Router: ScreenOwner {
    public let context: NavigationContext
    /// The instance name, such as `ArticlesRouter#1`.
    public let id: String
    /// The stack the module's screen lives in; transitions push onto it.
    public weak var stack: NavigationStack?

    public init(context: NavigationContext, stack: NavigationStack? = nil) {
        self.context = context
        self.stack = stack
        self.id = context.makeInstanceName(for: InstanceID.typeName(of: type(of: self)))
    }

    /// Called when a screen this router owns leaves the window; override to clean up.
    open func screenDidLeave(_ screen: Screen, reason: RemovalReason) {}
}
