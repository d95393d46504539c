/// A module's name as `modules.json`, the command line and a library write it, compared
/// without regard to case: "Geo", "geo" and "GEO" name one module (two entries may not differ
/// only in case). Where names are compared, they are compared as this; where one is shown, its
/// spelling is.
package struct ModuleName: Hashable, Sendable, CustomStringConvertible {
    /// As written.
    let spelling: String
    /// What equality and hashing read: the spelling in lower case.
    let key: String

    package init(_ spelling: String) {
        self.spelling = spelling
        key = spelling.lowercased()
    }

    package static func == (left: ModuleName, right: ModuleName) -> Bool { left.key == right.key }

    package func hash(into hasher: inout Hasher) { hasher.combine(key) }

    package var description: String { spelling }

    /// How a command line names the module: `modhost geo list`.
    package var commandWord: String { key }
}

extension Array where Element == String {
    /// Whether one of these names names `name` (without regard to case).
    ///
    /// On `Array`, not `Sequence`: an unspecialised generic here costs the runtime a scan of
    /// every conformance record at each first call after a module library is opened.
    package func containsModule(_ name: String) -> Bool {
        let wanted = ModuleName(name)
        for candidate in self where ModuleName(candidate) == wanted { return true }
        return false
    }
}
