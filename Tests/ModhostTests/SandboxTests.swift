import Foundation
import ModuleHostTesting
import TestSupport
import Testing

/// A module in a process of its own is confined before its code runs: with the real `modhost`
/// and a real module (FixtureSandboxProbe) that does each thing — opens a file outside its
/// folder, connects to a server on loopback, signals the host, maps too much memory — and
/// prints what happened. The same module in the host's process is not confined, which shows
/// that each refusal is the sandbox's.
@Suite struct SandboxTests {
    let host: TestHost
    let outside: String

    init() throws {
        host = try TestHost(entries: [
            ("FixtureSandboxProbe", #""library": "\#(TestEnvironment.library("FixtureSandboxProbe"))""#)
        ])
        outside = try TestEnvironment.temporaryFolder()
        #expect(FileManager.default.createFile(atPath: outside + "/secret", contents: Data("key".utf8)))
    }

    /// The line the probe prints for `what`, in its own process or in the host's.
    func attempt(_ what: String..., isolated: Bool = true) throws -> String {
        let result = try host.run(
            arguments: (isolated ? ["--isolate", "FixtureSandboxProbe"] : []) + ["fixtureSandboxProbe", "try"] + what)
        #expect(result.succeeded, "\(result)")
        return result.stdout.trimmingCharacters(in: CharacterSet.newlines)
    }

    @Test func filesOutsideItsDataFolderAreRefused() throws {
        #expect(try attempt("read", outside + "/secret") == "read \(outside)/secret: refused (Permission denied)")
        #expect(try attempt("write", outside + "/planted") == "write \(outside)/planted: refused (Permission denied)")
        #expect(!FileManager.default.fileExists(atPath: outside + "/planted"))
        #expect(try attempt("read", "/etc/passwd") == "read /etc/passwd: refused (Permission denied)")
        // Another module's data, beside its own.
        try FileManager.default.createDirectory(atPath: host.dataFolder + "/Photos", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: host.dataFolder + "/Photos/photos.sqlite", contents: Data("db".utf8)))
        #expect(
            try attempt("read", host.dataFolder + "/Photos/photos.sqlite")
                == "read \(host.dataFolder)/Photos/photos.sqlite: refused (Permission denied)")
        // In the host's process nothing stops it: the refusal above is the sandbox's.
        #expect(try attempt("read", outside + "/secret", isolated: false) == "read \(outside)/secret: ok")
    }

    @Test func itsOwnDataFolderIsItsToReadAndWrite() throws {
        #expect(try attempt("own") == "own: ok")
        #expect(FileManager.default.contents(atPath: host.dataFolder + "/FixtureSandboxProbe/probe") == Data("mine".utf8))
    }

    @Test func theNetworkIsRefusedWithoutTheCapability() throws {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(server >= 0)
        defer { close(server) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, length) == 0 && getsockname(server, $0, &length) == 0 }
        }
        try #require(bound && listen(server, 4) == 0)
        let port = "\(UInt16(bigEndian: address.sin_port))"
        #expect(try attempt("connect", port) == "connect \(port): refused (Operation not permitted)")
        #expect(try attempt("udp") == "udp: refused (Operation not permitted)")
        #expect(try attempt("connect", port, isolated: false) == "connect \(port): ok")
    }

    @Test func theHostAndTheKernelAreOutOfReach() throws {
        #expect(try attempt("signal") == "signal: refused (Operation not permitted)")
        #expect(try attempt("peek") == "peek: refused (Operation not permitted)")
        #expect(try attempt("unshare") == "unshare: refused (Operation not permitted)")
        #expect(try attempt("exec") == "exec: refused (Operation not permitted)")
        #expect(try attempt("exec", isolated: false) == "exec: ok")
    }

    @Test func itsMemoryIsLimited() throws {
        #expect(try attempt("allocate", "64") == "allocate 64: ok")
        #expect(try attempt("allocate", "3072") == "allocate 3072: refused (Cannot allocate memory)")
    }
}
