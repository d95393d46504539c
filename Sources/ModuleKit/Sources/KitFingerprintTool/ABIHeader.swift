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
        return String(value.dropFirst().dropLast())
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
