import Glibc

/// Path arithmetic on plain strings, for the start-up path: `URL` would load and run
/// Foundation's URL parser (percent-encoding included) for what is a few string operations.
/// Lexical only, like `URL.standardized`: symlinks are left as they are.
public enum FilePaths {
    /// The folder holding `path`: "/a/b" → "/a", "/a" → "/", "b" → ".".
    ///
    /// On the bytes, as the kernel reads a path: a slash is a slash whatever follows it (a
    /// combining mark after one makes one `Character` of the two), and a run asks this of every
    /// library it maps, where counting characters cost the sandbox's policy a tenth of its time.
    public static func folder(of path: String) -> String {
        let bytes = path.utf8
        let slash = UInt8(ascii: "/")
        guard !bytes.isEmpty else { return "." }
        var end = bytes.endIndex
        // Trailing slashes do not end the path's last name (a lone "/" stays).
        while end > bytes.index(after: bytes.startIndex), bytes[bytes.index(before: end)] == slash { end = bytes.index(before: end) }
        guard let last = bytes[..<end].lastIndex(of: slash) else { return "." }
        return last == bytes.startIndex ? "/" : String(Substring(bytes[..<last]))
    }

    /// `path` made absolute against `folder` (when relative), with `.`, `..` and repeated
    /// slashes resolved: "lib/../x.so" in "/opt/app" → "/opt/app/x.so". `..` at the root stays
    /// at the root, as the kernel has it.
    public static func absolute(_ path: String, relativeTo folder: String) -> String {
        let joined = path.hasPrefix("/") ? path : folder + "/" + path
        if isNormal(joined) { return joined }
        var components: [Substring] = []
        for component in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        // Appended one by one: `joined` is not inlined, and its generic path costs a start a
        // scan of every loaded conformance (see docs/ARCHITECTURE.md, "A start pays only…").
        guard !components.isEmpty else { return "/" }
        var absolute = ""
        for component in components {
            absolute.append("/")
            absolute.append(contentsOf: component)
        }
        return absolute
    }

    /// Whether an absolute path is already in the form ``absolute(_:relativeTo:)`` gives: no
    /// empty, `.` or `..` component and no trailing slash (a run names hundreds of libraries).
    private static func isNormal(_ path: String) -> Bool {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/"), bytes.count == 1 || bytes.last != UInt8(ascii: "/") else { return false }
        var previous = UInt8(ascii: "/")
        var dots = 0  // Dots since the last slash, while the component holds nothing else.
        for byte in bytes.dropFirst() {
            switch byte {
            case UInt8(ascii: "/"):
                if previous == UInt8(ascii: "/") || dots > 0 { return false }
            case UInt8(ascii: "."):
                if previous == UInt8(ascii: "/") || dots > 0 { dots += 1 }
            default:
                dots = 0
            }
            if byte == UInt8(ascii: "/") { dots = 0 }
            previous = byte
        }
        return dots == 0
    }

    /// `path` with every symlink resolved (`realpath`), or `nil` when it does not exist.
    public static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The current working folder, or "/" when it cannot be known (it was removed).
    public static var currentFolder: String {
        guard let folder = getcwd(nil, 0) else { return "/" }
        defer { free(folder) }
        return String(cString: folder)
    }
}
