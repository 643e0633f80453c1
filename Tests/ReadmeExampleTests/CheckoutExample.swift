import Foundation
import NavlogHost
import NavlogJournal
import NavlogRuntime
import NavlogTesting
import XCTest

// MARK: - The app: a coordinator, two screens, a presenter with a view model

struct CartViewModel: Codable, Equatable {
    var items = ["Coffee beans", "Filter papers"]
    var isCheckingOut = false
}

final class CartPresenter: ViewModelPresenter<CartViewModel> {
    var onCheckout: () throws -> Void = {}

    func checkout() throws {
        updateViewModel { $0.isCheckingOut = true }
        try onCheckout()
    }
}

final class CartView: ScreenView {
    let presenter: CartPresenter
    init(presenter: CartPresenter) { self.presenter = presenter }
    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        .group([
            .list("items", items: presenter.viewModel.items.map { .item($0, title: $0) }),
            .button("checkout", title: "Check out"),
        ])
    }

    func handle(_ action: UserAction) throws {
        if action.element == "checkout" { try presenter.checkout() }
    }
}

final class PaymentView: ScreenView {
    func render() -> Element { .group([.text("Pay"), .button("pay", title: "Pay now")]) }
    func handle(_ action: UserAction) throws {}
}

final class CheckoutCoordinator: Coordinator {
    let stack: NavigationStack

    override init(context: NavigationContext) {
        stack = NavigationStack(context: context)
        super.init(context: context)
    }

    override func didStart() throws {
        let presenter = CartPresenter(context: context, viewModel: CartViewModel())
        presenter.onCheckout = { [unowned self] in
            try stack.push(Screen(name: "Payment", view: PaymentView(), owner: self, context: context))
        }
        try stack.push(Screen(name: "Cart", view: CartView(presenter: presenter), owner: self, context: context))
        try context.window.setRoot(stack, owner: self)
    }
}

let checkout = AppDefinition(name: "checkout", summary: "Cart to payment") { context, _ in
    CheckoutCoordinator(context: context)
}

// MARK: - Tests: the exact events, then a journal on disk

final class CheckoutTests: XCTestCase {
    func testCheckoutRecordsExactlyTheseEvents() throws {
        let store = try NavigationTestStore(app: checkout)
        store.assertLaunch([
            "1 session.start Session#1",
            "2 coordinator.start CheckoutCoordinator#1 ←1",
            "3 presenter.init CartPresenter#1 ←2",
            "4 screen.push CheckoutCoordinator#1 [Cart#1] ←2",
            "5 window.root CheckoutCoordinator#1 [Cart#1] ←2",
            "6 screen.ready CheckoutCoordinator#1 [Cart#1] ←2",
        ])
        try store.send(.action(element: "checkout", value: nil), [
            "7 action Cart#1 [Cart#1] ←1",
            "8 viewmodel.change CartPresenter#1 [Cart#1] ←7",
            "9 screen.push CheckoutCoordinator#1 [Payment#1] ←7",
            "10 screen.ready CheckoutCoordinator#1 [Payment#1] ←7",
        ])
        try store.send(.back, [
            "11 action Payment#1 [Payment#1] ←1",
            "12 screen.pop CheckoutCoordinator#1 [Payment#1] ←11",
        ])
        store.finish()  // fails on unasserted events and on leaks (as the store does when it goes)
    }

    func testCheckoutIsRecordedIntoAJournal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
        let journal = try JournalWriter(configuration: JournalConfiguration(directory: directory, labels: ["scenario": "checkout"]))
        let session = try SessionCore(id: "s-1", app: checkout, parameters: try checkout.resolveParameters([:]), sink: journal)
        try session.perform(.action(element: "checkout", value: nil))
        session.end()
        try journal.close()

        let events = try JournalReader(paths: [directory]).allEvents()
        XCTAssertEqual(events.filter { $0.kind == .screenPush }.map(\.screen), ["Cart#1", "Payment#1"])
        XCTAssertEqual(events.last?.kind, .sessionEnd)
    }
}
