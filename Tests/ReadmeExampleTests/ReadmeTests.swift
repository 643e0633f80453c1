import Foundation
import NavlogTestSupport
import XCTest

/// The README's example is this target's `CheckoutExample.swift`, word for word, so the
/// example in the README always compiles and passes.
final class ReadmeTests: XCTestCase {
    func testTheReadmeShowsTheExampleThatCompiles() throws {
        let readme = try Repository.text("README.md")
        let example = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("CheckoutExample.swift"), encoding: .utf8)
        let marker = "<!-- Tests/ReadmeExampleTests/CheckoutExample.swift -->\n```swift\n"
        let start = try XCTUnwrap(readme.range(of: marker), "README.md lost the example marker")
        let end = try XCTUnwrap(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        XCTAssertEqual(String(readme[start.upperBound..<end.lowerBound]) + "\n", example, "README.md and CheckoutExample.swift differ")
    }
}
