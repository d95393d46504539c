import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 and a free port, for tests: each request's path and
/// query go to `handler`, whose answer is written back — or stalled, or cut short, as tests
/// need. Started by the test and stopped by it (or when released).
// Unchecked: its state is immutable after init except the request log (a Mutex) and the stop
// flag (an atomic); the accept thread and the test share only those.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// What to answer.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        /// Seconds to wait after the headers before the body (a stalling server).
        public var stallBeforeBody: TimeInterval = 0
        /// Send only this many body bytes, then close (a truncated answer).
        public var truncateAfter: Int?

        public init(status: Int = 200, headers: [String: String] = [:], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        public static func json(_ text: String, status: Int = 200) -> Response {
            Response(status: status, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
        }
    }

    public let port: UInt16
    private let listener: Int32
    private let handler: @Sendable (String) -> Response
    private let requests = RequestLog()
    private let stopped = StopFlag()
    private let thread: Thread

    /// Starts listening; `handler` gets each request's target (`/api/?q=cats&page=2`).
    public init(handler: @escaping @Sendable (String) -> Response) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(socket, 64) == 0 else {
            close(socket)
            throw ServerError("bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = socket
        self.handler = handler
        let box = Unchecked(listener: socket)
        let requests = self.requests
        let stopped = self.stopped
        thread = Thread {
            while !stopped.flag.load(ordering: .relaxed) {
                let client = accept(box.listener, nil, nil)
                if client < 0 { break }
                Thread.detachNewThread { Self.serve(client, handler: handler, requests: requests) }
            }
        }
        thread.start()
    }

    deinit { stop() }

    /// The base URL, e.g. `http://127.0.0.1:41234`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request target received so far, in order.
    public var received: [String] { requests.targets.withLock { $0 } }

    /// Stops accepting connections and frees the port.
    public func stop() {
        guard !stopped.flag.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private struct Unchecked: Sendable { let listener: Int32 }

    private final class RequestLog: Sendable { let targets = Mutex<[String]>([]) }
    private final class StopFlag: Sendable { let flag = Atomic<Bool>(false) }

    private static func serve(_ client: Int32, handler: @Sendable (String) -> Response, requests: RequestLog) {
        defer { close(client) }
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.ends(with: Array("\r\n\r\n".utf8)) && head.count < 65_536 {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            head += buffer[0..<count]
            if let range = head.firstRange(of: Array("\r\n\r\n".utf8)) {
                head = Array(head[..<range.upperBound])
                break
            }
        }
        let requestLine = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        let target = requestLine.count >= 2 ? String(requestLine[1]) : "/"
        requests.targets.withLock { $0.append(target) }
        let response = handler(target)
        var headers = response.headers
        headers["Content-Length"] = "\(response.body.count)"
        headers["Connection"] = "close"
        let reason =
            [200: "OK", 400: "Bad Request", 404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error"][response.status]
            ?? "Status"
        let text = "HTTP/1.1 \(response.status) \(reason)\r\n" + headers.map { "\($0.key): \($0.value)\r\n" }.joined() + "\r\n"
        write(client, Array(text.utf8))
        if response.stallBeforeBody > 0 { Thread.sleep(forTimeInterval: response.stallBeforeBody) }
        write(client, Array(response.body.prefix(response.truncateAfter ?? response.body.count)))
    }

    private static func write(_ client: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return }
            offset += written
        }
    }
}

public struct ServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
