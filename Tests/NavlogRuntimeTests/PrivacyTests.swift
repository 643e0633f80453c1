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
    // MARK: - SHA-256 and HMAC against published vectors

    func testSHA256MatchesTheNISTExamples() {
        XCTAssertEqual(SHA256.hash(Array("".utf8)).hexString, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hash(Array("abc".utf8)).hexString, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hexString,
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)).hexString,
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Lengths around the padding boundary (55, 56, 63, 64 bytes), checked against sha256sum.
        XCTAssertEqual(SHA256.hash([UInt8](repeating: 0x61, count: 55)).hexString, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        XCTAssertEqual(SHA256.hash([UInt8](repeating: 0x61, count: 56)).hexString, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        XCTAssertEqual(SHA256.hash([UInt8](repeating: 0x61, count: 64)).hexString, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    func testHMACSHA256MatchesRFC4231() {
        let cases: [(key: [UInt8], data: [UInt8], tag: String)] = [
            ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
             "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
             "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
             "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            ((1...25).map { UInt8($0) }, [UInt8](repeating: 0xcd, count: 50),
             "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
            ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
             "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
            ([UInt8](repeating: 0xaa, count: 131),
             Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
             "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        ]
        for (index, item) in cases.enumerated() {
            XCTAssertEqual(HMACSHA256(key: item.key).authenticationCode(for: item.data).hexString, item.tag, "RFC 4231 case \(index + 1)")
        }
        // Case 5: truncated to 128 bits.
        XCTAssertEqual(HMACSHA256(key: [UInt8](repeating: 0x0c, count: 20)).authenticationCode(for: Array("Test With Truncation".utf8)).hexString.prefix(32),
                       "a3b6167473100ee06e0c796c2955552b")
    }

    // MARK: - Rules

    func testRulesParseAndBadOnesSayWhy() throws {
        XCTAssertEqual(try RedactionRule(parsing: "ProfileViewModel.email"), .viewModelField(viewModel: "ProfileViewModel", path: ["email"]))
        XCTAssertEqual(try RedactionRule(parsing: "*.address.street"), .viewModelField(viewModel: "*", path: ["address", "street"]))
        XCTAssertEqual(try RedactionRule(parsing: "action.value:profile-name"), .actionValue(element: "profile-name"))
        XCTAssertEqual(try RedactionRule(parsing: "action.value:*"), .actionValue(element: "*"))
        let bad = [
            ("email", "redaction rule 'email' must be ViewModelType.field (such as ProfileViewModel.email) or action.value:ELEMENT"),
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
        // The hash is HMAC-SHA256 over the UTF-8 bytes, so `openssl dgst -sha256 -hmac` can check it.
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
}
