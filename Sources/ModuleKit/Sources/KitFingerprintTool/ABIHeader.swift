/// Reads `MODHOST_ABI_VERSION` from `modhost_abi.h`, so the header stays the one source of
/// the ABI version for the entry point and the descriptor alike.
enum ABIHeader {
    static func version(in path: String) throws(ToolError) -> UInt32 {
        let text = String(decoding: try readFile(path), as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix("#define MODHOST_ABI_VERSION ") {
            let digits = line.dropFirst("#define MODHOST_ABI_VERSION ".count).prefix { $0.isNumber }
            if let version = UInt32(digits) { return version }
        }
        throw ToolError(message: "'\(path)' does not define MODHOST_ABI_VERSION")
    }
}
