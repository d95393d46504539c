import Foundation
import ModuleKit

/// Where the command line writes: standard output for results, standard error for
/// `modhost: error: …` lines. Tests pass their own sinks.
public struct Console: Sendable {
    let out: @Sendable (String) -> Void
    let err: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// Standard output and standard error of the process.
    public static let standard = Console(
        out: { text in
            FileHandle.standardOutput.write(Data(text.utf8))
        },
        err: StandardError.write
    )

    func print(_ line: String = "") { out(line + "\n") }
    func error(_ message: String) { err("modhost: error: \(message)\n") }
    func warning(_ message: String) { err("modhost: warning: \(message)\n") }
}
