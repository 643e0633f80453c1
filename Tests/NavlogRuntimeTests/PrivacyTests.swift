import NavlogEvents
import NavlogRuntime
import XCTest

// MARK: - A screen with private data

private struct AccountViewModel: Codable, Equatable, PrivateFields {
    static let privateFields: Set<String> = ["email", "address.street"]
    struct Address: Codable, Equatable {
        var street: String
        var city: String
    }
    var email = ""
    var address = Address(street: "1 Rua Augusta", city: "Lisboa")
    var isVerified = false
}

private final class AccountPresenter: ViewModelPresenter<AccountViewModel> {}

private final class AccountView: ScreenView {
    let presenter: AccountPresenter
    init(presenter: AccountPresenter) { self.presenter = presenter }
    var boundObjects: [any ScreenBound] { [presenter] }
    func render() -> Element {
        .group([.textField("email", placeholder: "Email", value: presenter.viewModel.email, isPrivate: true),
                .textField("nickname", placeholder: "Nickname", value: "")])
    }
    func handle(_ action: UserAction) throws {
        if action.element == "email" { presenter.updateViewModel { $0.email = action.value ?? "" } }
    }
}

private final class AccountCoordinator: Coordinator {
    override func didStart() throws {
        let presenter = AccountPresenter(context: context, viewModel: AccountViewModel())
        try context.window.setRoot(Screen(name: "Account", view: AccountView(presenter: presenter), owner: self, context: context), owner: self)
    }
}

final class PrivacyTests: XCTestCase {
    // MARK: - Rules

    func testRulesParseAndBadOnesSayWhy() throws {
        XCTAssertEqual(try RedactionRule(parsing: "ProfileViewModel.email"), .viewModelField(viewModel: "ProfileViewModel", path: ["email"]))
        XCTAssertEqual(try RedactionRule(parsing: "*.address.street"), .viewModelField(viewModel: "*", path: ["address", "street"]))
        XCTAssertEqual(try RedactionRule(parsing: "action.value:profile-name"), .actionValue(element: "profile-name"))
        XCTAssertEqual(try RedactionRule(parsing: "action.value:*"), .actionValue(element: "*"))
        XCTAssertEqual(try RedactionRule(parsing: "deeplink.url"), .deepLinkURL)
        XCTAssertEqual(try RedactionRule(parsing: "error.message"), .errorMessage)
        XCTAssertEqual(try ["deeplink.url", "error.message"].map { try RedactionRule(parsing: $0).description }, ["deeplink.url", "error.message"])
        let bad = [
            ("email", "redaction rule 'email' must be ViewModelType.field (such as ProfileViewModel.email), action.value:ELEMENT, deeplink.url or error.message"),
            ("deeplink.steps", "redaction rule 'deeplink.steps' names a member of 'deeplink' events other than the one a rule protects (deeplink.url)"),
            ("error.code", "redaction rule 'error.code' names a member of 'error' events other than the one a rule protects (error.message)"),
            ("action.value:", "redaction rule 'action.value:' needs an element id after 'action.value:', such as action.value:profile-name"),
            ("Profile..email", "redaction rule 'Profile..email' part 2 ('') must be a name of letters, digits, '_' or '-'"),
            ("Profile.*", "redaction rule 'Profile.*' part 2 ('*') must be a name of letters, digits, '_' or '-'"),
        ]
        for (text, message) in bad {
            XCTAssertThrowsError(try RedactionRule(parsing: text)) { XCTAssertEqual("\($0)", message) }
        }
    }

    // MARK: - Marking in app code

