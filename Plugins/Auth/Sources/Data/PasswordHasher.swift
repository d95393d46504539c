import CCrypt
import Foundation
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

    /// A new hash of `password` with a fresh salt, or `nil` if libcrypt refuses.
    public func hash(_ password: String) -> String? {
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        guard crypt_gensalt_rn("$y$", cost, nil, 0, &setting, Int32(setting.count)) != nil else { return nil }
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
        let data = UnsafeMutablePointer<crypt_data>.allocate(capacity: 1)
        defer {
            // The scratch area held the password: wipe it before freeing.
            memset(data, 0, MemoryLayout<crypt_data>.size)
            data.deallocate()
        }
        memset(data, 0, MemoryLayout<crypt_data>.size)
        guard let result = crypt_rn(password, setting, data, Int32(MemoryLayout<crypt_data>.size)) else { return nil }
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
