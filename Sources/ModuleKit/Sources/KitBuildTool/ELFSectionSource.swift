/// An ELF section as Swift source: a `@used` byte tuple placed in the section, which the host
/// reads from the file without loading it. Both sections the tool writes share one framing:
/// a 4-byte magic, the format (UInt16, little endian), two zero bytes, the payload's length
/// (UInt32, little endian), then the payload.
enum ELFSectionSource {
    static func bytes(magic: String, format: UInt16, payload: String) -> [UInt8] {
        let length = UInt32(payload.utf8.count)
        var bytes: [UInt8] = Array(magic.utf8)
        bytes += [UInt8(format & 0xff), UInt8(format >> 8), 0, 0]
        bytes += (0..<4).map { UInt8((length >> (8 * UInt32($0))) & 0xff) }
        return bytes + Array(payload.utf8)
    }

    /// The declaration; a section's contents must be literals, which is why it is generated.
    static func declaration(section: String, name: String, bytes: [UInt8]) -> String {
        let type = bytes.map { _ in "UInt8" }.joined(separator: ", ")
        let value = bytes.map(String.init).joined(separator: ", ")
        return "@section(\"\(section)\") @used\nlet \(name): (\(type)) = (\(value))"
    }
}
