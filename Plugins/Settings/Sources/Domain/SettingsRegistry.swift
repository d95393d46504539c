import Contracts
import FoundationEssentials
import Synchronization

/// The settings modules contributed, by module, and how a typed value is read from text.
public final class SettingsRegistry: Sendable {
    private let sections = Mutex<[(module: String, definitions: [SettingDefinition])]>([])

    public init() {}

    public func register(_ definitions: [SettingDefinition], module: String) {
        sections.withLock { sections in
            if let index = sections.firstIndex(where: { $0.module == module }) {
                let known = Set(sections[index].definitions.map(\.key))
                sections[index].definitions += definitions.filter { !known.contains($0.key) }
            } else {
                sections.append((module, definitions))
            }
        }
    }

    /// Every section, in the order modules registered.
    public var all: [(module: String, definitions: [SettingDefinition])] { sections.withLock { $0 } }

    /// Every setting with its whole name (its module as the module registered it), in the
    /// order modules registered.
    public var entries: [(name: SettingName, definition: SettingDefinition)] {
        all.flatMap { section in section.definitions.map { (SettingName(module: section.module, key: $0.key), $0) } }
    }

    /// The setting `name` (its module in any case), named as its module registered it.
    public func definition(_ name: SettingName) -> (name: SettingName, definition: SettingDefinition)? {
        entries.first { $0.name == name }
    }

    /// Every setting's name as commands show it (`photos.perPage`), for suggestions.
    public var names: [String] { entries.map(\.name.text) }

    /// Reads `text` as a value of `kind`.
    public static func parse(_ text: String, as kind: SettingKind) -> Result<SettingValue, SettingsError> {
        let trimmed = text.trimmingSpaces()
        switch kind {
        case .toggle:
            switch trimmed.lowercased() {
            case "on", "true", "yes", "1": return .success(.bool(true))
            case "off", "false", "no", "0": return .success(.bool(false))
            default: return .failure(.notAToggle(trimmed))
            }
        case .choice(let options):
            guard let option = options.first(where: { $0.lowercased() == trimmed.lowercased() }) else {
                return .failure(.notAChoice(trimmed, options: options))
            }
            return .success(.text(option))
        case .number(let range):
            guard let number = Int(trimmed) else { return .failure(.notANumber(trimmed, range: range)) }
            guard range.contains(number) else { return .failure(.outOfRange(number, range: range)) }
            return .success(.int(number))
        case .text(let maxLength):
            guard trimmed.count <= maxLength else { return .failure(.tooLong(limit: maxLength)) }
            guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{FFFD}" }) else {
                return .failure(.controlCharacters)
            }
            return .success(.text(trimmed))
        // A kind of setting from a later SDK: this Settings module cannot read it.
        @unknown default:
            return .failure(.refused(trimmed))
        }
    }

    /// Whether a stored value still fits the definition (a module may have changed it).
    public static func fits(_ value: SettingValue, _ kind: SettingKind) -> Bool {
        switch (value, kind) {
        case (.bool, .toggle): true
        case (.text(let text), .choice(let options)): options.contains(text)
        case (.int(let number), .number(let range)): range.contains(number)
        case (.text(let text), .text(let maxLength)): text.count <= maxLength
        default: false
        }
    }

    /// A value as text, as commands show and accept it.
    public static func text(_ value: SettingValue) -> String {
        switch value {
        case .bool(let flag): flag ? "on" : "off"
        case .int(let number): "\(number)"
        case .text(let text): text
        @unknown default: "\(value)"
        }
    }
}

/// Why a setting was refused.
public enum SettingsError: Error, Equatable, Sendable {
    case unknownKey(String, suggestion: String?)
    /// The module that owns the setting refused the value, with its own message.
    case refused(String)
    case notAToggle(String)
    case notAChoice(String, options: [String])
    case notANumber(String, range: ClosedRange<Int>)
    case outOfRange(Int, range: ClosedRange<Int>)
    case tooLong(limit: Int)
    case controlCharacters
    case storage(String)
}
