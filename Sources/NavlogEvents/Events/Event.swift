/// One recorded fact of the navigation runtime.
///
/// Events are values: the runtime builds them, an ``EventSink`` takes them, and the journal stores
/// them. The runtime fills every field except ``seq``, which the journal assigns in arrival order.
///
/// - ``sessionSeq`` numbers the events of one session from 1. It is deterministic: two runs of the
///   same script give the same numbers.
/// - ``cause`` is the ``sessionSeq`` of the event that caused this one, in the same session, so
///   causal chains are deterministic too.
public struct Event: Sendable, Equatable, Codable {
    /// The journal-wide sequence number; 0 until a journal assigns it.
    public var seq: UInt64
    /// Wall-clock time, in nanoseconds since the Unix epoch.
    public var wallNanoseconds: Int64
    /// Monotonic time, in nanoseconds since an arbitrary origin; use it for durations.
    public var monotonicNanoseconds: UInt64
    /// The id of the writer run that recorded the event; empty until a journal assigns it.
    public var run: String
    /// The session the event belongs to, such as `s-3`.
    public var session: String
    /// The number of the event within its session, from 1.
    public var sessionSeq: UInt64
    public var kind: EventKind
    /// The instance the event is about, such as `DetailCoordinator#2`.
    public var subject: String
    /// The screen the event concerns, such as `Detail#1`, when there is one.
    public var screen: String?
    /// The ``sessionSeq`` of the event that caused this one.
    public var cause: UInt64?
    /// The subject that caused this one, such as the parent of a coordinator that starts.
    public var parent: String?
    /// Kind-specific details, always a JSON object.
    public var payload: JSONValue
    /// Dotted paths into ``payload`` whose values app code marked private (``PrivateFields``,
    /// private text fields). A ``Redactor`` protects them and clears this; it is never stored.
    public var privatePaths: [String] = []

    // Inlinable: readers build millions of events, and a call through the module boundary
    // copies every string once more.
    @inlinable
    public init(
        seq: UInt64 = 0,
        wallNanoseconds: Int64,
        monotonicNanoseconds: UInt64,
        run: String = "",
        session: String,
        sessionSeq: UInt64,
        kind: EventKind,
        subject: String,
        screen: String? = nil,
        cause: UInt64? = nil,
        parent: String? = nil,
        payload: JSONValue = .object([:]),
        privatePaths: [String] = []
    ) {
        self.seq = seq
        self.wallNanoseconds = wallNanoseconds
        self.monotonicNanoseconds = monotonicNanoseconds
        self.run = run
        self.session = session
        self.sessionSeq = sessionSeq
        self.kind = kind
        self.subject = subject
        self.screen = screen
        self.cause = cause
        self.parent = parent
        self.payload = payload
        self.privatePaths = privatePaths
    }

    enum CodingKeys: String, CodingKey {
        case seq, wallNanoseconds, monotonicNanoseconds, run, session, sessionSeq, kind, subject, screen, cause, parent, payload
    }

    /// The type name of ``subject``: `DetailCoordinator` for `DetailCoordinator#2`.
    public var subjectType: String { InstanceID.typeName(of: subject) }
}
