/// The C string held in a fixed array of a C struct (`modhost_refusal`'s `call`, `program`,
/// `path`), imported as a tuple: up to its first NUL, decoded as UTF-8.
func fixedCString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
}
