import Foundation

/// Source trees the tests copy and change before they build them: the kit, a host, a module
/// package.
public enum SourceTree {
    /// A text `edit` expected in a file was not there.
    public struct MissingText: Error, CustomStringConvertible {
        public let text: String
        public let path: String
        public var description: String { "'\(text)' is not in \(path)" }
    }

    /// Copies a source tree without its build products (dot folders and files).
    public static func copy(from source: String, to destination: String) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: destination, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: source) where !name.hasPrefix(".") {
            var isFolder: ObjCBool = false
            _ = files.fileExists(atPath: source + "/" + name, isDirectory: &isFolder)
            if isFolder.boolValue {
                try copy(from: source + "/" + name, to: destination + "/" + name)
            } else {
                try files.copyItem(atPath: source + "/" + name, toPath: destination + "/" + name)
            }
        }
    }

    /// Replaces each text, which must be in the file, by its replacement.
    public static func edit(_ path: String, _ replacements: [(String, String)]) throws {
        var text = try String(contentsOfFile: path, encoding: .utf8)
        for (old, new) in replacements {
            guard let range = text.range(of: old) else { throw MissingText(text: old, path: path) }
            text.replaceSubrange(range, with: new)
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// `swift` from PATH, with a generous limit: a cold build of a kit, a module or a host.
    public static func swift(_ arguments: [String]) throws -> ProcessResult {
        try ChildProcess.run("/usr/bin/env", ["swift"] + arguments, deadline: 1500)
    }
}
