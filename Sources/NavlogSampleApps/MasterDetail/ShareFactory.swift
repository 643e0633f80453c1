import Foundation
import NavlogRuntime

// MARK: - Factory

/// Builds the Share screen, pushed over Detail by the Detail coordinator.
enum ShareFactory {
    static func make(with coordinator: DetailCoordinator, date: Date) -> Screen {
        let presenter = SharePresenter(context: coordinator.context, coordinator: coordinator, date: date)
        return Screen(name: "Share", view: ShareView(presenter: presenter), owner: coordinator, context: coordinator.context)
    }
}

// MARK: - Model

/// What the Share screen shows: the recipient typed so far and, after a bad send, why.
struct ShareViewModel: Codable, Equatable {
    var date: Date
    var recipient = ""
    var errorMessage: String?
    var isSent = false
}

// MARK: - Presenter

/// Validates the recipient and hands the result to the coordinator.
final class SharePresenter: ViewModelPresenter<ShareViewModel> {
    private weak var coordinator: DetailCoordinator?

    init(context: NavigationContext, coordinator: DetailCoordinator, date: Date) {
        self.coordinator = coordinator
        super.init(context: context, viewModel: ShareViewModel(date: date))
    }

    func didEnterRecipient(_ text: String) {
        updateViewModel {
            $0.recipient = text.trimmingCharacters(in: .whitespaces)
            $0.errorMessage = nil
        }
    }

    func didTapSend() throws {
        guard Self.isEmailAddress(viewModel.recipient) else {
            updateViewModel { $0.errorMessage = "Enter an email address, such as ana@example.com." }
            return
        }
        updateViewModel { $0.isSent = true }
        try coordinator?.shareDidFinish(sentTo: viewModel.recipient)
    }

    func didTapCancel() throws {
        try coordinator?.shareDidFinish(sentTo: nil)
    }

    /// A deliberately small check: something before and after one `@`, and a dot in the domain.
    static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !text.contains(" ") else { return false }
        let domain = parts[1]
        return domain.contains(".") && !domain.hasPrefix(".") && !domain.hasSuffix(".")
    }
}

// MARK: - View

/// A recipient field, a send button and an inline error.
final class ShareView: ScreenView {
    private let presenter: SharePresenter

    init(presenter: SharePresenter) {
        self.presenter = presenter
    }

    var boundObjects: [any ScreenBound] { [presenter] }

    func render() -> Element {
        let model = presenter.viewModel
        var children: [Element] = [
            .text("Share \(DayFormatter.short(model.date))", id: "share-title"),
            .textField("share-recipient", placeholder: "Email address", value: model.recipient),
        ]
        if let error = model.errorMessage {
            children.append(.text(error, id: "share-error"))
        }
        children += [
            .button("send-share", title: "Send"),
            .button("cancel-share", title: "Cancel"),
        ]
        return .group(children)
    }

    func handle(_ action: UserAction) throws {
        switch action.element {
        case "share-recipient": presenter.didEnterRecipient(action.value ?? "")
        case "send-share": try presenter.didTapSend()
        case "cancel-share": try presenter.didTapCancel()
        default: break
        }
    }
}
