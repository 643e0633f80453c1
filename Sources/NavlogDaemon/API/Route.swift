import Foundation

/// One endpoint of the API: its path pattern and, per HTTP method, the handler that answers it.
///
/// ``DaemonAPI/routes`` lists every endpoint once. Matching a path against that table, once
/// per request, gives the handler, the methods of a 405's `Allow` header, and the template
/// that labels the request in metrics:
///
/// ```swift
/// let match = Route.match("/v1/sessions/s-1", in: DaemonAPI.routes)
/// match.template                            // "/v1/sessions/{id}"
/// match.id                                  // "s-1"
/// match.route?.handler(for: "PATCH")        // nil: answered 405, Allow: GET, DELETE
/// ```
struct Route: Sendable {
    /// Answers a request matched to the route; `id` is the path's `{id}` segment, empty when
    /// the pattern has none.
    typealias Handler = @Sendable (_ api: DaemonAPI, _ request: HTTPRequest, _ id: String) -> HTTPReply

    /// One segment of a pattern: a literal word, or `{id}`, which takes any segment.
    enum Segment: Sendable {
        case literal([UInt8])
        case identifier
    }

    /// The pattern as written, such as `/v1/sessions/{id}/actions`.
    let template: String
    let segments: [Segment]
    /// The methods in the order the `Allow` header lists them, each with its handler.
    let methods: [(name: String, handler: Handler)]
    /// The names of ``methods``, for a 405's `Allow` header, built once.
    let allowed: [String]
    /// Whether the configured token must be sent (it is for every route but health).
    let requiresToken: Bool

    /// Creates the route of `template` (segments between slashes; `{id}` takes any segment)
    /// answering each method of `methods`, in that order, with its handler.
    init(_ template: String, requiresToken: Bool = true, _ methods: KeyValuePairs<String, Handler>) {
        self.template = template
        segments = template.split(separator: "/").map { $0 == "{id}" ? .identifier : .literal(Array($0.utf8)) }
        precondition(segments.count <= Self.maximumSegments, "\(template) has more segments than Route.match reads")
        self.methods = methods.map { (name: $0.key, handler: $0.value) }
        allowed = methods.map(\.key)
        self.requiresToken = requiresToken
    }

    /// The handler of `method`, nil when the route does not allow it; HEAD is answered as GET
    /// where GET is allowed.
    func handler(for method: String) -> Handler? {
        if let found = methods.first(where: { $0.name == method }) { return found.handler }
        if method == "HEAD" { return methods.first { $0.name == "GET" }?.handler }
        return nil
    }

    /// The most segments a pattern may have; a path with more matches none.
    static let maximumSegments = 4

    // MARK: - Matching

    /// A path matched against the routes.
    struct Match {
        /// The route whose pattern the path fits, nil when none does (a 404).
        var route: Route?
        /// The `{id}` segment of the path, empty when the pattern has none.
        var id: String
        /// The metrics label: the route's template, or `other` when nothing matched.
        var template: String { route?.template ?? "other" }
    }

    /// Finds the route of `path` among `routes`: the first whose segments equal the path's
    /// non-empty segments between slashes (so `//v1//sessions/` is `/v1/sessions`).
    ///
    /// Reads the path's bytes in place: splitting it into `String`s cost more than the rest of
    /// the routing.
    static func match(_ path: String, in routes: [Route]) -> Match {
        var path = path
        return path.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: maximumSegments + 1) { parts in
                // The non-empty segments between slashes; one more than a pattern has means no match.
                var count = 0
                var index = 0
                while count <= maximumSegments {
                    while index < bytes.count && bytes[index] == UInt8(ascii: "/") { index += 1 }
                    guard index < bytes.count else { break }
                    let start = index
                    while index < bytes.count && bytes[index] != UInt8(ascii: "/") { index += 1 }
                    parts[count] = start..<index
                    count += 1
                }
                func part(_ number: Int, is word: [UInt8]) -> Bool {
                    let range = parts[number]
                    return range.count == word.count && word.withUnsafeBytes {
                        memcmp(bytes.baseAddress! + range.lowerBound, $0.baseAddress!, range.count) == 0
                    }
                }
                for route in routes where route.segments.count == count {
                    var id: Range<Int>?
                    let fits = route.segments.indices.allSatisfy { number in
                        switch route.segments[number] {
                        case .literal(let word): return part(number, is: word)
                        case .identifier: id = parts[number]; return true
                        }
                    }
                    guard fits else { continue }
                    let text = id.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) } ?? ""
                    return Match(route: route, id: text)
                }
                return Match(route: nil, id: "")
            }
        }
    }
}
