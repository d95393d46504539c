import Contracts
import Synchronization

/// A module's settings, registered from its own process: each definition's key, kind and
/// default cross as values; its title, display and interpret stay in the module's process,
/// behind one object the host calls each time it asks (titles follow the person's language).
/// When the process is gone, each answers what it last answered (or the key).
extension Array: RouteCarried where Element == SettingDefinition {
    package func carry(into arguments: inout RouteArguments) {
        arguments.object(SettingDefinitionsDispatcher(definitions: self))
    }

    package static func carried(_ index: Int, from call: RouteCallReader) throws(RouteCallError) -> [SettingDefinition] {
        let remote = try call.object(index)
        let values = try remote.call("values", RouteArguments(), returning: [CarriedSetting].self)
        guard values.count <= CarriedSetting.most else { throw .malformed("\(values.count) settings, more than \(CarriedSetting.most)") }
        var definitions: [SettingDefinition] = []
        for (position, value) in values.enumerated() {
            definitions.append(try value.definition(calling: remote, at: position))
        }
        return definitions
    }
}

/// What crosses of one definition.
struct CarriedSetting: Codable {
    /// Most definitions one registration carries.
    static let most = 256

    let key: String
    let kind: Kind
    let defaultValue: SettingValue
    let interprets: Bool

    /// ``SettingKind``, which is not Codable.
    enum Kind: Codable {
        case toggle
        case choice([String])
        case number(lower: Int, upper: Int)
        case text(maxLength: Int)
        /// A kind of a later SDK than the host's.
        case unknown
    }

    /// A choice typed by the person, as the module read it.
    enum Interpretation: Codable {
        case accepted(String)
        case refused(String)
    }

    init(_ definition: SettingDefinition) {
        key = definition.key
        defaultValue = definition.defaultValue
        interprets = definition.interpret != nil
        kind =
            switch definition.kind {
            case .toggle: .toggle
            case .choice(let choices): .choice(choices)
            case .number(let range): .number(lower: range.lowerBound, upper: range.upperBound)
            case .text(let maxLength): .text(maxLength: maxLength)
            @unknown default: .unknown
            }
    }

    /// The definition the host registers: its closures call `remote`'s definition `position`.
    func definition(calling remote: RemoteObject, at position: Int) throws(RouteCallError) -> SettingDefinition {
        let settingKind: SettingKind
        switch kind {
        case .toggle: settingKind = .toggle
        case .choice(let choices): settingKind = .choice(choices)
        case .number(let lower, let upper):
            guard lower <= upper else { throw .malformed("setting '\(key)': a range from \(lower) down to \(upper)") }
            settingKind = .number(lower...upper)
        case .text(let maxLength):
            guard maxLength >= 0 else { throw .malformed("setting '\(key)': a text of at most \(maxLength) characters") }
            settingKind = .text(maxLength: maxLength)
        case .unknown: throw .malformed("setting '\(key)': a kind of setting this host does not know")
        }
        let title = LastAnswer(key)
        let key = key
        var interpret: (@Sendable (String) -> Result<String, SettingRefusal>)?
        if interprets {
            interpret = { text in
                let answer = remote.answer(
                    "interpret", Self.asking(position, text), returning: Interpretation.self,
                    or: .refused("'\(key)' cannot be checked now: its module is unavailable"))
                switch answer {
                case .accepted(let choice): return .success(choice)
                case .refused(let why): return .failure(SettingRefusal(why))
                }
            }
        }
        return SettingDefinition(
            key: key,
            title: { title.update(remote.answer("title", Self.asking(position), returning: String?.self, or: nil)) },
            kind: settingKind, defaultValue: defaultValue,
            display: { text in remote.answer("display", Self.asking(position, text), returning: String.self, or: text) },
            interpret: interpret)
    }
}

extension CarriedSetting {
    /// The arguments of a question about definition `position`.
    static func asking(_ position: Int, _ text: String? = nil) -> RouteArguments {
        var arguments = RouteArguments()
        arguments.value(position)
        if let text { arguments.value(text) }
        return arguments
    }
}

/// The last title the module gave, for when its process cannot be asked.
final class LastAnswer: Sendable {
    private let last: Mutex<String>

    init(_ first: String) { last = Mutex(first) }

    func update(_ answer: String?) -> String {
        last.withLock { last in
            if let answer { last = answer }
            return last
        }
    }
}

/// Serves the host's questions about definitions registered from this process.
struct SettingDefinitionsDispatcher: RouteDispatching {
    let definitions: [SettingDefinition]

    func dispatch(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? {
        switch member {
        case "values": return try call.answer(definitions.map(CarriedSetting.init))
        case "title": return try call.answer(try definition(call).title() as String?)
        case "display": return try call.answer(try definition(call).display(try call.value(1, as: String.self)))
        case "interpret":
            let text = try call.value(1, as: String.self)
            let answer: CarriedSetting.Interpretation =
                switch try definition(call).interpret?(text) ?? .success(text) {
                case .success(let choice): .accepted(choice)
                case .failure(let refusal): .refused(refusal.message)
                }
            return try call.answer(answer)
        default: return nil
        }
    }

    @MainActor func dispatchOnMainActor(_ member: String, _ call: RouteCallReader) throws -> RouteAnswer? { nil }

    private func definition(_ call: RouteCallReader) throws(RouteCallError) -> SettingDefinition {
        let index = try call.value(0, as: Int.self)
        guard definitions.indices.contains(index) else { throw .malformed("no setting \(index) of \(definitions.count)") }
        return definitions[index]
    }
}
