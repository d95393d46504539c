import Dispatch
import Synchronization

/// Runs async work from synchronous code (a command, a screen) and waits for its result.
/// Never call it from inside a task: it blocks the thread.
public func waitFor<T: Sendable, E: Error>(_ operation: @escaping @Sendable () async throws(E) -> T) throws(E) -> T {
    let outcome = Mutex<Result<T, E>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        let result: Result<T, E>
        do throws(E) {
            result = .success(try await operation())
        } catch {
            result = .failure(error)
        }
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    // The detached task stored a result before signalling.
    guard let result = outcome.withLock({ $0 }) else { preconditionFailure("waitFor: no result after signal") }
    return try result.get()
}
