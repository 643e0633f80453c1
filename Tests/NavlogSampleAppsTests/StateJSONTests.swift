import NavlogEvents
import XCTest

@testable import NavlogSampleApps

/// The state JSON the daemon answers with, written straight to bytes, is the text a second
/// computation (``NavigationState/referenceJSON()``, member by member into a `JSONValue`
/// tree) serializes to, in every state a walk through each sample app reaches.
final class StateJSONTests: XCTestCase {
    func testStateBytesEqualTheSerializedTreeInEverySampleApp() throws {
        var statesChecked = 0
        for app in SampleApps.all {
            for seed: UInt64 in 1...3 {
                let running = try launch(app, session: "s-\(seed)")
                var random = SplitMix64(seed: seed)
                for step in 0..<40 {
                    let state = running.context.state()
                    var bytes: [UInt8] = []
                    state.write(to: &bytes)
                    XCTAssertEqual(String(decoding: bytes, as: UTF8.self), state.referenceJSON().serialized(), "\(app.name) seed \(seed) step \(step)")
                    statesChecked += 1
                    // Taps a random actionable element, or backs out, or lets loading finish.
                    let actions = running.rendered?.actionableIDs ?? []
                    let choice = Int(random.next() % UInt64(actions.count + 2))
                    if choice < actions.count {
                        try? running.tap(actions[choice], value: "text \(step)")
                    } else if choice == actions.count {
                        try? running.context.window.userBack()
                    } else {
                        running.wait(milliseconds: 2_000)
                    }
                }
                _ = running.endAndFindLeaks(allEvents: [])
            }
        }
        XCTAssertEqual(statesChecked, SampleApps.all.count * 3 * 40)
    }
}
