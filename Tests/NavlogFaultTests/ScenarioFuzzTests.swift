import Foundation
import NavlogHost
import NavlogTestSupport
import XCTest

/// Hostile scenario files: mutations of the seed scenarios. The parser refuses them with
/// file:line or parses them; it never crashes.
final class ScenarioFuzzTests: XCTestCase {
    func testMutatedScenariosAreParsedOrRefusedWithALine() throws {
        let directory = Repository.url("Config/scenarios")
        let seeds = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
            [UInt8](try Data(contentsOf: directory.appendingPathComponent($0)))
        }
        XCTAssertEqual(seeds.count, 4)
        var mutator = Mutator(seed: 2026)
        var refused = 0
        for index in 0..<4000 {
            let input = mutator.mutate(seeds[index % seeds.count], splicing: seeds)
            do {
                _ = try ScenarioParser.parse(String(decoding: input, as: UTF8.self), source: "fuzz.scenario")
            } catch {
                refused += 1
                XCTAssertTrue("\(error)".hasPrefix("fuzz.scenario:"), "\(error)")
            }
        }
        XCTAssertGreaterThan(refused, 500)
        FileHandle.standardError.write(Data("fuzz: scenarios: 4000 cases, \(refused) refused with file:line, no crash\n".utf8))
    }
}
