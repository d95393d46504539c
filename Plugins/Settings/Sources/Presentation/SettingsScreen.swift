import Contracts
import ModuleKit

/// The settings screen in sections: a profile header; My Profile; the language; each module's
/// settings; About, Check (what `modhost check` says), Help; Log Out with Continue/Cancel.
/// Without Auth (or nobody logged in) the profile and log out are absent.
final class SettingsScreen: Screen {
    let service: SettingsService
    let context: ModuleContext

    /// Settings in the language in force, for the breadcrumb of the screens above.
    var title: String? { context.strings[.title] }

    init(service: SettingsService, context: ModuleContext) {
        self.service = service
        self.context = context
    }

    func show(_ ui: TerminalUI) -> Navigation {
        let strings = context.strings
        let auth = context.resolver.ifAvailable((any AuthRoute).self)
        let user = auth?.currentUser
        // The profile is 1 and 2 (absent, not renumbered, when nobody is logged in), the
        // language 3, each module's settings from ten times its place in modules.json; About,
        // Help and Log Out are letters, so none of them moves.
        var actions: [(number: Int, title: String, run: () -> Navigation)] = []
        if let auth, user != nil {
            actions.append((1, strings[.profileName], { self.editName(auth, ui) }))
            actions.append((2, strings[.profilePassword], { self.changePassword(auth, ui) }))
        }
        // Each module's name in the current language, as the host has it from the module, and
        // its place in modules.json: a module's settings are numbered from ten times that place
        // (Photos second: 21, 22, …), so none moves when another module is turned off.
        let host = context.resolver.ifAvailable((any HostInfoRoute).self)
        let modules = host?.modules ?? []
        let titles = Dictionary(modules.map { ($0.name, $0.title) }) { first, _ in first }
        let places = Dictionary(modules.enumerated().map { ($1.name, $0 + 1) }) { first, _ in first }
        for section in service.registry.all {
            let own = section.module == SettingsService.module
            var number = own ? 3 : (places[section.module] ?? modules.count + 1) * 10 + 1
            for definition in section.definitions {
                let name = SettingName(module: section.module, key: definition.key)
                var value = service.value(of: name) ?? definition.defaultValue
                // The language this run speaks: the environment may name another one than the
                // one saved (LANG=el_GR shows Greek, so the line says Ελληνικά, not English).
                if name == SettingsService.language.name && ModuleStrings.shippedLocales.contains(context.locale.current) {
                    value = .text(context.locale.current)
                }
                var shown = display(SettingsRegistry.text(value), of: definition, in: section.module)
                if let unfit = service.unfitStoredValue(of: name) {
                    shown = strings.format(.settingUnfit, shown, SettingsRegistry.text(unfit))
                }
                let module = titles[section.module] ?? section.module
                let label = own ? definition.title() : strings.format(.settingLine, module, definition.title())
                let line = strings.format(.settingLine, label, shown.isEmpty ? "-" : shown)
                actions.append((number, line, { self.edit(section.module, definition, ui) }))
                number += 1
            }
        }
        actions.sort { $0.number < $1.number }
        var shortcuts = [
            MenuShortcut(key: "a", label: strings[.about]), MenuShortcut(key: "c", label: strings[.check]),
            MenuShortcut(key: "h", label: strings[.help]),
        ]
        if user != nil { shortcuts.append(MenuShortcut(key: "l", label: strings[.logOut])) }
        let profile = user.map { ["\($0.name) <\($0.email)>"] } ?? []
        switch ui.menu(strings[.title], actions.map(\.title), details: profile, numbers: actions.map(\.number), shortcuts: shortcuts) {
        case .item(let index): return actions[index].run()
        case .shortcut("a"): return about(ui)
        case .shortcut("c"): return check(ui)
        case .shortcut("h"): return help(ui)
        case .shortcut(_):
            guard let auth else { return .stay }
            return logOut(auth, ui)
        case .back: return .pop
        case .quit: return .quit
        @unknown default: return .stay
        }
    }

    /// A setting's value as the person reads it: on and off in the current language, a choice
    /// as its module names it (a language by its name, a country code as the country).
    private func display(_ value: String, of definition: SettingDefinition, in module: String) -> String {
        if case .toggle = definition.kind { return value == "on" ? context.strings[.valueOn] : context.strings[.valueOff] }
        return definition.display(value)
    }

    /// A choice among at most this many is a menu; a longer one (countries) is typed.
    static let longestMenu = 12

    private func edit(_ module: String, _ definition: SettingDefinition, _ ui: TerminalUI) -> Navigation {
        let strings = context.strings
        let choices: [String]?
        switch definition.kind {
        case .choice(let options) where options.count <= Self.longestMenu: choices = options
        case .toggle: choices = ["on", "off"]
        default: choices = nil
        }
        let text: String
        if let choices {
            switch ui.menu(definition.title(), choices.map { display($0, of: definition, in: module) }) {
            case .item(let index): text = choices[index]
            case .shortcut, .back: return .stay
            case .quit: return .quit
            @unknown default: return .stay
            }
        } else {
            // The field shows its value, its default and its rule; a refused value is told and
            // asked again, until it is saved or the person leaves it empty.
            let prompt = strings.format(.newValueDetails, definition.title(), details(of: definition, in: module))
            while true {
                guard let answer = ui.ask(prompt) else { return .quit }
                guard !answer.trimmingSpaces().isEmpty else {
                    ui.notice(strings[.unchanged])
                    return .stay
                }
                do throws(SettingsError) {
                    _ = try service.set(SettingName(module: module, key: definition.key), to: answer)
                    ui.success(strings.format(.savedValue, definition.title(), display(answer, of: definition, in: module)))
                    return .stay
                } catch {
                    ui.error(error.message(strings))
                }
            }
        }
        do throws(SettingsError) {
            _ = try service.set(SettingName(module: module, key: definition.key), to: text)
            ui.success(strings.format(.savedValue, definition.title(), display(text, of: definition, in: module)))
        } catch {
            ui.error(error.message(strings))
        }
        return .stay
    }

