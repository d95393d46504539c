#if canImport(Glibc)
    import Glibc
#endif

/// A failure of the tool, printed as `KitBuildTool: error: …`.
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
