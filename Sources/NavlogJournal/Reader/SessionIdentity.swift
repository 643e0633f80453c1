/// A session as readers select and show it: its run and its name, `RUN/SESSION`.
///
/// Session names repeat across runs (every scripted run has an `s-1`), so only the pair is
/// unique within a journal directory. The journal stores both; nothing about it changes.
///
/// ```swift
/// SessionIdentity(run: "r-mx6bnfsd-29k4bg", session: "s-1").description   // "r-mx6bnfsd-29k4bg/s-1"
/// ```
public struct SessionIdentity: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var run: String
    public var session: String

    public init(run: String, session: String) {
        self.run = run
        self.session = session
    }

    /// `RUN/SESSION`.
    public var description: String { "\(run)/\(session)" }

    public static func < (lhs: SessionIdentity, rhs: SessionIdentity) -> Bool {
        (lhs.run, lhs.session) < (rhs.run, rhs.session)
    }
}
