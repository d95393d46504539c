#if canImport(Glibc)
    import Glibc
#endif

/// Standard error, written with one `write(2)` per message so lines from threads do not mix,
/// its control characters shown as `?` (``TerminalText``).
public enum StandardError {
    @Sendable
    public static func write(_ text: String) {
        var bytes = Array(TerminalText.visible(text).utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(2, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }
}
