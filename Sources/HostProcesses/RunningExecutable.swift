import Glibc

/// The binary this process runs, opened once at start-up: every child the host starts of
/// itself (`check` and its probes, Check from the app, `bisect`'s tries, `dev`'s runs) executes
/// this very file through its descriptor, never a path looked up again. Renamed, replaced or
/// deleted on disk while the app runs, the children still run the build that is running.
package enum RunningExecutable {
    /// `/proc/self/exe` opened (`O_PATH`: an executable the user may not read runs too): the
    /// kernel's link to the running image, not a path lookup; with its device and inode, to
    /// see that the number still holds it when a child is started.
    private static let opened: (descriptor: Int32, device: UInt64, inode: UInt64) = {
        let descriptor = Glibc.open("/proc/self/exe", pathOnly | O_CLOEXEC)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else { return (-1, 0, 0) }
        return (descriptor, UInt64(status.st_dev), UInt64(status.st_ino))
    }()

    /// The path it was started from, as messages name it and as the children's `argv[0]`.
    package static let path: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments.first ?? "modhost" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// Opens it now: `main` calls this first, before anything could replace the file.
    /// `O_PATH` (Linux's 010000000 on every architecture Swift runs on), which Glibc's module
    /// leaves out.
    package static let pathOnly: Int32 = 0o10_000_000

    package static func prepare() {
        _ = opened
        _ = path
    }

    /// What `execve` is given: the open file through `/proc/self/fd` (a close-on-exec
    /// descriptor still runs an ELF program), else, when the number no longer holds that file
    /// (code in the process closed or reused it), the kernel's own link, which also names the
    /// running image.
    package static var executionPath: String {
        let (descriptor, device, inode) = opened
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0, UInt64(status.st_dev) == device, UInt64(status.st_ino) == inode
        else { return "/proc/self/exe" }
        return "/proc/self/fd/\(descriptor)"
    }
}
