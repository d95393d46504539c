/// What each side of a link to a process of its own says first: the wire protocol it speaks,
/// the host and SDK versions it was built with, and the contracts libraries (route protocols)
/// it has, each with its version. Nothing else crosses until both sides agree.
///
/// On the wire, a ``Frame`` of kind ``kind`` whose bytes are `key=value` lines in this order:
/// `protocol`, `host`, `sdk`, then one `contracts` line per library (`Name@1.2.3`), then — in
/// the host's hello only — a `passes` line naming the descriptors that come with it, in order
/// (`passes=library,filter,ruleset`), a `language` line with the person's language
/// (`language=de`), and when there are any, one `routes` line naming the routes the host serves
/// the module (`routes=GeoRoute,HostInfoRoute`). Every value is printable ASCII without spaces; a hello
/// from the peer is checked line by line and refused with the line it could not take.
package struct Hello: Equatable, Sendable {
    package static let kind: UInt8 = 1
    /// The wire protocol this build speaks.
    package static let protocolVersion = 1

    package let protocolVersion: Int
    package let hostVersion: String
    package let sdkVersion: String
    /// Contracts library names with their versions, in the order given.
    package let contracts: [(name: String, version: String)]
    /// The routes the host serves the module's process (the host's hello; known only after
    /// the host planned, so they cannot be on the child's command line when it is started early).
    package let routes: [String]
    /// The person's language as the host has it (the host's hello): the process takes it
    /// before the module's code runs, without a call of its own (a round trip of its start).
    package let language: String?
    /// What each descriptor that comes with the host's hello is, in their order (``library``,
    /// ``filter``, ``ruleset``).
    package let passes: [String]

    /// The open file of the module's library, as the host checked it.
    package static let library = "library"
    /// The seccomp filter the host made for the module's process (``Sandbox/filterProgram(network:exec:)``).
    package static let filter = "filter"
    /// The Landlock ruleset the host made of the sandbox's paths (``Sandbox/ruleset(for:abi:)``).
    package static let ruleset = "ruleset"

    package init(
        protocolVersion: Int = Hello.protocolVersion, hostVersion: String, sdkVersion: String, contracts: [(name: String, version: String)],
        passes: [String] = [], routes: [String] = [], language: String? = nil
    ) {
        self.protocolVersion = protocolVersion
        self.hostVersion = hostVersion
        self.sdkVersion = sdkVersion
        self.contracts = contracts
        self.passes = passes.filter(Self.isWord)
        self.routes = routes
        self.language = language.flatMap { Self.isLanguageCode($0) ? $0 : nil }
    }

    /// The descriptor among `descriptors` (those that came with this hello) that it names `name`.
    package func passed(_ name: String, in descriptors: [Int32]) -> Int32? {
        passes.firstIndex(of: name).flatMap { $0 < descriptors.count ? descriptors[$0] : nil }
    }

    /// Whether `code` can be a language line's value: a locale code (`de`, `pt_BR`, `zz`).
    static func isLanguageCode(_ code: String) -> Bool {
        code.utf8.count <= 32 && isWord(code)
    }

    /// Whether `text` is one word of ASCII letters, digits and underscores (a route's name).
    private static func isWord(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy {
                $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0)
            }
    }

    package static func == (left: Hello, right: Hello) -> Bool {
        left.protocolVersion == right.protocolVersion && left.hostVersion == right.hostVersion
            && left.sdkVersion == right.sdkVersion && left.contracts.map(\.name) == right.contracts.map(\.name)
            && left.contracts.map(\.version) == right.contracts.map(\.version) && left.routes == right.routes
            && left.language == right.language && left.passes == right.passes
    }

    package var frame: Frame {
        var text = "protocol=\(protocolVersion)\nhost=\(hostVersion)\nsdk=\(sdkVersion)\n"
        for library in contracts { text += "contracts=\(library.name)@\(library.version)\n" }
        if !passes.isEmpty { text += "passes=\(passes.joinedConcretely(separator: ","))\n" }
        if let language { text += "language=\(language)\n" }
        if !routes.isEmpty { text += "routes=\(routes.joinedConcretely(separator: ","))\n" }
        return Frame(kind: Self.kind, payload: Array(text.utf8))
    }

    /// Most contracts libraries one hello may name, and most bytes it may have.
    static let maximumContracts = 256
    static let maximumSize = 64 << 10

    /// The peer's hello.
    ///
    /// - Throws: ``WireError/malformedHello(_:)`` naming what could not be taken.
    package init(_ frame: Frame) throws(WireError) {
        guard frame.kind == Self.kind else { throw .malformedHello("a frame of kind \(frame.kind) where the hello was due") }
        guard frame.payload.count <= Self.maximumSize else { throw .malformedHello("more than \(Self.maximumSize) bytes") }
        guard frame.payload.allSatisfy({ $0 == 10 || (0x21...0x7e).contains($0) }) else {
            throw .malformedHello("bytes other than printable ASCII lines")
        }
        var lines = String(decoding: frame.payload, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.last == "" else { throw .malformedHello("no line end after its last line") }
        lines.removeLast()
        func value(_ key: String, at index: Int) throws(WireError) -> String {
            guard index < lines.count, lines[index].hasPrefix(key + "="), lines[index].count > key.count + 1 else {
                throw .malformedHello("no '\(key)=' in line \(index + 1)")
            }
            return String(lines[index].dropFirst(key.count + 1))
        }
        guard let version = Int(try value("protocol", at: 0)), version > 0 else { throw .malformedHello("a protocol that is not a number") }
        protocolVersion = version
        hostVersion = try value("host", at: 1)
        sdkVersion = try value("sdk", at: 2)
        /// The names of the last line when it is `key=a,b,c` (taken off the lines then), else none.
        func names(_ key: String, atMost most: Int) throws(WireError) -> [String] {
            guard lines.count > 3, let last = lines.last, last.hasPrefix(key + "=") else { return [] }
            let listed = last.dropFirst(key.count + 1)
            let names = listed.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard names.count <= most, names.allSatisfy(Self.isWord) else {
                throw .malformedHello("\(key) '\(listed.prefix(200))' in line \(lines.count), not names separated by commas")
            }
            lines.removeLast()
            return names
        }
        routes = try names("routes", atMost: Self.maximumContracts * 16)
        var language: String?
        if lines.count > 3, let last = lines.last, last.hasPrefix("language=") {
            let code = String(last.dropFirst("language=".count))
            guard Self.isLanguageCode(code) else {
                throw .malformedHello("language '\(code.prefix(40))' in line \(lines.count), not a locale code")
            }
            language = code
            lines.removeLast()
        }
        self.language = language
        passes = try names("passes", atMost: 16)
        guard lines.count - 3 <= Self.maximumContracts else {
            throw .malformedHello("more than \(Self.maximumContracts) contracts libraries")
        }
        var contracts: [(name: String, version: String)] = []
        for index in 3..<max(3, lines.count) {
            let entry = try value("contracts", at: index)
            let parts = entry.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw .malformedHello("contracts '\(entry)' in line \(index + 1), not Name@version")
            }
            contracts.append((String(parts[0]), String(parts[1])))
        }
        self.contracts = contracts
    }

    /// Why a link whose sides said `mine` and `theirs` cannot go on, or `nil` when it can: the
    /// same protocol, and each contracts library both have at the same version.
    package static func mismatch(mine: Hello, theirs: Hello) -> String? {
        guard mine.protocolVersion == theirs.protocolVersion else {
            return "it speaks wire protocol \(theirs.protocolVersion), the host \(mine.protocolVersion)"
        }
        for library in theirs.contracts {
            guard let own = mine.contracts.first(where: { $0.name == library.name }) else { continue }
            if own.version != library.version {
                return "it has \(library.name) \(library.version), the host \(own.version)"
            }
        }
        return nil
    }
}
