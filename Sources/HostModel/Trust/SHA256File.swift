import CLibraryFile
@_spi(Host) import ModuleKit

/// The SHA-256 of a checked library file, for `sha256` pins and `modules --json`.
package enum SHA256File {
    package static func hex(of file: TrustedFile) -> Result<String, HashError> {
        var digest = [UInt8](repeating: 0, count: 32)
        var error = [CChar](repeating: 0, count: 256)
        guard modhost_sha256_file(file.descriptor, &digest, &error, error.count) == 0 else {
            return .failure(
                HashError(
                    message: "cannot be hashed: " + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            )
        }
        let digits = Array("0123456789abcdef")
        return .success(String(digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] }))
    }
}

/// The library could not be hashed; `message` says why.
package struct HashError: Error {
    package let message: String
}
