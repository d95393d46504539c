/// What a module library says about itself in its ELF section `.modhost_descriptor`: read
/// from the file, before any of its code runs (layout in `modhost_abi.h`).
public struct ModuleDescriptor: Sendable, Equatable {
    public var abiVersion: UInt32
    public var kitFingerprint: String
    /// The SDK version the module was built with; `nil` in a format-1 descriptor.
    public var sdkVersion: String?
    public var name: String
    public var version: String
    public var provides: [String]
    public var requires: [String]
    public var uses: [String]
}

extension ModuleDescriptor {
    static let magic = Array("MHDS".utf8)
    /// `MODHOST_DESCRIPTOR_FORMAT`; format 1 (no `sdk` line) is still read, so that a library
    /// built with an older kit is told which kit it needs rather than that it is malformed.
    static let formatVersion: UInt16 = 2
    static let headerSize = 12
    /// `MODHOST_DESCRIPTOR_MAX_SIZE`.
    static let maximumSize = 8_192
    static let keys = ["abi", "kit", "sdk", "name", "version", "provides", "requires", "uses"]

    /// The keys of a payload in `format`, in order.
    static func keys(format: UInt16) -> [String] { format == 1 ? keys.filter { $0 != "sdk" } : keys }

    /// Parses the section's bytes strictly: every field in order, each once, nothing else.
    ///
    /// - Throws: ``DescriptorError`` saying what is wrong (without the file; the caller adds it).
    init(section bytes: [UInt8]) throws(DescriptorError) {
        guard bytes.count <= Self.maximumSize else {
            throw .malformed("is \(bytes.count) bytes, more than the \(Self.maximumSize) a descriptor may have")
        }
        guard bytes.count >= Self.headerSize else { throw .malformed("is truncated (\(bytes.count) bytes)") }
        guard Array(bytes[0..<4]) == Self.magic else { throw .malformed("does not start with 'MHDS'") }
        let format = UInt16(bytes[4]) | UInt16(bytes[5]) << 8
        guard (1...Self.formatVersion).contains(format), bytes[6] == 0, bytes[7] == 0 else {
            throw .malformed("has format \(format), the host reads formats 1 to \(Self.formatVersion)")
        }
        let length = (8..<12).reduce(0) { $0 | Int(bytes[$1]) << (8 * ($1 - 8)) }
        guard length == bytes.count - Self.headerSize else {
            throw .malformed("says its payload is \(length) bytes but holds \(bytes.count - Self.headerSize)")
        }
        let payload = bytes[Self.headerSize...]
        guard payload.last == UInt8(ascii: "\n"), let text = String(validating: payload, as: UTF8.self) else {
            throw .malformed("has a payload that is not UTF-8 lines")
        }
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        let keys = Self.keys(format: format)
        guard lines.count == keys.count else {
            throw .malformed("has \(lines.count) fields, expected \(keys.count) (\(keys.joined(separator: ", ")))")
        }
        var values: [String] = []
        for (line, key) in zip(lines, keys) {
            guard line.hasPrefix(key + "=") else {
                throw .malformed("has '\(Escaped(String(line.prefix(40))))' where '\(key)=' was expected")
            }
            values.append(String(line.dropFirst(key.count + 1)))
        }
        var sdk: String?
        if format >= 2 {
            let value = values.remove(at: 2)
            guard Self.isVersion(value) else {
                throw .malformed("has SDK version '\(Escaped(value))'; a version holds letters, digits, '.', '-' and '+'")
            }
            sdk = value
        }
        guard let abi = UInt32(values[0]) else { throw .malformed("has ABI version '\(Escaped(values[0]))', not a number") }
        guard values[1].count == 32, values[1].utf8.allSatisfy(Self.isHexDigit) else {
            throw .malformed("has kit fingerprint '\(Escaped(values[1]))', not 32 hex digits")
        }
        guard Self.isIdentifier(values[2]) else { throw .malformed("has name '\(Escaped(values[2]))', not an identifier") }
        guard Self.isVersion(values[3]) else {
            throw .malformed("has version '\(Escaped(values[3]))'; a version holds letters, digits, '.', '-' and '+'")
        }
        var routes: [[String]] = []
        for (index, list) in values[4...].enumerated() {
            let names = list.isEmpty ? [] : list.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if let bad = names.first(where: { !Self.isIdentifier($0) }) {
                throw .malformed("lists route '\(Escaped(bad))' in '\(["provides", "requires", "uses"][index])', not an identifier")
            }
            routes.append(names)
        }
        self.init(
            abiVersion: abi, kitFingerprint: values[1], sdkVersion: sdk, name: values[2], version: values[3], provides: routes[0],
            requires: routes[1], uses: routes[2])
    }

    static func isIdentifier(_ value: String) -> Bool {
        guard value.utf8.count <= 128, let first = value.utf8.first, isLetter(first) else { return false }
        return value.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) }

    private static func isVersion(_ value: String) -> Bool {
        !value.isEmpty && value.count <= 64 && value.utf8.allSatisfy(isVersionByte)
    }

    private static func isVersionByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
    }
}

/// Why a descriptor could not be read; the caller names the file.
enum DescriptorError: Error, Equatable {
    /// The file is not an ELF shared object (the text says what it is instead).
    case notELF(String)
    /// The file has no `.modhost_descriptor` section.
    case missing
    /// The section exists but breaks the layout (the text says how).
    case malformed(String)
}
