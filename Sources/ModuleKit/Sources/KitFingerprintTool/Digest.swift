#if canImport(Glibc)
    import Glibc
#endif

/// 64-bit FNV-1a, run twice with different offsets to make a 128-bit digest.
struct Digest {
    private var low: UInt64 = 0xcbf2_9ce4_8422_2325
    private var high: UInt64 = 0x6c62_272e_07bb_0142
    private let prime: UInt64 = 0x0000_0100_0000_01b3

    mutating func add<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes {
            low = (low ^ UInt64(byte)) &* prime
            high = (high ^ UInt64(byte ^ 0x5a)) &* prime
        }
    }

    var hex: String {
        func pad(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return pad(high) + pad(low)
    }

    /// The fingerprint of the kit (or of a contracts library): every source file, in an order and under names that do not
    /// depend on where the checkout is ("ModuleKit/Locator.swift").
    static func of(sources: [String]) throws(ToolError) -> String {
        func stableName(_ path: String) -> String {
            path.split(separator: "/").suffix(2).joined(separator: "/")
        }
        var digest = Digest()
        for path in sources.sorted(by: { stableName($0) < stableName($1) }) {
            digest.add(Array(stableName(path).utf8))
            digest.add(try readFile(path))
        }
        return digest.hex
    }
}

/// A failure of the tool, printed as `KitFingerprintTool: error: …`.
struct ToolError: Error {
    let message: String
}

func readFile(_ path: String) throws(ToolError) -> [UInt8] {
    guard let file = fopen(path, "rb") else { throw ToolError(message: "cannot read '\(path)'") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count <= 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
    }
    return bytes
}

func writeFile(_ path: String, _ text: String) throws(ToolError) {
    guard let output = fopen(path, "wb") else { throw ToolError(message: "cannot write '\(path)'") }
    defer { fclose(output) }
    guard fputs(text, output) >= 0 else { throw ToolError(message: "cannot write '\(path)'") }
}
