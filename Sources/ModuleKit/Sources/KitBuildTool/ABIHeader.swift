/// Reads `MODHOST_ABI_VERSION` and `MODHOST_SDK_VERSION` from `modhost_abi.h`, so the header
/// stays the one source of both for the entry point, the host and the descriptor alike.
enum ABIHeader {
    static func version(in path: String) throws(ToolError) -> UInt32 {
        let digits = try define("MODHOST_ABI_VERSION", in: path).prefix { $0.isNumber }
        guard let version = UInt32(digits) else { throw ToolError(message: "'\(path)' defines MODHOST_ABI_VERSION as '\(digits)'") }
        return version
    }

    /// `MODHOST_SDK_VERSION`: the SDK's semantic version, recorded in each descriptor.
    static func sdkVersion(in path: String) throws(ToolError) -> String {
        let value = try define("MODHOST_SDK_VERSION", in: path)
        guard value.count > 2, value.hasPrefix("\""), value.hasSuffix("\"") else {
            throw ToolError(message: "'\(path)' defines MODHOST_SDK_VERSION as '\(value)', not a string")
        }
        let version = String(value.dropFirst().dropLast())
        guard SemanticVersion.isValid(version) else {
            throw ToolError(message: "'\(path)' defines MODHOST_SDK_VERSION as '\(version)', not MAJOR.MINOR.PATCH")
        }
        return version
    }

    /// The value of `#define NAME VALUE` in the header.
    private static func define(_ name: String, in path: String) throws(ToolError) -> Substring {
        let text = String(decoding: try readFile(path), as: UTF8.self)
        let prefix = "#define \(name) "
        for line in text.split(separator: "\n") where line.hasPrefix(prefix) {
            return line.dropFirst(prefix.count).prefix { $0 != " " }
        }
        throw ToolError(message: "'\(path)' does not define \(name)")
    }
}

/// `MAJOR.MINOR.PATCH`, digits only, without leading zeros: the versions the host compares.
enum SemanticVersion {
    static func isValid(_ value: String) -> Bool {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 9 && part.utf8.allSatisfy { (48...57).contains($0) } && (part == "0" || part.first != "0")
            }
    }
}
