import Foundation
import ModuleKit
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The transport behind every ``HTTPClient``: one ephemeral URLSession per client, no cache,
/// the client's timeout, and its cap on the body enforced as bytes arrive.
///
/// This library is opened by the kit on a client's first request, never linked by a module:
/// loading FoundationNetworking pulls in libcurl and some thirty libraries under it.
final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let transfers: Transfers
    private let timeout: TimeInterval

    init(timeout: TimeInterval, maximumResponseBytes: Int) {
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = max(timeout, 300)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let transfers = Transfers(limit: maximumResponseBytes)
        self.transfers = transfers
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    func fetch(_ url: String, shownAs shown: String, progress: (@Sendable (Int64, Int64?) -> Void)?) async -> Result<
        HTTPResponse, HTTPError
    > {
        guard let url = URL(string: url) else { return .failure(HTTPError(.invalidURL, url: shown)) }
        return await withCheckedContinuation { continuation in
            let task = session.dataTask(with: URLRequest(url: url, timeoutInterval: timeout))
            transfers.begin(task.taskIdentifier, url: shown, progress: progress) { result in
                continuation.resume(
                    returning: result.map { data, response in
                        let headers = response.allHeaderFields.reduce(into: [String: String]()) { fields, field in
                            if let name = field.key as? String, let value = field.value as? String { fields[name] = value }
                        }
                        return HTTPResponse(status: response.statusCode, headers: headers, body: [UInt8](data))
                    })
            }
            task.resume()
        }
    }
}

/// The entry point the kit looks up (`HTTPTransportLibrary`): a new transport, retained once
/// for the caller.
@_cdecl("modulekit_networking_make_transport")
public func makeTransport(timeout: Double, maximumResponseBytes: Int) -> UnsafeMutableRawPointer? {
    Unmanaged.passRetained(URLSessionTransport(timeout: timeout, maximumResponseBytes: maximumResponseBytes) as AnyObject).toOpaque()
}

/// The session delegate: collects each task's body, enforces the size cap, reports progress,
/// and turns the outcome into a result.
final class Transfers: NSObject, URLSessionDataDelegate, Sendable {
    struct Transfer {
        let url: String
        var data = Data()
        var response: HTTPURLResponse?
        var tooLarge = false
        let progress: (@Sendable (Int64, Int64?) -> Void)?
        let finish: @Sendable (Result<(Data, HTTPURLResponse), HTTPError>) -> Void
    }

    let limit: Int
    private let transfers = Mutex<[Int: Transfer]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    func begin(
        _ id: Int, url: String, progress: (@Sendable (Int64, Int64?) -> Void)?,
        finish: @escaping @Sendable (Result<(Data, HTTPURLResponse), HTTPError>) -> Void
    ) {
        transfers.withLock { $0[id] = Transfer(url: url, progress: progress, finish: finish) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let tooLarge = response.expectedContentLength > Int64(limit)
        transfers.withLock { transfers in
            transfers[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
            if tooLarge { transfers[dataTask.taskIdentifier]?.tooLarge = true }
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (overflow, report) = transfers.withLock { transfers -> (Bool, (() -> Void)?) in
            guard var transfer = transfers[dataTask.taskIdentifier] else { return (false, nil) }
            transfer.data.append(data)
            let overflow = transfer.data.count > limit
            transfer.tooLarge = transfer.tooLarge || overflow
            if overflow { transfer.data = Data() }
            transfers[dataTask.taskIdentifier] = transfer
            let received = Int64(transfer.data.count)
            let expected = transfer.response.map(\.expectedContentLength).flatMap { $0 > 0 ? $0 : nil }
            return (overflow, transfer.progress.map { progress in { progress(received, expected) } })
        }
        if overflow { dataTask.cancel() } else { report?() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if transfer.tooLarge {
            transfer.finish(.failure(HTTPError(.tooLarge(limit: limit), url: transfer.url)))
        } else if let error {
            transfer.finish(.failure(Self.classify(error, url: transfer.url)))
        } else if let response = transfer.response {
            transfer.finish(.success((transfer.data, response)))
        } else {
            transfer.finish(.failure(HTTPError(.connectionLost, url: transfer.url, detail: "no response")))
        }
    }

    static func classify(_ error: any Error, url: String) -> HTTPError {
        let code = (error as? URLError)?.code
        switch code {
        case .timedOut?: return HTTPError(.timeout, url: url)
        case .cannotConnectToHost?, .cannotFindHost?, .notConnectedToInternet?, .dnsLookupFailed?:
            return HTTPError(.cannotConnect, url: url, detail: error.localizedDescription)
        case .networkConnectionLost?: return HTTPError(.connectionLost, url: url, detail: error.localizedDescription)
        case .badURL?, .unsupportedURL?: return HTTPError(.invalidURL, url: url)
        default: return HTTPError(.connectionLost, url: url, detail: error.localizedDescription)
        }
    }
}
