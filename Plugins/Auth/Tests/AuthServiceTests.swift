import Contracts
import Foundation
import ModuleKit
import Synchronization
import Testing

@testable import AuthFeature

@MainActor
@Suite struct AuthServiceTests {
    @Test func registerLogsInAndSurvivesAReopen() throws {
        let (service, storage) = try makeService()
        let user = try service.register(email: " Ann@Example.com", name: " Ann ", password: "secret12!", confirmation: "secret12!")
        #expect(user == AuthUser(email: "ann@example.com", name: "Ann"))
        #expect(service.currentUser() == user)
        // Another process (a new store on the same files) sees the same current user.
        let reopened = try AuthStore(storage: storage)
        #expect(try reopened.currentAccount()?.user == user)
        #expect(try reopened.database.schemaVersion() == 1)
    }

    @Test func anEmailRegistersOnce() throws {
        let (service, _) = try makeService()
        _ = try service.register(email: "ann@example.com", name: "Ann", password: "secret12!", confirmation: "secret12!")
        #expect(throws: AuthError.emailTaken) {
            try service.register(email: "ANN@example.com", name: "Other", password: "secret12!", confirmation: "secret12!")
        }
    }

    /// A faster failure for an unknown email would tell which emails have accounts: it must
    /// verify against a decoy hash of the same kind, doing the same work (counted, not timed).
    @Test func anUnknownEmailDoesTheSameHashingWorkAsAWrongPassword() throws {
        let work = WorkCounter()
        let (service, storage) = try makeService(work: work)
        _ = try service.register(email: "ann@example.com", name: "Ann", password: "secret12!", confirmation: "secret12!")
        try service.logOut()
        // The first unknown email also makes the decoy (once per process); measure the next.
        #expect(throws: AuthError.wrongCredentials) { try service.logIn(email: "nobody@example.com", password: "x-secret-1") }
        func workOf(_ body: () throws -> Void) rethrows -> Int {
            let before = work.value
            try body()
            return work.value - before
        }
        let unknown = workOf {
            #expect(throws: AuthError.wrongCredentials) { try service.logIn(email: "bob@example.com", password: "secret12!") }
        }
        let wrong = workOf {
            #expect(throws: AuthError.wrongCredentials) { try service.logIn(email: "ann@example.com", password: "wrong-pass1") }
        }
        #expect(unknown == 1 && wrong == 1, "unknown email \(unknown) hash(es), wrong password \(wrong)")
        // And the decoy is a hash of the same algorithm and cost as a real one.
        let real = try #require(try AuthStore(storage: storage).account(email: "ann@example.com")?.passwordHash)
        let decoy = PasswordHasher(cost: 1).decoyHash()
        #expect(real.split(separator: "$").prefix(2) == decoy.split(separator: "$").prefix(2), "\(real) vs \(decoy)")
    }

    @Test func wrongEmailAndWrongPasswordAreTheSameError() throws {
        let (service, _) = try makeService()
        _ = try service.register(email: "ann@example.com", name: "Ann", password: "secret12!", confirmation: "secret12!")
        try service.logOut()
        #expect(service.currentUser() == nil)
        #expect(throws: AuthError.wrongCredentials) { try service.logIn(email: "bob@example.com", password: "secret12!") }
        #expect(throws: AuthError.wrongCredentials) { try service.logIn(email: "ann@example.com", password: "wrong-pass1") }
        #expect(try service.logIn(email: "ann@example.com", password: "secret12!").name == "Ann")
    }

    @Test func repeatedFailuresAreThrottledUntilTheLockPasses() throws {
        let clock = TestClock()
        let (service, _) = try makeService(clock: clock)
        _ = try service.register(email: "ann@example.com", name: "Ann", password: "secret12!", confirmation: "secret12!")
        for _ in 0..<5 {
            #expect(throws: AuthError.wrongCredentials) { try service.logIn(email: "ann@example.com", password: "guess-123") }
        }
        // Locked now: even the right password is refused, without checking it.
        #expect(throws: AuthError.throttled(seconds: 30)) { try service.logIn(email: "ann@example.com", password: "secret12!") }
        clock.advance(by: 31)
        #expect(try service.logIn(email: "ann@example.com", password: "secret12!").name == "Ann")
        // A success cleared the count: one more failure does not lock.
        #expect(throws: AuthError.wrongCredentials) { try service.logIn(email: "ann@example.com", password: "guess-123") }
        #expect(try service.logIn(email: "ann@example.com", password: "secret12!").name == "Ann")
    }

    @Test func aResetTokenWorksOnceAndOnlyForAnHour() throws {
        let clock = TestClock()
        let (service, storage) = try makeService(clock: clock)
        _ = try service.register(email: "ann@example.com", name: "Ann", password: "secret12!", confirmation: "secret12!")
        try service.requestReset(email: "ann@example.com")
        let token = try #require(try lastToken(in: storage))
        #expect(token.count == 32)
        // Stored only by digest.
        let stored = try AuthStore(storage: storage).database.read { try $0.query("SELECT digest FROM reset_token") }
        let digest = try SHA256.hex(of: Array(token.utf8))
        #expect(stored.first?.string("digest") == digest)
        #expect(try service.confirmReset(token: token, password: "newpass12!", confirmation: "newpass12!").name == "Ann")
        #expect(throws: AuthError.invalidToken) { try service.confirmReset(token: token, password: "again123!", confirmation: "again123!") }
        #expect(try service.logIn(email: "ann@example.com", password: "newpass12!").name == "Ann")
        #expect(throws: AuthError.wrongCredentials) { try service.logIn(email: "ann@example.com", password: "secret12!") }

        try service.requestReset(email: "ann@example.com")
        let late = try #require(try lastToken(in: storage))
        clock.advance(by: 3_601)
        #expect(throws: AuthError.expiredToken) { try service.confirmReset(token: late, password: "later123!", confirmation: "later123!") }
    }

    @Test func tokensAreRandomAndLong() {
        let tokens = Set((0..<100).map { _ in AuthService.newToken() })
        #expect(tokens.count == 100)
        #expect(tokens.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
    }

    @Test func anUnknownEmailGetsNoMessageAndNoError() throws {
        let (service, storage) = try makeService()
        try service.requestReset(email: "nobody@example.com")
        #expect(try String(contentsOfFile: storage.folder + "/outbox.txt", encoding: .utf8).isEmpty)
        #expect(throws: AuthError.invalidToken) {
            try service.confirmReset(token: "0123456789abcdef0123456789abcdef", password: "newpass12!", confirmation: "newpass12!")
        }
        #expect(throws: AuthError.invalidToken) {
            try service.confirmReset(token: "x' OR 1=1 --", password: "newpass12!", confirmation: "newpass12!")
        }
    }

    @Test func changePasswordChecksTheCurrentOne() throws {
        let (service, _) = try makeService()
        #expect(throws: AuthError.notLoggedIn) { try service.changePassword(current: "a", new: "b", confirmation: "b") }
        _ = try service.register(email: "ann@example.com", name: "Ann", password: "secret12!", confirmation: "secret12!")
        #expect(throws: AuthError.wrongCredentials) {
            try service.changePassword(current: "wrong-123", new: "newpass12!", confirmation: "newpass12!")
        }
        #expect(throws: AuthError.passwordMismatch) {
            try service.changePassword(current: "secret12!", new: "newpass12!", confirmation: "newpass13!")
        }
        try service.changePassword(current: "secret12!", new: "newpass12!", confirmation: "newpass12!")
        try service.logOut()
        #expect(try service.logIn(email: "ann@example.com", password: "newpass12!").name == "Ann")
    }

    @Test func observersHearLogInAndLogOut() throws {
        let (service, _) = try makeService()
        let heard = Mutex<[String]>([])
        let id = service.observe { user in heard.withLock { $0.append(user?.name ?? "nobody") } }
        _ = try service.register(email: "ann@example.com", name: "Ann", password: "secret12!", confirmation: "secret12!")
        try service.updateDisplayName("Annie")
        try service.logOut()
        service.stopObserving(id)
        _ = try service.logIn(email: "ann@example.com", password: "secret12!")
        #expect(heard.withLock { $0 } == ["Ann", "Annie", "nobody"])
    }

    @Test func sqlMetacharactersAreJustText() throws {
        let (service, _) = try makeService()
        let name = "Robert'); DROP TABLE user; --"
        _ = try service.register(email: "bobby@example.com", name: name, password: "secret12!", confirmation: "secret12!")
        #expect(service.currentUser()?.name == name)
    }
}
