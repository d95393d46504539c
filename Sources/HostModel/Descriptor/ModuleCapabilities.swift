@_spi(Host) import ModuleKit

/// What a module declares it needs beyond its own data folder when it runs in a sandbox of its
/// own: its manifest's `capability` lines, recorded in the section `.modhost_capabilities`
/// (magic `MHCP`). A library without the section declares nothing.
public struct ModuleCapabilities: Sendable, Equatable {
    /// Sockets other than UNIX ones, TCP connect and bind.
    public var network = false
    /// Starting programs.
    public var exec = false
    /// Paths it reads beneath (absolute, or `~/…` for the home folder of the user running it).
    public var reads: [String] = []
    /// Paths it reads and writes beneath.
    public var writes: [String] = []

    public init(network: Bool = false, exec: Bool = false, reads: [String] = [], writes: [String] = []) {
        self.network = network
        self.exec = exec
        self.reads = reads
        self.writes = writes
    }

    /// The words an operator may deny in modules.json (`"deny": ["network"]`): a capability's
    /// word, or a `read`/`write` line as declared.
    public var words: [String] {
        (network ? ["network"] : []) + (exec ? ["exec"] : []) + reads.map { "read " + $0 } + writes.map { "write " + $0 }
    }

    public var isEmpty: Bool { words.isEmpty }

    /// These capabilities without those `denied` names: `network`, `exec`, `read`, `write` (all
    /// of that kind) or one declared line (`read /usr/share/dict`). Never wider.
    public func narrowed(denying denied: [String]) -> ModuleCapabilities {
        let denied = Set(denied)
        return ModuleCapabilities(
            network: network && !denied.contains("network"), exec: exec && !denied.contains("exec"),
            reads: denied.contains("read") ? [] : reads.filter { !denied.contains("read " + $0) },
            writes: denied.contains("write") ? [] : writes.filter { !denied.contains("write " + $0) })
    }

    /// Whether `word` names something these capabilities could deny.
    public static func isDeniable(_ word: String) -> Bool {
        ["network", "exec", "read", "write"].contains(word) || word.hasPrefix("read /") || word.hasPrefix("read ~/")
            || word.hasPrefix("write /") || word.hasPrefix("write ~/")
    }

    /// Parses the section: one capability a line, each checked as the kit's build tool does.
    init(section bytes: [UInt8]) throws(DescriptorError) {
        let (_, lines) = try SectionFrame.parse(bytes, magic: "MHCP", formats: 1...1)
        self.init()
        for line in lines where !line.isEmpty {
            let text = String(line)
            switch text {
            case "network": network = true
            case "exec": exec = true
            default:
                let (word, path) = (text.prefix { $0 != " " }, String(text.drop { $0 != " " }.dropFirst()))
                guard word == "read" || word == "write", Self.isPlainPath(path) else {
                    throw .malformed(
                        "declares capability '\(Escaped(String(text.prefix(80))))', not network, exec, read PATH or write PATH")
                }
                if word == "read" { reads.append(path) } else { writes.append(path) }
            }
        }
    }

    /// Absolute or `~/…`, with no `.` or `..` part and no control character.
    static func isPlainPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return (path.hasPrefix("/") || path.hasPrefix("~/")) && path.utf8.count <= 1024 && !parts.contains("..")
            && !parts.contains(".")
            && path.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }
    }
}
