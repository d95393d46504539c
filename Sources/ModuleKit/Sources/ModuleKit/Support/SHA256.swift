internal import CDigest

/// SHA-256, through the system's libcrypto (Debian: `libssl3`, which the toolchain's networking
/// needs too), opened privately on first use: for keys and digests (reset tokens by digest,
/// cache file names). Not for passwords: those need a slow, salted hash.
///
/// ```swift
/// let name = try SHA256.hex(of: Array(url.utf8)) + ".json"
/// ```
public enum SHA256 {
    /// libcrypto cannot be opened or cannot digest; `reason` says why.
    ///
    /// - Since: SDK 1.7.0.
    public struct Unavailable: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    ///
    /// - Since: SDK 1.7.0.
    public static func hex(of bytes: [UInt8]) throws(Unavailable) -> String {
        hexDigits(try digest(of: bytes))
    }

    /// The 32 bytes of the digest of `bytes`.
    ///
    /// - Since: SDK 1.7.0.
    public static func digest(of bytes: [UInt8]) throws(Unavailable) -> [UInt8] {
        try call { modhost_sha256(bytes, bytes.count, $0, $1, $2) }
    }

    /// The digest of the file open at `descriptor` (read from its start; its offset is left
    /// alone), as 64 lowercase hex digits: the host's pins and `modules --json`.
    @_spi(Host)
    public static func hex(ofFile descriptor: Int32) throws(Unavailable) -> String {
        hexDigits(try call { modhost_sha256_file(descriptor, $0, $1, $2) })
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    @available(*, deprecated, message: "use 'try SHA256.hex(of:)', which says when libcrypto is missing (SDK 1.7.0)")
    public static func hex(_ bytes: [UInt8]) -> String {
        hexDigits(digestOrLegacy(bytes))
    }

    @available(*, deprecated, message: "use 'try SHA256.digest(of:)', which says when libcrypto is missing (SDK 1.7.0)")
    public static func digest(_ bytes: [UInt8]) -> [UInt8] {
        digestOrLegacy(bytes)
    }

    /// libcrypto's digest; where it cannot be opened, the pre-1.7 implementation's, so that a
    /// module built before keeps its answers.
    private static func digestOrLegacy(_ bytes: [UInt8]) -> [UInt8] {
        (try? digest(of: bytes)) ?? LegacySHA256.digest(bytes)
    }

    private static func call(
        _ body: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<CChar>, Int) -> Int32
    ) throws(Unavailable) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        var error = [CChar](repeating: 0, count: 256)
        let status = digest.withUnsafeMutableBufferPointer { out -> Int32 in
            error.withUnsafeMutableBufferPointer { message -> Int32 in
                guard let out = out.baseAddress, let text = message.baseAddress else { return -1 }
                return body(out, text, message.count)
            }
        }
        guard status == 0 else {
            throw Unavailable(reason: String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return digest
    }

    private static func hexDigits(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] })
    }
}
