import CLibraryFile
import HostModel
@_spi(Host) import ModuleKit

/// A symbol the dynamic linker could not find while it loaded a module library: read from its
/// message ("…: undefined symbol: $s9ModuleKit…") and told in Swift's own words.
///
/// Within an SDK major every release keeps what the one before had (`Scripts/check-sdk.sh`
/// holds releases to it), so a module that needs a kit symbol this host lacks was built
/// against a kit that is not a release of this host's SDK: a modified copy, or a build
/// between releases that added to the kit without a new version.
package struct MissingSymbol: Equatable {
    /// The symbol as the linker named it.
    let mangled: String
    /// Its Swift declaration ("ModuleKit.Screen.refresh() -> ()"), or the symbol itself when it
    /// is not a Swift one.
    let readable: String

    /// The missing symbol in a `dlopen` error, or `nil` when the error is about something else.
    init?(dynamicLinkerMessage message: String) {
        guard let marker = message.firstRange(of: "undefined symbol: ") else { return nil }
        let symbol = String(message[marker.upperBound...].prefix { $0 != "," && $0 != " " && $0 != "\n" })
        guard !symbol.isEmpty else { return nil }
        mangled = symbol
        var buffer = [CChar](repeating: 0, count: 1024)
        if modhost_demangle(symbol, &buffer, buffer.count) == 1 {
            readable = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        } else {
            readable = symbol
        }
    }

    /// The Swift module that declares it ("ModuleKit"), when the readable form names one.
    var module: String? {
        guard readable != mangled else { return nil }
        // Past any leading qualifiers ("static ", "type metadata accessor for ", …) the first
        // dotted word is the module.
        let words = readable.split(separator: " ")
        for word in words where word.contains(".") {
            let name = word.prefix { $0 != "." && $0 != "(" && $0 != "<" }
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { return String(name) }
        }
        return nil
    }

    /// Why the library cannot load, with the fix. `rebuild` says how to rebuild the module.
    func reason(rebuild: HostText, kitFolder: String = KitLocation.builtKitFolder) -> HostText {
        let shown = Escaped(String(readable.prefix(300))).description
        if let module, ["ModuleKit", "Contracts"].contains(module) {
            return HostText(
                "load.symbol.kit",
                "needs '%@' from %@, which this host's kit (SDK %@) does not have: the module was built against a kit that is not a release of SDK %@ (a changed copy, or a build that added to the kit without a new version); rebuild it against this host's kit, '%@'%@",
                [
                    .plain(shown), .plain(module), .plain(ModuleKitABI.sdkVersion), .plain(ModuleKitABI.sdkVersion),
                    .plain("\(EscapedPath(kitFolder))"), .text(rebuild),
                ])
        }
        return HostText(
            "load.symbol.other",
            "needs '%@', which no library in this process has: ship it with the libraries it was built with (a contracts library of the same version, say)%@",
            [.plain(shown), .text(rebuild)])
    }
}
