import Foundation
import XCTest

/// Headless Chromium through Selenium, for the browser tests (`Tests/browser/*.py`).
public enum Browser {
    /// Skips, saying what to install, unless Chromium, its driver and Selenium are all there;
    /// installs Selenium from PyPI when only it is missing (test side only).
    public static func require() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed: apt-get install chromium chromium-driver (scripts/setup does)")
        }
        if (try? python("import selenium"))?.status != 0 {
            _ = try? runTool("/usr/bin/env", ["python3", "-m", "pip", "install", "--quiet", "selenium"])
        }
        guard (try? python("import selenium"))?.status == 0 else {
            throw XCTSkip("python3 cannot import selenium: python3 -m pip install selenium (scripts/test does)")
        }
    }

    /// Runs the checker `Tests/browser/NAME` with `arguments`; its stdout lists the problems.
    public static func runChecker(_ name: String, _ arguments: [String]) throws -> ProcessResult {
        try runTool("/usr/bin/env", ["python3", Repository.url("Tests/browser/\(name)").path] + arguments)
    }
}
