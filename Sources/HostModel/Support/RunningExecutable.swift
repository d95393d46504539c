import Glibc

/// The binary this process runs, opened once at start-up: every child the host starts of
/// itself (`check` and its probes, Check from the app, `bisect`'s tries, `dev`'s runs) executes
/// this very file through its descriptor, never a path looked up again. Renamed, replaced or
/// deleted on disk while the app runs, the children still run the build that is running.
package enum RunningExecutable {
    /// `/proc/self/exe` opened: the kernel's link to the running image, not a path lookup.
    private static let descriptor: Int32 = Glibc.open("/proc/self/exe", O_RDONLY | O_CLOEXEC)

    /// The path it was started from, as messages name it and as the children's `argv[0]`.
    package static let path: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments.first ?? "modhost" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Opens it now: `main` calls this first, before anything could replace the file.
    package static func prepare() {
        _ = descriptor
        _ = path
    }

    /// What `execve` is given: the open file through `/proc/self/fd` (a close-on-exec
    /// descriptor still runs an ELF program), else the kernel's own link, which also names the
    /// running image.
    package static var executionPath: String {
        descriptor >= 0 ? "/proc/self/fd/\(descriptor)" : "/proc/self/exe"
    }
}
