import ModuleKit

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
    /// The contracts libraries (outside the kit) the module was built against, by build; empty
    /// before format 3.
    public var contracts: [ContractsBuild] = []
}

/// A contracts library's build: its name and the fingerprint of its sources.
public struct ContractsBuild: Sendable, Equatable {
    public var name: String
    public var fingerprint: String
}

extension ModuleDescriptor {
    /// `MODHOST_DESCRIPTOR_FORMAT`; formats 1 (no `sdk` line) and 2 (no `contracts` line) are
    /// still read, so that a library built with an older kit is told which kit it needs rather
    /// than that it is malformed.
    static let formatVersion: UInt16 = 3
    static let keys = ["abi", "kit", "sdk", "name", "version", "provides", "requires", "uses", "contracts"]

    /// The keys of a payload in `format`, in order.
    static func keys(format: UInt16) -> [String] {
        switch format {
        case 1: keys.filter { $0 != "sdk" && $0 != "contracts" }
        case 2: keys.filter { $0 != "contracts" }
        default: keys
        }
    }

    /// Parses the section's bytes strictly: every field in order, each once, nothing else.
    ///
    /// - Throws: ``DescriptorError`` saying what is wrong (without the file; the caller adds it).
    init(section bytes: [UInt8]) throws(DescriptorError) {
        let (format, lines) = try SectionFrame.parse(bytes, magic: "MHDS", formats: 1...Self.formatVersion)
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
        var contracts: [ContractsBuild] = []
        if format >= 3, let list = values.popLast(), !list.isEmpty {
            for item in list.split(separator: ",", omittingEmptySubsequences: false) {
                let parts = item.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 2, Self.isIdentifier(parts[0]), Self.isFingerprint(parts[1]) else {
                    throw .malformed("lists contracts '\(Escaped(String(item.prefix(80))))', not 'Name:fingerprint'")
                }
                contracts.append(ContractsBuild(name: parts[0], fingerprint: parts[1]))
            }
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
        guard Self.isFingerprint(values[1]) else {
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
            requires: routes[1], uses: routes[2], contracts: contracts)
    }

    /// 32 lowercase hex digits, as the kit's build tool writes a fingerprint.
    static func isFingerprint(_ value: String) -> Bool {
        value.utf8.count == 32 && value.utf8.allSatisfy(isHexDigit)
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
