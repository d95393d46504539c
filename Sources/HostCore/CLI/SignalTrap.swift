import Dispatch
import Foundation

/// Stops the runtime's modules in reverse order on SIGINT or SIGTERM, then exits with
/// 128 + the signal number, as shells expect.
final class SignalTrap {
    private let sources: [any DispatchSourceSignal]

    init(runtime: HostRuntime) {
        let queue = DispatchQueue(label: "modhost.signals")
        sources = [SIGINT, SIGTERM].map { signalNumber in
            // The default action would kill the process before modules stop.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                runtime.stop()
                exit(128 + signalNumber)
            }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
