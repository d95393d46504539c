import Contracts
import FoundationEssentials
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
        let option = AuthOptions(strings)
        return [
            ModuleCommand(
                name: "register", summary: strings[.cmdRegisterSummary], options: [option.email, option.name, option.passwordStdinTwice],
                example: "modhost auth register --email ann@example.com --name Ann"
            ) {
                let arguments = try CommandArguments($0.arguments, options: [option.email, option.name, option.passwordStdinTwice])
                let (email, name) = (try arguments.required(option.email), try arguments.required(option.name))
                let reader = try SecretReader(context: context, fromStandardInput: arguments.has(option.passwordStdinTwice))
                let password = try reader.read(.fieldPassword)
                let confirmation = try reader.read(.fieldConfirmation)
                let user = try service.register(email: email, name: name, password: password, confirmation: confirmation)
                context.ui.print(strings.sentence(.registerSuccess, name: user.name))
            },
            ModuleCommand(
                name: "login", summary: strings[.cmdLoginSummary], options: [option.email, option.passwordStdin],
                example: "modhost auth login --email ann@example.com"
            ) {
                let arguments = try CommandArguments($0.arguments, options: [option.email, option.passwordStdin])
                let email = try arguments.required(option.email)
                let password = try SecretReader(context: context, fromStandardInput: arguments.has(option.passwordStdin)).read(
                    .fieldPassword)
                let user = try service.logIn(email: email, password: password)
                context.ui.print(strings.sentence(.loginSuccess, name: user.name))
            },
            ModuleCommand(name: "logout", summary: strings[.cmdLogoutSummary], options: [], example: "modhost auth logout") {
                _ = try CommandArguments($0.arguments, options: [])
                guard service.currentUser() != nil else {
                    context.ui.print(strings[.logoutNobody])
                    return
                }
                try service.logOut()
                context.ui.print(strings[.logoutDone])
            },
            ModuleCommand(
                name: "whoami", summary: strings[.cmdWhoamiSummary], options: [option.json], example: "modhost auth whoami --json"
            ) {
                let arguments = try CommandArguments($0.arguments, options: [option.json])
                guard let user = service.currentUser() else {
                    // An empty answer is a document too, for a script that reads it (exit 1).
                    if arguments.has(option.json) { context.ui.print(JSONOutput.document("user", String?.none)) }
                    throw CommandFailure(strings[.whoamiNobody])
                }
                if arguments.has(option.json) {
                    context.ui.print(JSONOutput.document("user", user))
                } else {
                    context.ui.print("\(user.name) <\(user.email)>")
                }
            },
            // Its usage is written out: it has two forms, which a list of options cannot show.
            ModuleCommand(
                name: "reset-password", summary: strings[.cmdResetSummary],
                usage: "reset-password \(option.resetEmail.usage) | [\(option.tokenStdin.usage)] [\(option.passwordStdinTwice.usage)]",
                options: [option.resetEmail, option.tokenStdin, option.passwordStdinTwice],
                example: "modhost auth reset-password --email ann@example.com"
            ) {
                let arguments = try CommandArguments(
                    $0.arguments, options: [option.resetEmail, option.tokenStdin, option.passwordStdinTwice, option.refusedToken])
                // Accepted as an option only to be refused: anything on a command line is
                // visible to every user of the machine in `ps`.
                guard arguments.value(option.refusedToken) == nil else { throw CommandUsageError(strings[.errorTokenOption]) }
                if let email = arguments.value(option.resetEmail) {
                    guard !arguments.has(option.tokenStdin) else {
                        throw CommandUsageError(strings[.usageResetBoth])
                    }
                    try service.requestReset(email: email)
                    context.ui.print(strings.format(.resetRequested, CredentialsPolicy.normalizedEmail(email), service.outbox.path))
                    return
                }
                let token = try SecretReader(
                    context: context, fromStandardInput: arguments.has(option.tokenStdin), needsTerminal: .errorNeedsTerminalToken
                ).read(.fieldToken)
                let reader = try SecretReader(context: context, fromStandardInput: arguments.has(option.passwordStdinTwice))
                let password = try reader.read(.fieldNewPassword)
                let confirmation = try reader.read(.fieldConfirmation)
                _ = try service.confirmReset(token: token, password: password, confirmation: confirmation)
                context.ui.print(strings[.resetDone])
            },
            ModuleCommand(
                name: "passwd", summary: strings[.cmdPasswdSummary], options: [option.passwordStdinThrice], example: "modhost auth passwd"
            ) {
                let arguments = try CommandArguments($0.arguments, options: [option.passwordStdinThrice])
                let reader = try SecretReader(context: context, fromStandardInput: arguments.has(option.passwordStdinThrice))
                let current = try reader.read(.fieldCurrentPassword)
                let new = try reader.read(.fieldNewPassword)
                let confirmation = try reader.read(.fieldConfirmation)
                try service.changePassword(current: current, new: new, confirmation: confirmation)
                context.ui.print(strings[.passwdDone])
            },
        ]
    }
}

/// Auth's command options, each declared once: a command's usage, its help and its parser all
/// read these. `--password-stdin` reads one, two or three lines, as its summary says.
struct AuthOptions {
    let email, name, json, resetEmail, tokenStdin: CommandOption
    let passwordStdin, passwordStdinTwice, passwordStdinThrice: CommandOption
    /// `--token T`, parsed only to be refused with the reason (see reset-password).
    let refusedToken: CommandOption

    init(_ strings: ModuleStrings) {
        email = .required("--email E", strings[.optEmail])
        name = .required("--name N", strings[.optName])
        json = CommandOption("--json", strings[.optJson])
        resetEmail = CommandOption(email.usage, strings[.optResetemail])
        tokenStdin = CommandOption("--token-stdin", strings[.optToken])
        passwordStdin = CommandOption("--password-stdin", strings[.optStdin1])
        passwordStdinTwice = CommandOption(passwordStdin.usage, strings[.optStdin2])
        passwordStdinThrice = CommandOption(passwordStdin.usage, strings[.optStdin3])
        refusedToken = CommandOption("--token T", "")
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
