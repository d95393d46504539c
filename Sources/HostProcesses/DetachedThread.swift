import CHostProcess
import Glibc

/// A thread of the host's own, started with `pthread_create`: Foundation's `Thread` would link
/// the whole of Foundation (and ICU behind it) into every start for a few lines of work.
package enum DetachedThread {
    /// Runs `body` on a new detached thread named `name`; false
    /// when the system could start no thread (then `body` never runs).
    @discardableResult
    package static func start(named name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Work(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let started = pthread_create(
            &thread, &attributes,
            { context in
                guard let context else { return nil }
                let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
                _ = modhost_name_thread(work.name)
                work.body()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(context).release()
            return false
        }
        return true
    }

    /// Whether the calling thread is the process's first one.
    package static var isMain: Bool { modhost_is_main_thread() == 1 }

    private final class Work {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
