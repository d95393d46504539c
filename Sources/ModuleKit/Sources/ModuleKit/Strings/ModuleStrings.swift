import Foundation

/// A typed key into a module's `.strings` tables (seed 000's `Keys`).
///
/// ```swift
/// extension StringKey {
///     static let loginTitle: StringKey = "login.title"
/// }
/// ui.print(strings[.loginTitle])
/// ```
public struct StringKey: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

/// A module's localized strings: one `Localizable.strings` table per shipped locale, looked up
/// in the current locale with English as the fallback.
///
/// Tables live in `<folder>/<locale>.lproj/Localizable.strings`, where `folder` is found next
/// to the module's library (see ``ModuleStrings/load(module:from:)``), so a moved install keeps
/// its strings.
public final class ModuleStrings: Sendable {
    /// The locales every module ships.
    public static let shippedLocales = ["en", "es", "fr", "de", "it", "el"]
    /// The locale a lookup falls back to.
    public static let fallbackLocale = "en"
    /// A test-only locale (`LANG=qps-ploc`): English with every letter accented and each
    /// string in `[!! … !!]`, so that any plain Latin letter in the output is a string that
    /// did not come from a strings table.
    public static let pseudoLocale = "qps"

    /// Every table, by locale.
    public let tables: [String: [String: String]]
    let locale: LocaleSetting

    /// Strings for a module that ships none: every lookup answers the key itself.
    public static func none(locale: LocaleSetting) -> ModuleStrings {
        ModuleStrings(tables: [:], locale: locale)
    }

    init(tables: [String: [String: String]], locale: LocaleSetting) {
        self.tables = tables
        self.locale = locale
    }

    /// Loads every `<locale>.lproj/Localizable.strings` in `folder`.
    ///
    /// - Throws: ``StringsError`` when the folder, the English table, or a table's syntax is
    ///   missing or wrong: never a crash.
    public static func load(module: String, from folder: String, locale: LocaleSetting) throws(StringsError) -> ModuleStrings {
        var tables: [String: [String: String]] = [:]
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw StringsError(
                "module '\(module)': strings folder '\(folder)' cannot be read; is the module's resources folder next to its library?")
        }
        for entry in entries.sorted() where entry.hasSuffix(".lproj") {
            let path = "\(folder)/\(entry)/Localizable.strings"
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            guard let text = String(validating: data, as: UTF8.self) else {
                throw StringsError("module '\(module)': '\(path)' is not valid UTF-8")
            }
            do {
                tables[String(entry.dropLast(".lproj".count))] = try StringsFile.parse(text)
            } catch {
                throw StringsError("module '\(module)': '\(path)': \(error)")
            }
        }
        guard tables[fallbackLocale] != nil else {
            throw StringsError("module '\(module)': no '\(fallbackLocale).lproj/Localizable.strings' in '\(folder)'")
        }
        return ModuleStrings(tables: tables, locale: locale)
    }

    /// The current locale's text for `key`, else English, else the key itself.
    public subscript(_ key: StringKey) -> String {
        let code = locale.current
        if code == Self.pseudoLocale { return Self.pseudo(tables[Self.fallbackLocale]?[key.rawValue] ?? key.rawValue) }
        return tables[code]?[key.rawValue] ?? tables[Self.fallbackLocale]?[key.rawValue] ?? key.rawValue
    }

    /// `text` in the pseudo-locale: ASCII letters accented, `%@` kept, wrapped in `[!! … !!]`.
    /// Public for texts the system translates (a country's name from Foundation), which a module
    /// shows in the pseudo-locale this way.
    public static func pseudo(_ text: String) -> String {
        var result = "[!! "
        var previous: Character = " "
        for character in text {
            // The letter of a placeholder (%@ has none; %% neither) stays as it is.
            if previous == "%" {
                result.append(character)
            } else if let ascii = character.asciiValue, let index = Self.plain.firstIndex(of: ascii) {
                result.append(Self.accented[Self.plain.distance(from: Self.plain.startIndex, to: index)])
            } else {
                result.append(character)
            }
            previous = previous == "%" ? " " : character
        }
        return result + " !!]"
    }

    private static let plain = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    private static let accented = Array("áƀçďéƒĝĥîĵķľɱñöþǫŕŝţûṽŵẋýžÁƁÇĎÉƑĜĤÎĴĶĽṀÑÖÞǪŔŜŢÛṼŴẊÝŽ")

    /// The text for `key` with each `%@` replaced by the next argument, in order (`%%` is a
    /// percent sign). Extra `%@` stay as written; a bad table never crashes the caller.
    public func format(_ key: StringKey, _ arguments: String...) -> String {
        Self.substitute(self[key], arguments)
    }

    /// ``format(_:_:)`` with the arguments in an array.
    public func format(_ key: StringKey, arguments: [String]) -> String {
        Self.substitute(self[key], arguments)
    }

    /// `template` with each `%@` replaced by the next argument (`%%` is a percent sign): the one
    /// substitution every message uses, the host's own included.
    public static func substitute(_ template: String, _ arguments: [String]) -> String {
        var result = ""
        var remaining = arguments[...]
        var iterator = template.makeIterator()
        while let character = iterator.next() {
            guard character == "%" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "@"?:
                if let argument = remaining.popFirst() { result += argument } else { result += "%@" }
            case "%"?: result.append("%")
            case let other?: result += "%\(other)"
            case nil: result.append("%")
            }
        }
        return result
    }
}

/// Strings could not be loaded; the message names the module and the file.
public struct StringsError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
