import ModuleKit

/// What a module library says about itself in its ELF section `.modhost_descriptor`: read
/// from the file, before any of its code runs (layout in `modhost_abi.h`).
public struct ModuleDescriptor: Sendable, Equatable {
    public var abiVersion: UInt32
    /// The SDK version the module was built against; `nil` in a format-1 descriptor.
    public var sdkVersion: String?
    /// The compiler that built it (the first line of `swiftc --version`); `nil` before format 4,
    /// whose descriptors recorded a fingerprint of the kit's sources instead.
    public var compiler: String?
    public var name: String
    public var version: String
    public var provides: [String]
    public var requires: [String]
    public var uses: [String]
    /// The contracts libraries (outside the kit) the module was built against, by version;
    /// empty before format 4.
    public var contracts: [ContractsVersion] = []
    /// The commands the module's manifest declares (section `.modhost_commands`, SDK 1.6.0);
    /// `nil` for a library built before them, or whose section is unreadable.
    public var commands: [DeclaredCommand]?
    /// What its manifest declares it needs in a sandbox of its own (section
    /// `.modhost_capabilities`); nothing for a library without the section.
    public var capabilities = ModuleCapabilities()

    /// A descriptor of format 1 to 3, from a kit before SDK 1.0.0: no host of SDK 1 loads it.
    public var isBeforeVersioning: Bool { compiler == nil }
}

/// A command a module's manifest declares: its word and its options (`add --country --city`).
public struct DeclaredCommand: Sendable, Equatable {
    public var name: String
    public var options: [String]

    public init(name: String, options: [String]) {
        self.name = name
        self.options = options
    }

    /// Parses the commands section (`MHCM`): a command a line, its word then its options.
    static func list(section bytes: [UInt8]) throws(DescriptorError) -> [DeclaredCommand] {
        let (_, lines) = try SectionFrame.parse(bytes, magic: "MHCM", formats: 1...1)
        return try lines.filter { !$0.isEmpty }.map { line throws(DescriptorError) in
            let words = line.split(separator: " ").map(String.init)
            let isWord = { (word: Substring) in
                !word.isEmpty && word.count <= 64
                    && word.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x61...0x7a).contains($0) }
            }
            guard let name = words.first, isWord(Substring(name)),
                words.dropFirst().allSatisfy({ $0.hasPrefix("--") && isWord($0.dropFirst(2)) })
            else { throw .malformed("declares command '\(Escaped(String(line.prefix(80))))', not a word and its options") }
            return DeclaredCommand(name: name, options: Array(words.dropFirst()))
        }
    }
}

/// A contracts library's name and semantic version: as a module records it, or as the library
/// itself does, with the compiler that built it.
public struct ContractsVersion: Sendable, Equatable {
    public var name: String
    public var version: String
    /// The library's own record of its compiler; `nil` in a module's record.
    public var compiler: String? = nil
}

extension ModuleDescriptor {
    /// `MODHOST_DESCRIPTOR_FORMAT`. Formats 1 to 3 (a kit fingerprint, no compiler) are still
    /// read, so that a library built with a kit before SDK 1.0.0 is told which kit it needs
    /// rather than that it is malformed.
    static let formatVersion: UInt16 = 4
    static let keys = ["abi", "sdk", "compiler", "name", "version", "provides", "requires", "uses", "contracts"]

