import CCrypt
import FoundationEssentials
import Glibc
import Synchronization

/// Hashes passwords with the system's libcrypt: yescrypt (`$y$`), salted with random bytes
/// from the kernel, cost tuned to 50–250 ms per hash on the project's machines. Verification
/// compares in constant time. Passwords are never logged or stored.
public struct PasswordHasher: Sendable {
    /// yescrypt's cost parameter (libcrypt's `count`, 1–11; each step doubles the work).
    public let cost: UInt

    public static let standard = PasswordHasher(cost: 7)

    /// Counts the calls into libcrypt, when given: how a test sees that two paths do the same
    /// hashing work, without timing them.
    let work: WorkCounter?

    public init(cost: UInt) {
        self.init(cost: cost, counting: nil)
    }

    init(cost: UInt, counting work: WorkCounter?) {
        self.cost = cost
        self.work = work
    }

    /// A new hash of `password` with a fresh salt, or `nil` if libcrypt refuses (or cannot be
    /// opened).
    public func hash(_ password: String) -> String? {
        guard let libcrypt = LibCrypt.functions else { return nil }
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        guard libcrypt.gensalt("$y$", cost, nil, 0, &setting, Int32(setting.count)) != nil else { return nil }
        work?.add()
        return Self.crypt(password, setting: setting)
    }

    /// Whether `password` matches `storedHash`, compared in constant time.
    public func verify(_ password: String, against storedHash: String) -> Bool {
        work?.add()
        guard
            let computed = storedHash.withCString({
                Self.crypt(password, setting: Array(UnsafeBufferPointer(start: $0, count: strlen($0) + 1)))
            })
        else {
            return false
        }
        return Self.constantTimeEqual(Array(computed.utf8), Array(storedHash.utf8))
    }

    /// A hash to verify against when the account does not exist, so that a wrong email takes
    /// as long as a wrong password.
    public func decoyHash() -> String {
        hash("decoy password, never matches") ?? ""
    }

    private static func crypt(_ password: String, setting: [CChar]) -> String? {
        guard let libcrypt = LibCrypt.functions else { return nil }
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer {
            // The scratch area held the password: wipe it before freeing.
            memset(data, 0, MemoryLayout<crypt_data>.size)
            data.deallocate()
        }
        memset(data, 0, MemoryLayout<crypt_data>.size)
        guard let result = libcrypt.crypt(password, setting, data, Int32(MemoryLayout<crypt_data>.size)) else { return nil }
        let hashed = String(cString: result)
        return hashed.hasPrefix("*") ? nil : hashed
    }

    /// Equal length and bytes, in time that depends only on the length.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}

/// How many hashes a ``PasswordHasher`` computed.
final class WorkCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}

/// libcrypt, opened on the first hash rather than linked: most starts hash nothing, and a
/// linked library is mapped and relocated at every start. Private (`RTLD_LOCAL`), so its
/// symbols join no other library's scope.
private enum LibCrypt {
    typealias Crypt =
        @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafeMutableRawPointer?, Int32) -> UnsafeMutablePointer<CChar>?
    typealias GenerateSalt =
        @convention(c) (
            UnsafePointer<CChar>?, UInt, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<CChar>?, Int32
        ) -> UnsafeMutablePointer<CChar>?

    /// `crypt_rn` and `crypt_gensalt_rn`, or `nil` when libcrypt cannot be opened.
    static let functions: (crypt: Crypt, gensalt: GenerateSalt)? = {
        guard let library = dlopen("libcrypt.so.1", RTLD_NOW | RTLD_LOCAL),
            let crypt = dlsym(library, "crypt_rn"), let gensalt = dlsym(library, "crypt_gensalt_rn")
        else { return nil }
        return (unsafeBitCast(crypt, to: Crypt.self), unsafeBitCast(gensalt, to: GenerateSalt.self))
    }()
}
