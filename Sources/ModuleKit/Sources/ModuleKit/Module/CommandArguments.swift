/// A module command's arguments: `--name VALUE` (or `--name=VALUE`) options and `--flag`s.
///
/// ```swift
/// let (email, json) = (CommandOption.required("--email ADDRESS", …), CommandOption("--json", …))
/// let arguments = try CommandArguments(invocation.arguments, options: [email, json])
/// let address = try arguments.required(email)
/// ```
public struct CommandArguments: Sendable {
    public private(set) var values: [String: String] = [:]
    public private(set) var flags: Set<String> = []

    /// Parses `arguments`.
    ///
    /// - Throws: ``CommandUsageError`` for an unknown option, a missing value, a repeated
    ///   option, or a stray word.
    public init(_ arguments: [String], options: Set<String>, flags allowedFlags: Set<String>) throws(CommandUsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            if allowedFlags.contains(name), inline == nil {
                flags.insert(name)
            } else if options.contains(name) {
                guard values[name] == nil else {
                    throw CommandUsageError(key: "usage.option.twice", [name], english: "option '\(name)' is given twice")
                }
                if let inline {
                    values[name] = inline
                } else {
                    guard index < arguments.count else {
                        throw CommandUsageError(key: "usage.option.value", [name], english: "option '\(name)' needs a value")
                    }
                    values[name] = arguments[index]
                    index += 1
                }
            } else if argument.hasPrefix("-") {
                let known = (options.union(allowedFlags)).sorted().joined(separator: ", ")
                guard !known.isEmpty else {
                    throw CommandUsageError(
                        key: "usage.option.unknown.none", [name], english: "unknown option '\(name)'; this command takes none")
                }
                throw CommandUsageError(
                    key: "usage.option.unknown", [name, known], english: "unknown option '\(name)'; this command takes \(known)")
            } else {
                throw CommandUsageError(key: "usage.argument", [argument], english: "unexpected argument '\(argument)'")
            }
        }
    }

    /// The value of `option`.
    ///
    /// - Throws: ``CommandUsageError`` when it is absent or empty.
    public func required(_ option: String) throws(CommandUsageError) -> String {
        guard let value = values[option], !value.isEmpty else {
            throw CommandUsageError(key: "usage.option.required", [option], english: "option '\(option)' is required")
        }
        return value
    }

    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Parses `arguments` against the command's declared options: one with a value name takes a
    /// value, one without is a flag.
    ///
    /// - Throws: ``CommandUsageError`` as ``init(_:options:flags:)`` does, and for a required
    ///   option that is absent or empty (the first, in declared order).
    public init(_ arguments: [String], options declared: [CommandOption]) throws(CommandUsageError) {
        let valued = Set(declared.filter { $0.valueName != nil }.map(\.name))
        let flags = Set(declared.filter { $0.valueName == nil }.map(\.name))
        try self.init(arguments, options: valued, flags: flags)
        for option in declared where option.isRequired {
            if option.valueName == nil {
                guard has(option.name) else {
                    throw CommandUsageError(key: "usage.option.required", [option.name], english: "option '\(option.name)' is required")
                }
            } else {
                _ = try required(option.name)
            }
        }
    }

    /// The value of `option`, if given.
    public func value(_ option: CommandOption) -> String? { values[option.name] }

    /// The value of `option`.
    ///
    /// - Throws: ``CommandUsageError`` when it is absent or empty.
    public func required(_ option: CommandOption) throws(CommandUsageError) -> String { try required(option.name) }

    /// Whether the flag `option` was given.
    public func has(_ option: CommandOption) -> Bool { flags.contains(option.name) }
}