    /// The keys of a payload in `format`, in order.
    static func keys(format: UInt16) -> [String] {
        switch format {
        case 1: ["abi", "kit", "name", "version", "provides", "requires", "uses"]
        case 2: ["abi", "kit", "sdk", "name", "version", "provides", "requires", "uses"]
        case 3: ["abi", "kit", "sdk", "name", "version", "provides", "requires", "uses", "contracts"]
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
        // In the keys' order, looked up by position: a dictionary of ten fields cost more
        // (its hashing) than the rest of the parse, for each module of every start.
        var values: [String] = []
        values.reserveCapacity(keys.count)
        for (line, key) in zip(lines, keys) {
            let bytes = line.utf8
            guard bytes.starts(with: key.utf8), bytes.dropFirst(key.utf8.count).first == UInt8(ascii: "=") else {
                throw .malformed("has '\(Escaped(String(line.prefix(40))))' where '\(key)=' was expected")
            }
            values.append(String(Substring(bytes.dropFirst(key.utf8.count + 1))))
        }
        func field(_ key: String) -> String { keys.firstIndex(of: key).map { values[$0] } ?? "" }
        guard let abi = UInt32(field("abi")) else { throw .malformed("has ABI version '\(Escaped(field("abi")))', not a number") }
        if format < 4 {
            guard Self.isFingerprint(field("kit")) else {
                throw .malformed("has kit fingerprint '\(Escaped(field("kit")))', not 32 hex digits")
            }
        }
        let sdk = format == 1 ? nil : field("sdk")
        if let sdk, !Self.isVersion(sdk) {
            throw .malformed("has SDK version '\(Escaped(sdk))'; a version holds letters, digits, '.', '-' and '+'")
        }
        if format >= 4, SDKVersion(sdk ?? "") == nil {
            throw .malformed("has SDK version '\(Escaped(sdk ?? ""))', not MAJOR.MINOR.PATCH")
        }
        var compiler: String?
        if format >= 4 {
            let value = field("compiler")
            guard Self.isCompiler(value) else {
                throw .malformed("has compiler '\(Escaped(String(value.prefix(80))))', not one line of printable ASCII")
            }
            compiler = value
        }
        guard Self.isIdentifier(field("name")) else { throw .malformed("has name '\(Escaped(field("name")))', not an identifier") }
        guard Self.isVersion(field("version")) else {
            throw .malformed("has version '\(Escaped(field("version")))'; a version holds letters, digits, '.', '-' and '+'")
        }
        var routes: [[String]] = []
        for key in ["provides", "requires", "uses"] {
            let list = field(key)
            let names = Self.commaList(list)
            if let bad = names.first(where: { !Self.isIdentifier($0) }) {
                throw .malformed("lists route '\(Escaped(bad))' in '\(key)', not an identifier")
            }
            routes.append(names)
        }
        var contracts: [ContractsVersion] = []
        // Before format 4 the contracts line held fingerprints; such a library is refused anyway.
        if format >= 4, !field("contracts").isEmpty {
            for item in Self.commaList(field("contracts")) {
                let parts = item.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false).map { String(Substring($0)) }
                guard parts.count == 2, Self.isIdentifier(parts[0]), SDKVersion(parts[1]) != nil else {
                    throw .malformed("lists contracts '\(Escaped(String(item.prefix(80))))', not 'Name:MAJOR.MINOR.PATCH'")
                }
                guard !contracts.contains(where: { $0.name == parts[0] }) else {
                    throw .malformed("lists contracts '\(parts[0])' twice")
                }
                contracts.append(ContractsVersion(name: parts[0], version: parts[1]))
            }
        }
        self.init(
            abiVersion: abi, sdkVersion: sdk, compiler: compiler, name: field("name"), version: field("version"), provides: routes[0],
            requires: routes[1], uses: routes[2], contracts: contracts)
    }

    /// The items of a comma-separated field, split on the byte (not by Character: a descriptor
    /// is read for every module of every start).
    private static func commaList(_ list: String) -> [String] {
        list.isEmpty ? [] : list.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { String(Substring($0)) }
    }

    /// The first line of `swiftc --version` as the kit's build tool records it: printable ASCII.
    static func isCompiler(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 200 && value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7f }
    }

    /// 32 lowercase hex digits, as the kit's build tool writes a fingerprint.
    static func isFingerprint(_ value: String) -> Bool {
        value.utf8.count == 32 && value.utf8.allSatisfy(isHexDigit)
    }

    package static func isIdentifier(_ value: String) -> Bool {
        guard value.utf8.count <= 128, let first = value.utf8.first, isLetter(first) else { return false }
        return value.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) }

    private static func isVersion(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 64 && value.utf8.allSatisfy(isVersionByte)
    }

    private static func isVersionByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
    }
}

/// Why a descriptor could not be read; the caller names the file.
package enum DescriptorError: Error, Equatable {
    /// The file is not an ELF shared object (the text says what it is instead).
    case notELF(String)
    /// The file has no `.modhost_descriptor` section.
    case missing
    /// The section exists but breaks the layout (the text says how).
    case malformed(String)
}
