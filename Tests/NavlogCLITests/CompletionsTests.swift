import Foundation
import NavlogTestSupport
import XCTest

/// `navlog completions bash|zsh|fish` and `navlog manpage`, run in the real shells and man:
/// every command and option `navlog --help` lists is offered where it belongs, paths are
/// completed after path options, and the page renders without a warning.
final class CompletionsTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = URL(fileURLWithPath: makeTemporaryDirectory(self))
    }

    private func script(_ shell: String) throws -> String {
        let result = try Product.navlog.run(["completions", shell])
        XCTAssertEqual(result.status, 0, result.stderr)
        let path = directory.appendingPathComponent("navlog.\(shell)").path
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The commands `navlog --help` lists, and the long options each one's `--help` lists: the
    /// second computation the scripts are checked against.
    private func helpTree() throws -> [(command: [String], options: [String])] {
        func section(_ text: String, _ title: String) -> [String] {
            guard let start = text.range(of: "\n\(title):\n") else { return [] }
            return text[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
                .prefix { !$0.isEmpty }.compactMap { line in line.split(separator: " ").first.map(String.init) }
        }
        func options(_ help: String) -> [String] {
            guard let start = help.range(of: "\nOPTIONS:\n") else { return [] }
            return help[start.upperBound...].split(separator: "\n").prefix { $0.hasPrefix(" ") }.compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("--") }.map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: ","))) }
            }
        }
        var tree: [(command: [String], options: [String])] = []
        var pending: [[String]] = [[]]
        while let command = pending.popLast() {
            let help = try Product.navlog.run(command + ["--help"]).stdout
            tree.append((command, options(help)))
            pending += section(help, "SUBCOMMANDS").map { command + [$0] }
        }
        return tree
    }

    func testBashOffersEveryCommandAndOptionOfTheHelpAndPathsAfterPathOptions() throws {
        let path = try script("bash")
        func complete(_ words: [String], in directory: URL? = nil) throws -> [String] {
            let array = words.map { "'\($0)'" }.joined(separator: " ")
            let command = "source '\(path)'; COMP_WORDS=(navlog \(array)); COMP_CWORD=\(words.count); _navlog; printf '%s\\n' \"${COMPREPLY[@]}\""
            let result = try runTool("/bin/bash", ["-c", command], in: directory)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.split(separator: "\n").map(String.init)
        }
        let tree = try helpTree()
        XCTAssertGreaterThan(tree.count, 10)
        for (command, options) in tree {
            let offered = try complete(command + [""])
            for option in options { XCTAssertTrue(offered.contains(option), "navlog \(command.joined(separator: " ")): \(option) not offered") }
            if let parent = command.last.map({ _ in Array(command.dropLast()) }), let name = command.last {
                XCTAssertTrue(try complete(parent + [String(name.prefix(3))]).contains(name), "\(name) not offered after \(parent)")
            }
        }
        XCTAssertEqual(try complete(["report", "--fun"]), ["--funnel"])
        try Data().write(to: directory.appendingPathComponent("journal-a"))
        XCTAssertEqual(try complete(["report", "--journal", "jour"], in: directory), ["journal-a"])
        XCTAssertEqual(try complete(["report", "--top", "jour"], in: directory), [], "--top takes a number, not a file")
        XCTAssertEqual(try complete(["report", "jour"], in: directory), ["journal-a"], "report takes journal paths")
    }

    func testZshAndFishOfferTheSameCommandsAndOptions() throws {
        for shell in ["zsh", "fish"] where !FileManager.default.isExecutableFile(atPath: "/usr/bin/\(shell)") {
            throw XCTSkip("\(shell) is not installed (scripts/setup installs it)")
        }
        let zsh = try script("zsh"), fish = try script("fish")
        XCTAssertEqual(try runTool("/usr/bin/zsh", ["-n", zsh]).status, 0)
        XCTAssertEqual(try runTool("/usr/bin/fish", ["-n", fish]).status, 0)
        func zshOffers(_ words: [String]) throws -> [String] {
            // _describe and _files stubbed to print what they are given.
            let array = (["navlog"] + words).map { "'\($0)'" }.joined(separator: " ")
            let command = "_describe() { print -rl -- ${(P)${@[-1]}} }; _files() { print FILES }; words=(\(array)); CURRENT=\(words.count + 1); source '\(zsh)'"
            return try runTool("/usr/bin/zsh", ["-c", command]).stdout.split(separator: "\n").map { String($0.split(separator: ":").first ?? "") }
        }
        func fishOffers(_ line: String) throws -> [String] {
            try runTool("/usr/bin/fish", ["-c", "source '\(fish)'; complete -C '\(line)'"]).stdout
                .split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        for (command, options) in try helpTree() where !command.isEmpty {
            let zshWords = try zshOffers(command + [""])
            let fishWords = try fishOffers("navlog \(command.joined(separator: " ")) --")
            for option in options {
                XCTAssertTrue(zshWords.contains(option), "zsh, navlog \(command.joined(separator: " ")): \(option) not offered")
                XCTAssertTrue(fishWords.contains(option), "fish, navlog \(command.joined(separator: " ")): \(option) not offered")
            }
        }
        XCTAssertEqual(try zshOffers(["report", "--journal", ""]), ["FILES"])
        XCTAssertTrue(try fishOffers("navlog rep").contains("report"))
        XCTAssertEqual(try fishOffers("navlog baseline s"), ["save"])
    }

    func testTheManPageRendersWithoutWarningsAndCoversEveryCommand() throws {
        let result = try Product.navlog.run(["manpage"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let page = directory.appendingPathComponent("navlog.1").path
        try result.stdout.write(toFile: page, atomically: true, encoding: .utf8)
        let groff = try runTool("/usr/bin/groff", ["-man", "-Tutf8", "-ww", "-z", page])
        XCTAssertEqual(groff.stderr, "", "groff warns")
        // As ASCII without overstriking, so that options read as typed; no hyphenation (-rHY=0).
        let rendered = try runTool("/usr/bin/groff", ["-man", "-Tascii", "-P-bcou", "-rHY=0", page]).stdout
        for (command, options) in try helpTree() where !command.isEmpty {
            for option in options { XCTAssertTrue(rendered.contains(option), "\(option) of \(command) missing from the page") }
        }
        XCTAssertTrue(result.stdout.contains(".SS \"navlog baseline save [options]\""), "leaf commands are sections")
        XCTAssertEqual(try Product.navlog.run(["completions", "tcsh"]).status, 64)
    }
}
