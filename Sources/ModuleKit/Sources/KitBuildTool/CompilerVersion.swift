#if canImport(Glibc)
    import Glibc
#endif

/// The compiler that builds the target: the first line of `swiftc --version`, run on the
/// `swiftc` the plugin found in the toolchain that runs the build. Library evolution keeps a
/// module loading across kit releases only when one compiler built both, so each descriptor
/// and the kit itself record it.
enum CompilerVersion {
    static func of(swiftc path: String) throws(ToolError) -> String {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw ToolError(message: "cannot make a pipe to run '\(path) --version'") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        var pid: pid_t = 0
        let arguments = [path, "--version"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let spawned = posix_spawn(&pid, path, &actions, nil, &argv, environ)
        close(fds[1])
        defer { close(fds[0]) }
        guard spawned == 0 else { throw ToolError(message: "cannot run '\(path) --version': \(String(cString: strerror(spawned)))") }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count > 0 {
                output += buffer[0..<count]
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let line = String(decoding: output.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        guard status == 0, line.hasPrefix("Swift version "), line.utf8.count <= 200,
            line.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f })
        else {
            throw ToolError(message: "'\(path) --version' did not print a Swift version (it printed '\(line.prefix(80))')")
        }
        return line
    }
}
