import NavlogEvents

/// One coordinator's lifetime in a Chrome trace.
struct ChromeFrame {
    var subject: String
    var parent: String?
    var start: Int64
    var finished: Int64?
    var end: Int64?
    /// Whether the frame was still open at the session's end and closed there.
    var isOpenAtEnd = false

    /// Finished, but never deallocated by the session's end.
    var isLeaked: Bool { isOpenAtEnd && finished != nil }

    var name: String {
        let type = InstanceID.typeName(of: subject)
        return isLeaked ? "\(type) (leaked)" : type
    }
}

/// Lays frames out on threads so that the frames of each thread nest, as `B`/`E` pairs must.
///
/// Coordinator lifetimes form a tree, but siblings overlap (two tabs' coordinators live side by
/// side) and a leaked child outlives its parent. Frames are placed in order of start, longest
/// first, each on its parent's thread when it fits inside that thread's innermost open frame,
/// else on the first thread where it fits, else on a new thread.
enum ChromeLaneLayout {
    /// Returns, for each thread, the indices of its frames in order of start.
    static func assign(_ frames: [ChromeFrame]) -> [[Int]] {
        let order = frames.indices.sorted { a, b in
            (frames[a].start, frames[b].end!, a) < (frames[b].start, frames[a].end!, b)
        }
        var lanes: [[Int]] = []
        var openStacks: [[Int]] = []
        var laneOf: [String: Int] = [:]
        for index in order {
            let frame = frames[index]
            func fits(_ lane: Int) -> Bool {
                var stack = openStacks[lane]
                while let top = stack.last, frames[top].end! <= frame.start { stack.removeLast() }
                guard let top = stack.last else { return true }
                return frames[top].end! >= frame.end!
            }
            let preferred = frame.parent.flatMap { laneOf[$0] }
            let lane = preferred.flatMap { fits($0) ? $0 : nil }
                ?? lanes.indices.first(where: fits)
                ?? { lanes.append([]); openStacks.append([]); return lanes.count - 1 }()
            while let top = openStacks[lane].last, frames[top].end! <= frame.start { openStacks[lane].removeLast() }
            openStacks[lane].append(index)
            lanes[lane].append(index)
            laneOf[frame.subject] = lane
        }
        return lanes
    }
}
