import Foundation
import NavlogEvents
import NavlogRuntime

/// The four sample apps, one per seed article, built only on the `NavlogRuntime` runtime.
///
/// Each one is a small but complete app: bundled data, several screens, loading, empty and
/// error states where they make sense, and a stable id on every element a scenario can act on.
///
/// | app | seed | pattern |
/// |---|---|---|
/// | ``masterDetail`` (`master-detail`) | 000 | MVP + Coordinators; push or modal chosen by configuration |
/// | ``articles`` (`articles`) | 001 | VIPER with a `SceneModel` layer between presenter and view |
/// | ``tabs`` (`tabs`) | 002 | a coordinator tree under a tab bar, one stack per tab |
/// | ``contentList`` (`content-list`) | 003 | VIPER with a hosted view, a `DataSource` and a delegate |
///
/// Every app also takes `inject`, which builds in a known leak or double push to calibrate
/// `navlog diff` against (see ``Injection``); by default it builds the app as written.
public enum SampleApps {
    /// Every sample app, in seed order.
    public static let all: [AppDefinition] = [masterDetail, articles, tabs, contentList]

    /// Returns the sample app called `name`, if there is one.
    public static func app(named name: String) -> AppDefinition? {
        all.first { $0.name == name }
    }
}

// MARK: - Deterministic helpers

/// Formats dates the same way on every machine: English names, UTC, no locale lookup.
enum DayFormatter {
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The UTC calendar fields of `date`, the same on every machine.
    private static func fields(of date: Date) -> UTCDateTime {
        UTCDateTime(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// The weekday's English name: `Tuesday`.
    static func weekday(of date: Date) -> String {
        weekdays[fields(of: date).weekday]
    }

    /// A long day and time: `Tuesday, 1 Dec 2026, 10:00`.
    static func long(_ date: Date) -> String {
        let parts = fields(of: date)
        return "\(weekdays[parts.weekday]), \(parts.day) \(months[parts.month - 1]) \(parts.year), \(twoDigits(parts.hour)):\(twoDigits(parts.minute))"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// A short day: `1 Dec 2026`.
    static func short(_ date: Date) -> String {
        let parts = fields(of: date)
        return "\(parts.day) \(months[parts.month - 1]) \(parts.year)"
    }
}

extension AppParameters {
    /// The integer parameter `name` as milliseconds, in nanoseconds for the scheduler.
    func nanoseconds(fromMilliseconds name: String) -> UInt64 {
        UInt64(max(0, integer(name))) * 1_000_000
    }
}

extension UserAction {
    /// The state a toggle action asks for: its value (`true`/`false`), or the opposite of
    /// `current` when none was given.
    func isOn(toggling current: Bool) -> Bool {
        guard let value else { return !current }
        return ["true", "on", "1", "yes"].contains(value.lowercased())
    }
}
