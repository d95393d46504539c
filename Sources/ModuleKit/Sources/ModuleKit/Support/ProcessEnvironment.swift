import Glibc

/// The process's environment variables, read from `environ` at each call.
///
/// Rather than `ProcessInfo.processInfo.environment`, which costs a start about 0.4 ms the
/// first time (measured) and some 20 µs at every later call: the host and the modules read
/// the environment several times while they start.
public enum ProcessEnvironment {
    /// Every variable, by name (the first one when a name appears twice, as `getenv` has it).
    public static var variables: [String: String] {
        var variables: [String: String] = [:]
        guard var entry = Self.entries() else { return variables }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }

    /// `environ`, or `nil` when it is null (`clearenv` leaves it so). The Glibc overlay types
    /// it as non-optional, so it is read from its address as an optional pointer.
    private static func entries() -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        UnsafeRawPointer(bitPattern: environAddress)?.load(as: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?.self)
    }

    /// Where libc keeps `environ` (`RTLD_DEFAULT` is the null handle on glibc), as a number so
    /// that it can be a constant shared by every thread.
    private static let environAddress = UInt(bitPattern: dlsym(nil, "environ"))

    /// The variable `name`, or `nil` when it is not set.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
