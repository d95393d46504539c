import CHostProcess
import Glibc
import Synchronization

/// Independent pieces of one step shared between the calling thread and one helper thread,
/// when the machine has a second processor: the checks of a run's module libraries read files
/// and parse, and a 2-core machine does two at once.
package enum SharedWork {
    /// Calls `body` once for each index of `0..<count`, each index on one thread, the calling
    /// thread and at most one helper taking the next index as they finish; returns once every
    /// call has returned. Runs them all on the calling thread when there are fewer than
    /// `minimum`, when the machine has one processor, or when no thread can be started.
    package static func forEach(_ count: Int, minimum: Int = helpedFrom, _ body: @Sendable (Int) -> Void) {
        guard count >= max(minimum, 2), processors > 1 else {
            for index in 0..<count { body(index) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let work = Work(count: count, body: body)
            let context = Unmanaged.passRetained(work).toOpaque()
            var helper = pthread_t()
            let started = pthread_create(
                &helper, nil,
                { context in
                    guard let context else { return nil }
                    let work = Unmanaged<Work>.fromOpaque(context).takeRetainedValue()
                    _ = modhost_name_thread("modhost-share")
                    work.takeAll()
                    return nil
                }, context)
            if started != 0 { Unmanaged<Work>.fromOpaque(context).release() }
            work.takeAll()
            // The body escapes no further than this call: the helper has ended before it returns.
            if started == 0 { pthread_join(helper, nil) }
        }
    }

    /// The fewest calls a helper thread is started for: below, starting it costs more than
    /// it saves (measured on the plan's checks: four modules took 0.05 ms longer with it).
    package static let helpedFrom = 16

    /// Processors this process may run on, asked once.
    private static let processors = Int(modhost_usable_processors())

    private final class Work: Sendable {
        let count: Int
        let body: @Sendable (Int) -> Void
        let next = Atomic<Int>(0)

        init(count: Int, body: @escaping @Sendable (Int) -> Void) {
            self.count = count
            self.body = body
        }

        func takeAll() {
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                body(index)
            }
        }
    }
}
