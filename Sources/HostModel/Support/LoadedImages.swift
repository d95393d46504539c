import CLibraryFile

/// The libraries this process has loaded, as the dynamic linker knows them.
public enum LoadedImages {
    /// The path of every library loaded by a path, in the linker's order (the main program
    /// and the vDSO have none): the paths it opened, not resolved (relative ones are of the
    /// folder that was current then).
    public static var paths: [String] {
        var size = 16_384
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let needed = modhost_loaded_image_paths(&buffer, size)
            guard needed > size else {
                return buffer.prefix(needed).split(separator: 0).map { String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            }
            size = needed
        }
    }
}
