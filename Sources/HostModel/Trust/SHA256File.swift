@_spi(Host) import ModuleKit

/// The SHA-256 of a checked library file, for `sha256` pins and `modules --json`: the kit's,
/// through libcrypto, from the checked descriptor.
package enum SHA256File {
    package static func hex(of file: TrustedFile) -> Result<String, HashError> {
        do throws(SHA256.Unavailable) {
            return .success(try SHA256.hex(ofFile: file.descriptor))
        } catch {
            return .failure(HashError(message: "cannot be hashed: " + error.reason))
        }
    }
}

/// The library could not be hashed; `message` says why.
package struct HashError: Error {
    package let message: String
}
