import Contracts
import FoundationEssentials
import ModuleKit

/// Auth's public face (`AuthRoute`): answers who is logged in and presents Auth's screens on
/// the app's navigator for other modules and for the shell.
@MainActor
final class AuthRouter: AuthRoute {
    let service: AuthService
    let context: ModuleContext

    nonisolated init(service: AuthService, context: ModuleContext) {
        self.service = service
        self.context = context
    }

    var currentUser: AuthUser? { service.currentUser() }

    func observe(_ observer: @escaping @MainActor (AuthUser?) -> Void) -> any AuthObservation {
        Observation(service: service, id: service.observe(observer))
    }

    func presentLogIn(completion: @escaping @MainActor (AuthUser?) -> Void) {
        context.navigator.present(AccountFormScreen.logIn(service: service, strings: context.strings, completion: completion))
    }

    func presentRegistration(completion: @escaping @MainActor (AuthUser?) -> Void) {
        context.navigator.present(AccountFormScreen.register(service: service, strings: context.strings, completion: completion))
    }

    func presentPasswordReset() {
        context.navigator.present(ResetPasswordScreen(service: service, strings: context.strings))
    }

    func logOut() throws { try service.logOut() }

    func updateDisplayName(_ name: String) throws { try service.updateDisplayName(name) }

    func changePassword(current: String, new: String) throws {
        try service.changePassword(current: current, new: new, confirmation: new)
    }

    final class Observation: AuthObservation {
        let service: AuthService
        let id: Int

        init(service: AuthService, id: Int) {
            self.service = service
            self.id = id
        }

        func cancel() { service.stopObserving(id) }

        deinit { service.stopObserving(id) }
    }
}
