import NavlogEvents

/// A presenter: it turns what the interactor or the user does into what the view shows.
///
/// Creation and deallocation are recorded (`presenter.init`, `presenter.deinit`), so a
/// presenter that outlives its screen shows up as a leak.
open class Presenter: ScreenBound {
    public let context: NavigationContext
    /// The instance name, such as `MasterPresenter#1`.
    public let id: String
    /// The screen whose view this presenter serves, once built.
    public private(set) weak var screen: Screen?

    public init(context: NavigationContext) {
        self.context = context
        self.id = context.makeInstanceName(for: InstanceID.typeName(of: type(of: self)))
        context.record(.presenterInit, subject: id, payload: .object(initPayload()), privatePaths: initPrivatePaths())
    }

    deinit {
        context.record(.presenterDeinit, subject: id)
    }

    /// Extra fields for the `presenter.init` payload.
    open func initPayload() -> [String: JSONValue] { [:] }

    /// The paths of ``initPayload()`` that are private (see ``PrivateFields``).
    open func initPrivatePaths() -> [String] { [] }

    open func bind(to screen: Screen) {
        self.screen = screen
    }
}

/// An MVP presenter that owns an observable view model (seed 000's `MasterPresenter`).
///
/// Setting ``viewModel`` to a different value records a `viewmodel.change`; setting an equal
/// value records nothing.
///
/// ```swift
/// final class MasterPresenter: ViewModelPresenter<MasterViewModel> {
///     func refresh(now: Date) { viewModel = MasterViewModel(date: now) }
/// }
/// ```
open class ViewModelPresenter<ViewModel: Codable & Equatable>: Presenter {
    private var recorder: ViewModelRecorder<ViewModel>

    public init(context: NavigationContext, viewModel: ViewModel) {
        recorder = ViewModelRecorder(viewModel)
        super.init(context: context)
    }

    open override func initPayload() -> [String: JSONValue] {
        ["viewmodel": .string(InstanceID.typeName(of: ViewModel.self)), "snapshot": recorder.currentSnapshot]
    }

    open override func initPrivatePaths() -> [String] { recorder.initPrivatePaths }

    /// The view model the view renders.
    public var viewModel: ViewModel {
        get { recorder.value }
        set { recorder.set(newValue, context: context, subject: id, screen: screen?.id) }
    }

    /// Changes some fields of the view model at once; one event if anything changed.
    public func updateViewModel(_ change: (inout ViewModel) -> Void) {
        var copy = recorder.value
        change(&copy)
        viewModel = copy
    }
}

/// An observable state object that is not a presenter: seed 001's VIPER Model layer
/// (`SceneModel`), or seed 003's `DataSource`. Views render it; presenters set it.
open class ObservableModel<State: Codable & Equatable>: ScreenBound {
    public let context: NavigationContext
    /// The instance name, such as `SceneModel#1`.
    public let id: String
    public private(set) weak var screen: Screen?
    private var recorder: ViewModelRecorder<State>

    public init(context: NavigationContext, state: State) {
        self.context = context
        self.recorder = ViewModelRecorder(state)
        self.id = context.makeInstanceName(for: InstanceID.typeName(of: type(of: self)))
    }

    /// The state the view renders; setting a different value records a `viewmodel.change`.
    public var state: State {
        get { recorder.value }
        set { recorder.set(newValue, context: context, subject: id, screen: screen?.id) }
    }

    /// Changes some fields of the state at once; one event if anything changed.
    public func update(_ change: (inout State) -> Void) {
        var copy = recorder.value
        change(&copy)
        state = copy
    }

    open func bind(to screen: Screen) {
        self.screen = screen
    }
}

/// Seed 003's data source: values the presenter publishes, bound into the view, which renders
/// them and never sees the presenter.
public final class DataSource<Value: Codable & Equatable>: ObservableModel<Value> {}
