import Contracts
import Foundation
import ModuleKit
import ModuleKitTesting
import Synchronization

@testable import AuthFeature

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let seconds = Mutex<TimeInterval>(1_800_000_000)
    var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
    func advance(by interval: TimeInterval) { seconds.withLock { $0 += interval } }
}

/// An AuthService on a fresh data folder, with a cheap hash cost (the outcome of a test does
/// not depend on the cost, only its speed does).
func makeService(clock: TestClock = TestClock(), locale: String = "en", work: WorkCounter? = nil) throws -> (AuthService, ModuleStorage) {
    let storage = ModuleStorage(dataFolder: NSTemporaryDirectory() + "auth-tests-" + UUID().uuidString, module: "Auth")
    let service = AuthService(
        store: try AuthStore(storage: storage), hasher: PasswordHasher(cost: 1, counting: work), outbox: try ResetOutbox(storage: storage),
        resetMessage: ResetMessage.wording(try authStrings(locale: locale)), clock: { clock.now })
    return (service, storage)
}

/// Auth's shipped strings in `locale`, from beside the test executable (as the harness finds them).
func authStrings(locale: String = "en") throws -> ModuleStrings {
    let harness = ModuleTestHarness(AuthModule.self)
    harness.locale.set(locale)
    return try harness.loadStrings()
}

/// The token in the newest message of the outbox.
func lastToken(in storage: ModuleStorage) throws -> String? {
    let text = try String(contentsOfFile: storage.folder + "/outbox.txt", encoding: .utf8)
    return text.split(separator: "\n").last { $0.contains("token is: ") }.map { String($0.split(separator: " ").last ?? "") }
}