    func testPrivateFieldsAndPrivateTextFieldsAreMarkedAtTheSource() throws {
        let (context, sink) = makeContext()
        try context.launch(AccountCoordinator(context: context))
        try context.performAction(element: "email", value: "ana@example.com")
        try context.performAction(element: "nickname", value: "ana")
        let initEvent = try XCTUnwrap(sink.events.first { $0.kind == .presenterInit })
        XCTAssertEqual(initEvent.privatePaths, ["snapshot.address.street", "snapshot.email"])
        let actions = sink.events.filter { $0.kind == .action }
        XCTAssertEqual(actions.map(\.privatePaths), [["value"], []])
        let change = try XCTUnwrap(sink.events.first { $0.kind == .viewModelChange })
        XCTAssertEqual(change.privatePaths, ["snapshot.address.street", "previous.address.street", "snapshot.email", "previous.email"])

        let redactor = Redactor(policy: PrivacyPolicy(), key: Array("a key for tests only".utf8))
        let stored = sink.events.map(redactor.redact)
        let text = stored.map { $0.jsonLine() }.joined(separator: "\n")
        XCTAssertFalse(text.contains("ana@example.com"), text)
        XCTAssertFalse(text.contains("Rua Augusta"), text)
        XCTAssertTrue(text.contains("Lisboa"), "only the marked nested field is private")
        XCTAssertTrue(text.contains(#""value":"ana""#), "the nickname field is not private")
        let hash = redactor.hash("ana@example.com")
        XCTAssertTrue(hash.hasPrefix("hmac:") && hash.count == 21, hash)
        XCTAssertEqual(stored.first { $0.kind == .action }?.payload["value"], .string(hash))
        XCTAssertEqual(stored.first { $0.kind == .viewModelChange }?.payload["snapshot"]?["email"], .string(hash))
        XCTAssertEqual(stored.first { $0.kind == .viewModelChange }?.payload["previous"]?["email"], .string(redactor.hash("")))
        XCTAssertTrue(stored.allSatisfy { $0.privatePaths.isEmpty })
    }

    // MARK: - Redacting by configuration

    func testConfiguredRulesHashOrRemoveAndEqualValuesHashEqually() throws {
        let change = Event(wallNanoseconds: 1, monotonicNanoseconds: 1, session: "s-1", sessionSeq: 2, kind: .viewModelChange,
                           subject: "ProfilePresenter#1", payload: [
                               "viewmodel": "ProfileViewModel", "changed": ["name"],
                               "snapshot": ["name": "Ana", "tags": [["secret": "x"], ["secret": "y"]], "missing": .null],
                               "previous": ["name": "Bo"],
                           ])
        let action = Event(wallNanoseconds: 1, monotonicNanoseconds: 1, session: "s-1", sessionSeq: 1, kind: .action,
                           subject: "Profile#1", payload: ["element": "profile-name", "role": "text_field", "value": "Ana"])
        let rules = try ["ProfileViewModel.name", "*.tags.secret", "*.missing", "action.value:profile-name"].map(RedactionRule.init(parsing:))
        let key = Array("0123456789abcdef".utf8)
        let hashing = Redactor(policy: PrivacyPolicy(mode: .hash, rules: rules), key: key)
        let hashed = hashing.redact(change)
        XCTAssertEqual(hashed.payload["snapshot"]?["name"], .string(hashing.hash("Ana")))
        XCTAssertEqual(hashing.redact(action).payload["value"], hashed.payload["snapshot"]?["name"], "equal values, equal hashes")
        XCTAssertEqual(hashed.payload["previous"]?["name"], .string(hashing.hash("Bo")))
        XCTAssertEqual(hashed.payload["snapshot"]?["tags"], .array([["secret": .string(hashing.hash("x"))], ["secret": .string(hashing.hash("y"))]]))
        XCTAssertEqual(hashed.payload["snapshot"]?["missing"], .null, "null is not a value to hide")
        XCTAssertNotEqual(Redactor(policy: PrivacyPolicy(), key: Array("another key......".utf8)).hash("Ana"), hashing.hash("Ana"))
        // The hash is HMAC-SHA256 over the UTF-8 bytes, so `openssl dgst -sha256 -hmac` checks it:
        // printf Ana | openssl dgst -sha256 -hmac 0123456789abcdef  →  d3607b1eb75266c8…
        XCTAssertEqual(hashing.hash("Ana"), "hmac:d3607b1eb75266c8")
        XCTAssertEqual(hashing.hash("Ana"), "hmac:" + HMACSHA256(key: key).authenticationCode(for: Array("Ana".utf8)).hexString.prefix(16))

        let removing = Redactor(policy: PrivacyPolicy(mode: .remove, rules: rules), key: key)
        let removed = removing.redact(change)
        XCTAssertEqual(removed.payload["snapshot"], ["tags": [[:], [:]], "missing": .null])
        XCTAssertEqual(removed.payload["previous"], [:])
        XCTAssertEqual(removed.payload["redacted"], ["previous.name", "snapshot.name", "snapshot.tags.secret"])
        XCTAssertEqual(removing.redact(action).payload["value"], nil)

        let other = Event(wallNanoseconds: 1, monotonicNanoseconds: 1, session: "s-1", sessionSeq: 3, kind: .action,
                          subject: "Profile#1", payload: ["element": "save", "role": "button"])
        XCTAssertEqual(hashing.redact(other), other, "nothing private, nothing changed")
    }

    /// `deeplink.url` protects a deep link's URL and the message of the error a deep link fails
    /// with, which quotes it; `error.message` protects every error's message. Codes stay.
    func testDeepLinkURLsAndErrorMessagesAreRedactedByRule() throws {
        let url = "tabs://reset?token=s3cret-token"
        let link = Event(wallNanoseconds: 1, monotonicNanoseconds: 1, session: "s-1", sessionSeq: 1, kind: .deepLink,
                         subject: "AppCoordinator#1", payload: ["url": .string(url), "steps": []])
        let failed = Event(wallNanoseconds: 1, monotonicNanoseconds: 1, session: "s-1", sessionSeq: 2, kind: .error, subject: "AppCoordinator#1",
                           cause: 1, payload: ["code": "unreachable_deeplink", "message": .string("deep link \(url) cannot be reached: no route")])
        let other = Event(wallNanoseconds: 1, monotonicNanoseconds: 1, session: "s-1", sessionSeq: 3, kind: .error, subject: "Detail#1",
                          payload: ["code": "rejected", "message": "card 4111 1111 1111 1111 declined"])
        let key = Array("0123456789abcdef".utf8)
        let byLink = Redactor(policy: PrivacyPolicy(rules: [.deepLinkURL]), key: key)
        XCTAssertEqual(byLink.redact(link).payload, ["url": .string(byLink.hash(.string(url))), "steps": []])
        XCTAssertEqual(byLink.redact(failed).payload["message"], .string(byLink.hash(failed.payload["message"]!)))
        XCTAssertEqual(byLink.redact(failed).payload["code"], "unreachable_deeplink")
        XCTAssertEqual(byLink.redact(other), other, "an error that does not quote a deep link is left alone")
        XCTAssertFalse(byLink.mayRedact(kind: .action, isMarked: false))

        let byMessage = Redactor(policy: PrivacyPolicy(rules: [.errorMessage]), key: key)
        XCTAssertEqual(byMessage.redact(link), link, "the URL is only protected by deeplink.url")
        XCTAssertEqual(byMessage.redact(other).payload, ["code": "rejected", "message": .string(byMessage.hash(other.payload["message"]!))])

        let removing = Redactor(policy: PrivacyPolicy(mode: .remove, rules: [.deepLinkURL, .errorMessage]), key: key)
        XCTAssertEqual(removing.redact(link).payload, ["steps": [], "redacted": ["url"]])
        XCTAssertEqual(removing.redact(failed).payload, ["code": "unreachable_deeplink", "redacted": ["message"]])
        XCTAssertEqual(Redactor(policy: PrivacyPolicy(), key: key).redact(link), link, "no rule, nothing protected")
    }
}
