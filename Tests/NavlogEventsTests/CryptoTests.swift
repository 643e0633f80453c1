import NavlogEvents
import XCTest

/// SHA-256 and HMAC-SHA256 from libcrypto (`LibCrypto`, `HMACSHA256`) against published vectors
/// and `openssl dgst`: journals hash private values with them, so they must never change.
final class CryptoTests: XCTestCase {
    // MARK: - SHA-256

    func testSHA256MatchesTheNISTExamples() {
        XCTAssertEqual(LibCrypto.sha256(Array("".utf8)).hexString, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(LibCrypto.sha256(Array("abc".utf8)).hexString, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(LibCrypto.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)).hexString,
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(LibCrypto.sha256([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)).hexString,
                       "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Lengths around the padding boundary (55, 56, 64 bytes), checked against sha256sum.
        XCTAssertEqual(LibCrypto.sha256([UInt8](repeating: 0x61, count: 55)).hexString, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        XCTAssertEqual(LibCrypto.sha256([UInt8](repeating: 0x61, count: 56)).hexString, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        XCTAssertEqual(LibCrypto.sha256([UInt8](repeating: 0x61, count: 64)).hexString, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    func testSHA256HashesSequencesWithoutContiguousStorageTheSame() {
        // A lazy map has no contiguous storage, so the bytes are gathered first.
        let bytes = Array("abc".utf8)
        XCTAssertEqual(LibCrypto.sha256(bytes.lazy.map { $0 }), LibCrypto.sha256(bytes))
        XCTAssertEqual(LibCrypto.sha256("abc".utf8), LibCrypto.sha256(bytes))
    }

    // MARK: - HMAC-SHA256

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

    func testHMACSHA256MatchesOpenSSLOnTextAndOnEmptyKeysAndMessages() {
        // printf 'Žofia 🙂' | openssl dgst -sha256 -hmac 0123456789abcdef
        XCTAssertEqual(HMACSHA256(key: Array("0123456789abcdef".utf8)).authenticationCode(for: "Žofia 🙂".utf8).hexString,
                       "e072f1ea38b4516ca1a23fd98717d505481f06e83e474337697539c03bd08bdc")
        // Python: hmac.new(b"", b"", hashlib.sha256); empty arrays have no storage to point at.
        XCTAssertEqual(HMACSHA256(key: []).authenticationCode(for: [UInt8]()).hexString,
                       "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}
