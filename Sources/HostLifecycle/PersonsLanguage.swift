import HostIsolation
@_spi(Host) import ModuleKit
import Synchronization

/// The person's language across the link to a module's process. The host tells the process
/// before its calls (``IsolatedModule/tellLanguage(on:)``); a process where Settings runs tells
/// the host, before its own calls there, a language the person chose in it, so that what the
/// host shows in that call (another module's setting) and after it is in that language, as it
/// is when Settings runs in the host's process.
struct PersonsLanguage: RouteDispatching {
    let locale: LocaleSetting

    func dispatch(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? {
        guard member == "set" else { return nil }
        locale.set(try call.value(0, as: String.self))
        return .void
    }

    @MainActor func dispatchOnMainActor(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? { nil }
}

/// The module's process side: the language the host last said or was told, and the telling.
package final class ParentLanguage: Sendable {
    private let locale: LocaleSetting
    private let known: Mutex<String>

    package init(locale: LocaleSetting) {
        self.locale = locale
        known = Mutex(locale.current)
    }

    /// The host said `code` (the process takes it).
    package func heard(_ code: String) {
        known.withLock { $0 = code }
        locale.set(code)
    }

    /// Tells the host over `link` the language chosen here since it last said or was told one.
    func tellHost(on link: RouteLink) {
        let code = locale.current
        guard known.withLock({ $0 != code }) else { return }
        var arguments = RouteArguments()
        arguments.value(code)
        guard (try? RemoteObject.route(IsolatedModule.language, on: link).call("set", arguments)) != nil else { return }
        known.withLock { $0 = code }
    }
}
