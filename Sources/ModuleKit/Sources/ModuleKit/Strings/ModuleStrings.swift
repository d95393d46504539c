import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// A typed key into a module's `.strings` tables.
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
/// to the module's library (see ``ModuleStrings/load(module:from:locale:)``), so a moved install
/// keeps its strings. Only English and the current language are read at load; another language
/// is read the first time it is asked for (after a switch), once. `modhost check` reads them all
/// (``loadEveryLocale(module:from:locale:)``).
public final class ModuleStrings: Sendable {
    /// The locales every module ships.
    public static let shippedLocales = ["en", "es", "fr", "de", "it", "el"]
    /// The locale a lookup falls back to.
    public static let fallbackLocale = "en"
    /// A test-only locale (`LANG=qps-ploc`): English with every letter accented and each
    /// string in `[!! … !!]`, so that any plain Latin letter in the output is a string that
    /// did not come from a strings table.
    public static let pseudoLocale = "qps"

    typealias Table = [String: String]

    /// The strings folder (nil: a module that ships none).
    private let folder: String?
    private let module: String
    /// The tables read so far, by locale; `nil` for a locale whose file is missing or broken
    /// (its lookups fall back to English).
    private let read: Mutex<[String: Table?]>
    let locale: LocaleSetting

    /// Strings for a module that ships none: every lookup answers the key itself.
    public static func none(locale: LocaleSetting) -> ModuleStrings {
        ModuleStrings(module: "", folder: nil, tables: [:], locale: locale)
    }

    init(module: String, folder: String?, tables: [String: Table?], locale: LocaleSetting) {
        self.module = module
        self.folder = folder
        read = Mutex(tables)
        self.locale = locale
    }

    /// Reads English (which must be there) and the current language from `folder`.
    ///
    /// - Throws: ``StringsError`` when the folder, the English table, or the syntax of a table
    ///   read is missing or wrong: never a crash.
    public static func load(module: String, from folder: String, locale: LocaleSetting) throws(StringsError) -> ModuleStrings {
        var tables: [String: Table?] = [fallbackLocale: try readEnglish(module: module, folder: folder)]
        let current = locale.current
        if current != fallbackLocale, shippedLocales.contains(current) {
            tables[current] = .some(try readTable(module: module, folder: folder, locale: current))
        }
        return ModuleStrings(module: module, folder: folder, tables: tables, locale: locale)
    }

    /// Strings read from `folder` only when first looked up, each language on its own: for the
    /// host's own strings, whose English its messages carry in their code (see `HostText`), so
    /// that a run in English that says nothing in the host's words reads no table. A table that
    /// cannot be read then reads as none, as a language read after a switch does.
    @_spi(Host) public static func unread(module: String, from folder: String, locale: LocaleSetting) -> ModuleStrings {
        ModuleStrings(module: module, folder: folder, tables: [:], locale: locale)
    }

    /// Whether lookups are in English (the fallback language), not a translation or the
    /// pseudo-locale.
    @_spi(Host) public var isInEnglish: Bool { locale.current == Self.fallbackLocale }

    /// Reads every `<locale>.lproj/Localizable.strings` in `folder`: what `modhost check` and
    /// the shipped-strings tests hold to the same keys in every language.
    public static func loadEveryLocale(module: String, from folder: String, locale: LocaleSetting) throws(StringsError)
        -> ModuleStrings
    {
        let english = try readEnglish(module: module, folder: folder)
        // Every lookup falls back to English: a table without keys shows raw keys everywhere.
        guard !english.isEmpty else {
            throw StringsError(module: module, .noKeys(path: "\(folder)/\(fallbackLocale).lproj/Localizable.strings"))
        }
        var tables: [String: Table?] = [fallbackLocale: english]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for entry in entries.sorted() where entry.hasSuffix(".lproj") {
            let code = String(entry.dropLast(".lproj".count))
            guard code != fallbackLocale, let table = try readTable(module: module, folder: folder, locale: code) else { continue }
            tables[code] = table
        }
        // A value a terminal would obey (an escape that sets the title) is shown as `?` on every
        // screen; check names it so that the file is mended.
        for code in tables.keys.sorted() {
            guard let table = tables[code] ?? nil else { continue }
            for key in table.keys.sorted() {
                guard let value = table[key], let control = value.unicodeScalars.first(where: TerminalText.isControl) else { continue }
                let path = "\(folder)/\(code).lproj/Localizable.strings"
                throw StringsError(module: module, .controlCharacter(path: path, key: key, scalar: control.value))
            }
        }
        return ModuleStrings(module: module, folder: folder, tables: tables, locale: locale)
    }

