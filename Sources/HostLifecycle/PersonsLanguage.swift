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

    /// The host said `code`: the process takes it, unless a choice made here is on its way to
    /// the host (the host then takes that one, as the later).
    package func heard(_ code: String) {
        known.withLock { known in
            guard locale.current == known, locale.set(code) else { return }
            known = code
        }
    }

    /// Tells the host over `link` the language chosen here since it last said or was told one.
    func tellHost(on link: RouteLink) {
        guard let code = known.withLock({ known in locale.current == known ? nil : locale.current }) else { return }
        var arguments = RouteArguments()
        arguments.value(code)
        // Told once: a host that does not take it (the module does not choose the person's
        // language) is not asked again at every call.
        _ = try? RemoteObject.route(IsolatedModule.language, on: link).call("set", arguments)
        known.withLock { $0 = code }
    }
}
