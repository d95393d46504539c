import Foundation
import ModuleKit

extension ModuleContext {
    /// A context for tests: a quiet logger, storage in a new temporary folder, no strings, and
    /// a scripted terminal with `input`.
    public static func testing(
        moduleName: String, resolver: ModuleResolver, input: [String] = [], environment: HostEnvironment = .test
    ) -> ModuleContext {
        let locale = LocaleSetting(environment: [:])
        let terminal = ScriptedTerminal(lines: input)
        return ModuleContext(
            moduleName: moduleName, environment: environment, logger: Logger(label: moduleName, minimumLevel: .critical),
            resolver: resolver,
            storage: ModuleStorage(dataFolder: NSTemporaryDirectory() + "modhost-context-" + UUID().uuidString, module: moduleName),
            strings: .none(locale: locale), locale: locale,
            navigator: Navigator(ui: TerminalUI(terminal: terminal, labels: { $0.rawValue })))
    }
}
