/// The framing both of the kit's ELF sections share (`modhost_abi.h`): a 4-byte magic, the
/// format (UInt16, little endian), two zero bytes, the payload's length (UInt32, little
/// endian), and a payload of UTF-8 lines, each ending in a newline.
package enum SectionFrame {
    static let headerSize = 12
    /// `MODHOST_DESCRIPTOR_MAX_SIZE`, which bounds both sections.
    static let maximumSize = 8_192

    /// The format and the payload's lines, checked strictly against `magic` and `formats`.
    ///
    /// - Throws: ``DescriptorError/malformed(_:)`` saying what is wrong (the caller names the file).
    static func parse(_ bytes: [UInt8], magic: String, formats: ClosedRange<UInt16>) throws(DescriptorError) -> (
        format: UInt16, lines: [Substring]
    ) {
        guard bytes.count <= maximumSize else {
            throw .malformed("is \(bytes.count) bytes, more than the \(maximumSize) a section may have")
        }
        guard bytes.count >= headerSize else { throw .malformed("is truncated (\(bytes.count) bytes)") }
        guard bytes[0..<4].elementsEqual(magic.utf8) else { throw .malformed("does not start with '\(magic)'") }
        let format = UInt16(bytes[4]) | UInt16(bytes[5]) << 8
        guard formats.contains(format), bytes[6] == 0, bytes[7] == 0 else {
            throw .malformed("has format \(format), the host reads formats \(formats.lowerBound) to \(formats.upperBound)")
        }
        let length = (8..<12).reduce(0) { $0 | Int(bytes[$1]) << (8 * ($1 - 8)) }
        guard length == bytes.count - headerSize else {
            throw .malformed("says its payload is \(length) bytes but holds \(bytes.count - headerSize)")
        }
        let payload = bytes[headerSize...]
        guard payload.last == UInt8(ascii: "\n"), let text = String(validating: payload, as: UTF8.self) else {
            throw .malformed("has a payload that is not UTF-8 lines")
        }
        // Split on the newline byte: splitting the String by Character would break the text
        // into grapheme clusters first, for every module of every start.
        let lines = text.utf8.dropLast().split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Substring.init)
        return (format, lines)
    }
}
