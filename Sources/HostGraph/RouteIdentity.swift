import HostModel
import ModuleKit

/// Finds routes that exist under two identities in the process: one protocol name, two type
/// metadata. That happens when a route is declared in a plain (static) target that two module
/// libraries link: each carries its own copy, and a registration under one is invisible to a
/// lookup under the other. Without this check the consumer would fail later, with the false
/// reason that no module provides the route.
package enum RouteIdentity {
    /// A loaded module's declared routes and library, as the check needs them.
    package struct Declarer {
        package let name: String
        let library: String
        let provides: [RouteKey]
        let declared: [RouteKey]

        package init(name: String, library: String, provides: [RouteKey], declared: [RouteKey]) {
            self.name = name
            self.library = library
            self.provides = provides
            self.declared = declared
        }
    }

    /// For each module that declares a route under another identity than its provider's (or
    /// the host's), the reason it must not start. Providers are taken in `modules` order, the
    /// first one winning as in the plan.
    package static func conflicts(among modules: [Declarer], hostRoutes: [RouteKey], hostName: String) -> [String: HostText] {
        var providers: [String: (key: RouteKey, module: String, library: String?)] = [:]
        for key in hostRoutes { providers[key.name] = (key, hostName, nil) }
        for module in modules {
            for key in module.provides where providers[key.name] == nil {
                providers[key.name] = (key, module.name, module.library)
            }
        }
        var reasons: [String: HostText] = [:]
        for module in modules {
            for key in module.declared {
                guard let provider = providers[key.name], provider.key.id != key.id else { continue }
                reasons[module.name] = reason(
                    route: key.name, library: module.library, provider: provider.module, providerLibrary: provider.library)
                break
            }
        }
        return reasons
    }

    private static func reason(route: String, library: String, provider: String, providerLibrary: String?) -> HostText {
        let mine = HostText.Argument.plain(fileName(library))
        guard let providerLibrary else {
            return HostText(
                "route.identity.host",
                "route '%@' is declared by the host, but %@ carries its own copy of the protocol; "
                    + "link Contracts from the ModuleKit package (a dynamic product) instead of copying it, and rebuild %@",
                [.plain(route), mine, mine])
        }
        return HostText(
            "route.identity.two",
            "route '%@' has two identities in this process: %@ and %@ (from '%@') "
                + "each carry their own copy of the protocol (its contracts target is linked statically into both); "
                + "move '%@' into a package whose library product is '%@', depend on that product from both modules, and rebuild both",
            [.plain(route), mine, .plain(fileName(providerLibrary)), .plain(provider), .plain(route), .plain("type: .dynamic")])
    }

    private static func fileName(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}
