/// The version of navlog: what `navlog --version` and `navlogd --version` print, navlogd's
/// startup log line and its `navlog_build_info` metric carry.
///
/// This is its one home; every program and library that shows the version reads it here.
public let navlogVersion = "0.1.0"
