/// A module command's arguments: `--name VALUE` (or `--name=VALUE`) options and `--flag`s.
///
/// ```swift
/// let arguments = try CommandArguments(invocation.arguments, options: ["--email"], flags: ["--json"])
/// let email = try arguments.required("--email")
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
}
