import ModuleKit

/// Where the host's temporary files go: `TMPDIR` when set, else `/tmp`, with a slash at the
/// end (what Foundation's `NSTemporaryDirectory()` gave, without linking the rest of Foundation).
package enum TemporaryFolder {
    package static var path: String {
        let folder = ProcessEnvironment.value("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return folder.hasSuffix("/") ? folder : folder + "/"
    }
}
