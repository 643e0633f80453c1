import NavlogEvents

/// What a push did, as it prints it.
struct PushSummary {
    var acceptedEvents = 0
    var replayedEvents = 0
    var refusedLines = 0
    var requests = 0
    var cursor = ""
    var statePath = ""

    var text: String {
        "pushed \(acceptedEvents) event(s) in \(requests) request(s); \(replayedEvents) the daemon had already, \(refusedLines) refused; cursor \(cursor) (state \(statePath))"
    }

    var json: JSONValue {
        [
            "accepted": .int(Int64(acceptedEvents)), "already_there": .int(Int64(replayedEvents)), "refused": .int(Int64(refusedLines)),
            "requests": .int(Int64(requests)), "cursor": .string(cursor), "state": .string(statePath),
        ]
    }
}
