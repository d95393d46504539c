import Foundation
import ModuleKit
import Synchronization

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
        out: StandardOutput.write,
        err: StandardError.write
    )

    func print(_ line: String = "") { out(line + "\n") }
    /// One `modhost: error:` line; control characters in it are escaped, so no value it quotes
    /// can forge a second line or send terminal escapes.
    /// Secrets in it are redacted (the kit's one redaction path).
    func error(_ message: String) {
        err("modhost: \(Self.label(\.error)): \(Escaped.escapingControlCharacters(Redaction.redact(message)))\n")
    }

    func warning(_ message: String) {
        err("modhost: \(Self.label(\.warning)): \(Escaped.escapingControlCharacters(Redaction.redact(message)))\n")
    }

    /// The words "error" and "warning" in the person's language, once the host's strings are
    /// read (English before, and with `LC_ALL=C`).
    struct Labels: Sendable {
        var error = "error"
        var warning = "warning"
    }

    private static let labels = Mutex<@Sendable () -> Labels>({ Labels() })

    /// Takes the labels from `strings`, asked at each line so they follow the current language.
    static func localize(with strings: ModuleStrings) {
        labels.withLock { $0 = { Labels(error: strings[.labelError], warning: strings[.labelWarning]) } }
    }

    private static func label(_ word: KeyPath<Labels, String>) -> String { labels.withLock { $0 }()[keyPath: word] }
}