    /// The locales whose tables have been read, and their tables.
    public var tables: [String: [String: String]] {
        read.withLock { read in read.compactMapValues { $0 } }
    }

    /// `locale`'s table, read from disk the first time it is asked for. A missing or broken
    /// table reads as none (lookups fall back to English); `modhost check` reports it.
    func table(_ code: String) -> Table? {
        if let known = read.withLock({ $0[code] }) { return known }
        guard let folder else { return nil }
        let table = (try? Self.readTable(module: module, folder: folder, locale: code)) ?? nil
        read.withLock { $0[code] = .some(table) }
        return table
    }

    private static func readEnglish(module: String, folder: String) throws(StringsError) -> Table {
        if let table = try readTable(module: module, folder: folder, locale: fallbackLocale) { return table }
        var status = stat()
        guard stat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw StringsError(module: module, .folderUnreadable(folder: folder))
        }
        throw StringsError(module: module, .noEnglish(folder: folder))
    }

    /// One locale's table; nil when the file is not there.
    private static func readTable(module: String, folder: String, locale code: String) throws(StringsError) -> Table? {
        let path = "\(folder)/\(code).lproj/Localizable.strings"
        let read: [UInt8]?
        do {
            read = try StringsFile.read(path)
        } catch {
            throw StringsError(module: module, .untrusted(path: path, reason: error.reason(for: path)))
        }
        guard let bytes = read else { return nil }
        do {
            return try StringsFile.parse(bytes)
        } catch {
            throw StringsError(module: module, .syntax(path: path, detail: "\(error)"))
        }
    }

    /// The current locale's text for `key`, else English, else the key itself.
    public subscript(_ key: StringKey) -> String {
        let code = locale.current
        if code == Self.pseudoLocale { return Self.pseudo(table(Self.fallbackLocale)?[key.rawValue] ?? key.rawValue) }
        return table(code)?[key.rawValue] ?? table(Self.fallbackLocale)?[key.rawValue] ?? key.rawValue
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
    public enum Kind: Sendable, Equatable {
        /// The strings folder is missing or cannot be read.
        case folderUnreadable(folder: String)
        /// The folder has no English table, the one every lookup falls back to.
        case noEnglish(folder: String)
        /// A table is not valid `.strings` syntax; `detail` is the parser's, with the line.
        case syntax(path: String, detail: String)
        /// A table fails the trust rules a library does (owner, mode, symlinks) or is too large;
        /// `reason` follows the path ("is writable by others …").
        case untrusted(path: String, reason: String)
        /// The English table holds no key (`modhost check` says so).
        case noKeys(path: String)
        /// The value of `key` holds a character a terminal would obey (``TerminalText``), the
        /// scalar `scalar`; shown as `?`, reported by `modhost check`.
        ///
        /// - Since: SDK 1.6.0.
        case controlCharacter(path: String, key: String, scalar: UInt32)
    }

    public let module: String
    public let kind: Kind

    public init(module: String, _ kind: Kind) {
        self.module = module
        self.kind = kind
    }

    /// In English (the host says it in the person's language from `kind`).
    public var message: String {
        switch kind {
        case .folderUnreadable(let folder):
            "module '\(module)': strings folder '\(folder)' cannot be read; is the module's resources folder next to its library?"
        case .noEnglish(let folder): "module '\(module)': no '\(ModuleStrings.fallbackLocale).lproj/Localizable.strings' in '\(folder)'"
        case .syntax(let path, let detail): "module '\(module)': '\(path)': \(detail)"
        case .untrusted(let path, let reason): "module '\(module)': strings file '\(path)' \(reason)"
        case .noKeys(let path): "module '\(module)': '\(path)' holds no strings; every screen would show raw keys"
        case .controlCharacter(let path, let key, let scalar):
            "module '\(module)': '\(path)': the value of '\(Escaped(key))' holds the control character \(TerminalText.name(of: scalar)), "
                + "which a terminal would obey; remove it"
        }
    }

    public var description: String { message }
}