    /// "now 20, default 20, 3 to 200": what a typed setting's question shows.
    private func details(of definition: SettingDefinition, in module: String) -> String {
        let strings = context.strings
        let current = service.value(of: SettingName(module: module, key: definition.key)) ?? definition.defaultValue
        let shown = { (value: SettingValue) -> String in
            let text = self.display(SettingsRegistry.text(value), of: definition, in: module)
            return text.isEmpty ? "-" : text
        }
        var parts = [strings.format(.valueNow, shown(current)), strings.format(.valueDefault, shown(definition.defaultValue))]
        switch definition.kind {
        case .number(let range): parts.append(strings.format(.ruleRange, "\(range.lowerBound)", "\(range.upperBound)"))
        case .text(let maxLength): parts.append(strings.format(.ruleLength, "\(maxLength)"))
        default: break
        }
        return parts.joined(separator: ", ")
    }

    private func editName(_ auth: any AuthRoute, _ ui: TerminalUI) -> Navigation {
        let strings = context.strings
        let prompt = auth.currentUser.map { strings.format(.fieldNameNow, $0.name) } ?? strings[.fieldName]
        guard let name = ui.ask(prompt) else { return .quit }
        guard !name.trimmingSpaces().isEmpty else {
            ui.notice(strings[.unchanged])
            return .stay
        }
        do {
            try auth.updateDisplayName(name)
            ui.success(strings[.saved])
        } catch {
            ui.error(strings.format(.errorFailed, "\(error)"))
        }
        return .stay
    }

    private func changePassword(_ auth: any AuthRoute, _ ui: TerminalUI) -> Navigation {
        guard let current = ui.ask(context.strings[.fieldCurrent], secret: true) else { return .quit }
        guard !current.isEmpty else { return .stay }
        guard let new = ui.ask(context.strings[.fieldNew], secret: true) else { return .quit }
        guard !new.isEmpty else { return .stay }
        do {
            try auth.changePassword(current: current, new: new)
            ui.success(context.strings[.saved])
        } catch {
            ui.error(context.strings.format(.errorFailed, "\(error)"))
        }
        return .stay
    }

    /// A module's state in the person's language.
    private static func word(of state: ModuleState) -> StringKey {
        switch state {
        case .active: .stateActive
        case .disabled: .stateDisabled
        case .failed: .stateFailed
        case .skipped: .stateSkipped
        // A state of a later host: its failure word, until this module knows it.
        @unknown default: .stateFailed
        }
    }

    private func about(_ ui: TerminalUI) -> Navigation {
        let strings = context.strings
        guard let host = try? context.resolver.resolve((any HostInfoRoute).self) else { return .stay }
        ui.title(strings[.about])
        ui.print(strings.format(.aboutHost, host.hostVersion))
        ui.print(strings.format(.aboutEnvironment, strings[StringKey("environment." + host.environment)]))
        ui.print(strings.format(.aboutData, host.dataFolder))
        ui.print(strings[.aboutModules])
        for module in host.modules {
            let state = strings[Self.word(of: module.moduleState)]
            // No version when it is not known; a reason that says the state already stands alone.
            let version = module.version.map { " " + $0 } ?? ""
            let word = module.moduleState.rawValue
            let reason = module.reason.map { $0.lowercased().hasPrefix(word) ? " — " + $0 : " — \(state): \($0)" }
            // The name the commands use ('modhost geo …'), its title for people beside it.
            let name = module.title == module.name ? module.name : "\(module.name) (\(module.title))"
            ui.print("  \(name)\(version)" + (reason ?? " — \(state)"))
        }
        return .stay
    }

    /// What `modhost check` says now, run by the host (in child processes) for this run's
    /// options: every problem of the file and the modules, in a pager when it is long.
    private func check(_ ui: TerminalUI) -> Navigation {
        let strings = context.strings
        ui.title(strings[.check])
        guard let host = try? context.resolver.resolve((any HostInfoRoute).self), let lines = host.check() else {
            ui.print(strings[.checkUnavailable])
            return .stay
        }
        ui.print(strings[.checkIntro])
        for line in lines { ui.print("  " + line) }
        return .stay
    }

    private func help(_ ui: TerminalUI) -> Navigation {
        let strings = context.strings
        ui.title(strings[.help])
        ui.print(strings[.helpReadme])
        ui.print(strings[.helpCommands])
        for line in (try? context.resolver.resolve((any HostInfoRoute).self))?.commands ?? [] { ui.print("  " + line) }
        return .stay
    }

    private func logOut(_ auth: any AuthRoute, _ ui: TerminalUI) -> Navigation {
        let strings = context.strings
        let confirmed = ui.confirm(strings[.logOutTitle], strings[.logOutMessage]) {
            do {
                try auth.logOut()
                ui.success(strings[.loggedOut])
            } catch {
                ui.error(strings.format(.errorFailed, "\(error)"))
            }
        }
        if !confirmed { ui.notice(strings[.stillLoggedIn]) }
        return .stay
    }
}
