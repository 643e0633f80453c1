/// The UTC calendar fields of an instant, computed arithmetically.
///
/// `gmtime_r` takes glibc's time zone lock on every call; every action formats times (event
/// times, dates in view models) on many threads at once, so the lock and its bookkeeping
/// cost more than the formatting. This is Howard Hinnant's `civil_from_days`, valid for every
/// `Int64` second count of the proleptic Gregorian calendar.
public struct UTCDateTime: Equatable, Sendable {
    public var year: Int
    /// 1 to 12.
    public var month: Int
    /// 1 to 31.
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// 0 (Sunday) to 6 (Saturday), as `tm_wday`.
    public var weekday: Int

    /// The fields of the instant `seconds` after 1970-01-01T00:00:00Z (before it when negative).
    public init(secondsSince1970 seconds: Int64) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        hour = secondOfDay / 3_600
        minute = secondOfDay / 60 % 60
        second = secondOfDay % 60
        weekday = Int(((days % 7) + 11) % 7)  // 1970-01-01 was a Thursday (4)
        let shifted = days + 719_468  // days since 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * monthFromMarch + 2) / 5 + 1)
        month = Int(monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9)
        year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
    }
}
