import Contracts
import Foundation
import ModuleKit

/// `modhost auth …`: register, login, logout, whoami, reset-password, passwd. Passwords and
/// reset tokens come from a hidden prompt on a TTY or, with `--password-stdin` /
/// `--token-stdin`, from standard input — never from the command line, where `ps` shows them.
struct AuthCommands {
    let service: AuthService
    let context: ModuleContext

    var all: [ModuleCommand] {
        let service = self.service
        let context = self.context
        let strings = context.strings
        return [
            ModuleCommand(
                name: "register", summary: strings[.cmdRegisterSummary], usage: "register --email E --name N [--password-stdin]",
                options: [
                    CommandOption("--email E", strings[.optEmail]), CommandOption("--name N", strings[.optName]),
                    CommandOption("--password-stdin", strings[.optStdin2]),
                ],
                example: "modhost auth register --email ann@example.com --name Ann"
            ) {
                let arguments = try CommandArguments($0.arguments, options: ["--email", "--name"], flags: ["--password-stdin"])
                let (email, name) = (try arguments.required("--email"), try arguments.required("--name"))
                let reader = try SecretReader(context: context, fromStandardInput: arguments.has("--password-stdin"))
                let password = try reader.read(.fieldPassword)
                let confirmation = try reader.read(.fieldConfirmation)
                let user = try service.register(email: email, name: name, password: password, confirmation: confirmation)
                context.ui.print(strings.format(.registerSuccess, user.name))
            },
            ModuleCommand(
                name: "login", summary: strings[.cmdLoginSummary], usage: "login --email E [--password-stdin]",
                options: [CommandOption("--email E", strings[.optEmail]), CommandOption("--password-stdin", strings[.optStdin1])],
                example: "modhost auth login --email ann@example.com"
            ) {
                let arguments = try CommandArguments($0.arguments, options: ["--email"], flags: ["--password-stdin"])
                let email = try arguments.required("--email")
                let password = try SecretReader(context: context, fromStandardInput: arguments.has("--password-stdin")).read(
                    .fieldPassword)
                let user = try service.logIn(email: email, password: password)
                context.ui.print(strings.format(.loginSuccess, user.name))
            },
            ModuleCommand(
                name: "logout", summary: strings[.cmdLogoutSummary], usage: "logout",
                example: "modhost auth logout"
            ) {
                _ = try CommandArguments($0.arguments, options: [], flags: [])
                guard service.currentUser() != nil else {
                    context.ui.print(strings[.logoutNobody])
                    return
                }
                try service.logOut()
                context.ui.print(strings[.logoutDone])
            },
            ModuleCommand(
                name: "whoami", summary: strings[.cmdWhoamiSummary], usage: "whoami [--json]",
                options: [CommandOption("--json", strings[.optJson])],
                example: "modhost auth whoami --json"
            ) {
                let arguments = try CommandArguments($0.arguments, options: [], flags: ["--json"])
                guard let user = service.currentUser() else {
                    throw CommandFailure(strings[.whoamiNobody])
                }
                if arguments.has("--json") {
                    context.ui.print(JSONOutput.document("user", user))
                } else {
                    context.ui.print("\(user.name) <\(user.email)>")
                }
            },
            ModuleCommand(
                name: "reset-password", summary: strings[.cmdResetSummary],
                usage: "reset-password --email E | [--token-stdin] [--password-stdin]",
                options: [
                    CommandOption("--email E", strings[.optResetemail]), CommandOption("--token-stdin", strings[.optToken]),
                    CommandOption("--password-stdin", strings[.optStdin2]),
                ],
                example: "modhost auth reset-password --email ann@example.com"
            ) {
                let arguments = try CommandArguments(
                    $0.arguments, options: ["--email", "--token"], flags: ["--token-stdin", "--password-stdin"])
                // Accepted as an option only to be refused: anything on a command line is
                // visible to every user of the machine in `ps`.
                guard arguments.values["--token"] == nil else { throw CommandUsageError(strings[.errorTokenOption]) }
                if let email = arguments.values["--email"] {
                    guard !arguments.has("--token-stdin") else {
                        throw CommandUsageError(strings[.usageResetBoth])
                    }
                    try service.requestReset(email: email)
                    context.ui.print(strings.format(.resetRequested, CredentialsPolicy.normalizedEmail(email), service.outbox.path))
                    return
                }
                let token = try SecretReader(
                    context: context, fromStandardInput: arguments.has("--token-stdin"), needsTerminal: .errorNeedsTerminalToken
                ).read(.fieldToken)
                let reader = try SecretReader(context: context, fromStandardInput: arguments.has("--password-stdin"))
                let password = try reader.read(.fieldNewPassword)
                let confirmation = try reader.read(.fieldConfirmation)
                _ = try service.confirmReset(token: token, password: password, confirmation: confirmation)
                context.ui.print(strings[.resetDone])
            },
            ModuleCommand(
                name: "passwd", summary: strings[.cmdPasswdSummary], usage: "passwd [--password-stdin]",
                options: [CommandOption("--password-stdin", strings[.optStdin3])],
                example: "modhost auth passwd"
            ) {
                let arguments = try CommandArguments($0.arguments, options: [], flags: ["--password-stdin"])
                let reader = try SecretReader(context: context, fromStandardInput: arguments.has("--password-stdin"))
                let current = try reader.read(.fieldCurrentPassword)
                let new = try reader.read(.fieldNewPassword)
                let confirmation = try reader.read(.fieldConfirmation)
                try service.changePassword(current: current, new: new, confirmation: confirmation)
                context.ui.print(strings[.passwdDone])
            },
        ]
    }
}

/// Reads secrets (passwords, a reset token) for a command: hidden on a TTY, or one per line
/// from standard input — never from the command line.
@MainActor
struct SecretReader {
    let context: ModuleContext
    let fromStandardInput: Bool

    init(context: ModuleContext, fromStandardInput: Bool, needsTerminal: StringKey = .errorNeedsTerminal) throws(CommandUsageError) {
        guard fromStandardInput || context.ui.terminal.isInteractive else {
            throw CommandUsageError(context.strings[needsTerminal])
        }
        self.context = context
        self.fromStandardInput = fromStandardInput
    }

    func read(_ label: StringKey) throws -> String {
        let line = fromStandardInput ? context.ui.terminal.readLine() : context.ui.ask(context.strings[label], secret: true)
        guard let line else { throw CommandFailure(context.strings.format(.errorMissing, context.strings[label])) }
        return line
    }
}

/// Auth's refusals reach a person in their language through the host.
extension AuthError: ModuleError {}
