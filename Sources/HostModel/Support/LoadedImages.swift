import CLibraryFile

/// The libraries this process has loaded, as the dynamic linker knows them.
public enum LoadedImages {
    /// The path of every library loaded by a path, in the linker's order (the main program
    /// and the vDSO have none): the paths it opened, not resolved (relative ones are of the
    /// folder that was current then).
    public static var paths: [String] {
        var size = 16_384
        while true {
            // Not zeroed, and read name by name where each ends: a module's process asks this
            // as it makes its sandbox, on the way to the module's start.
            let (needed, found) = withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) { buffer -> (Int, [String]) in
                guard let base = buffer.baseAddress else { return (0, []) }
                let needed = Int(modhost_loaded_image_paths(base, size))
                guard needed <= size else { return (needed, []) }
                var found: [String] = []
                var start = 0
                for index in 0..<needed where base[index] == 0 {
                    if index > start { found.append(String(cString: base + start)) }
                    start = index + 1
                }
                return (needed, found)
            }
            if needed <= size { return found }
            size = needed
        }
    }
}
