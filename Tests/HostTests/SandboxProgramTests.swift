import CHostSandbox
import Glibc
import HostSandbox
import Testing

/// The seccomp filter the host makes for a module's process, which the process loads as it is:
/// sealed, and loaded only for the grants it was made for; anything else is left to the
/// process to build its own. (That a loaded one confines is `SandboxTests`' part: every run
/// there loads the host's.)
@Suite struct SandboxProgramTests {
    // fcntl's sealing, which the Glibc module does not bring (linux/fcntl.h).
    static let (addSeals, getSeals): (Int32, Int32) = (1033, 1034)
    static let (sealSeal, sealShrink, sealGrow, sealWrite): (Int32, Int32, Int32, Int32) = (1, 2, 4, 8)

    /// glibc's memfd_create (not in the Glibc module either), with MFD_CLOEXEC and, when asked,
    /// MFD_ALLOW_SEALING.
    static func memoryFile(_ name: String, sealable: Bool) -> Int32 {
        typealias Create = @convention(c) (UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "memfd_create") else { return -1 }
        return unsafeBitCast(symbol, to: Create.self)(name, sealable ? 3 : 1)
    }

    @Test func theProgramIsSealedAndLoadedOnlyForItsOwnGrants() throws {
        let before = Self.confinement
        let program = try #require(Sandbox.filterProgram(network: false, exec: true))
        defer { close(program) }
        let seals = fcntl(program, Self.getSeals)
        #expect(seals & Self.sealWrite != 0 && seals & Self.sealShrink != 0 && seals & Self.sealGrow != 0 && seals & Self.sealSeal != 0)
        #expect(pwrite(program, "x", 1, 0) == -1)
        // Other grants: refused before anything is set (this process stays as it was).
        var notify: Int32 = -1
        #expect(modhost_sandbox_load_program(program, 1, 1, &notify) == EINVAL)
        #expect(modhost_sandbox_load_program(program, 0, 0, &notify) == EINVAL)
        #expect(notify == -1)
        #expect(Self.confinement == before)
    }

    /// A file that is not a sealed program of whole instructions is not loaded.
    @Test func whatIsNotASealedProgramIsNotLoaded() throws {
        let before = Self.confinement
        var notify: Int32 = -1
        let unsealed = Self.memoryFile("not-sealed", sealable: false)
        defer { close(unsealed) }
        #expect(write(unsealed, "MHSF\0\0\0\0", 8) == 8 && write(unsealed, [UInt8](repeating: 0, count: 8), 8) == 8)
        #expect(modhost_sandbox_load_program(unsealed, 0, 0, &notify) == EINVAL)
        let cut = Self.memoryFile("cut", sealable: true)
        defer { close(cut) }
        #expect(write(cut, "MHSF\0\0\0\0", 8) == 8 && write(cut, [UInt8](repeating: 0, count: 5), 5) == 5)
        #expect(fcntl(cut, Self.addSeals, Self.sealWrite | Self.sealShrink | Self.sealGrow) == 0)
        #expect(modhost_sandbox_load_program(cut, 0, 0, &notify) == EINVAL)
        #expect(notify == -1 && Self.confinement == before)
    }

    /// What of this process a loaded filter would change (a test runner may run under filters
    /// of its own already).
    static var confinement: [String?] { ["NoNewPrivs", "Seccomp", "Seccomp_filters"].map(status) }

    /// A field of this process's `/proc/self/status`.
    static func status(_ field: String) -> String? {
        let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 16_384)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return line.map { String($0.dropFirst(field.count + 1).drop { $0 == " " || $0 == "\t" }) }
    }
}
