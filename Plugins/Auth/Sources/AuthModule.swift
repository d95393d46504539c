import Contracts
import ModuleKit

/// Auth: accounts, log in and out, password reset, and `AuthRoute` for the shell
/// and other modules.
public final class AuthModule: Module {
    // Name, version, routes and resource folders: generated from module.manifest by the build.

    private var service: AuthService?

    public init() {}

    public func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {
        let context = registry.context
        let service = AuthService(
            store: try AuthStore(storage: context.storage), hasher: .standard, outbox: try ResetOutbox(storage: context.storage),
            resetMessage: ResetMessage.wording(context.strings))
        self.service = service
        try registry.route((any AuthRoute).self, .singleton(AuthRouter(service: service, context: context)))
        try registry.service(AuthService.self, .singleton(service))
    }

    public func commands(_ context: ModuleContext) -> [ModuleCommand] {
        guard let service else { return [] }
        return AuthCommands(service: service, context: context).all
    }
}
