import FoundationEssentials
import Glibc
@_spi(Host) import ModuleKit

// The fields of a module's entry that shape its sandboxed process (docs/ISOLATION.md).
extension ModulesFileDecoder {
    /// An entry's `limits` for its sandboxed process: each a whole number in its range.
    static func limits(_ value: JSONValue?, problems: inout [HostText]) -> ModuleLimits {
        var limits = ModuleLimits()
        guard let value else { return limits }
        guard case .object(let fields) = value else {
            problems.append(
                HostText("config.limits.type", "'limits' must be an object such as {\"memoryMiB\": 4096}, found %@", [.text(value.found)]))
            return limits
        }
        for (key, field) in fields.sorted(by: { $0.key < $1.key }) {
            guard let range = ModuleLimits.ranges[key] else {
                problems.append(
                    HostText(
                        "config.limits.key",
                        "'limits' has no '%@'; it takes \"memoryMiB\", \"openFiles\", \"fileSizeMiB\", \"processes\" and \"cpuSeconds\"",
                        [.plain("\(Escaped(String(key.prefix(40))))")]))
                continue
            }
            guard case .number(let number) = field, number.rounded() == number, range.contains(Int(exactly: number) ?? -1),
                let whole = Int(exactly: number)
            else {
                problems.append(
                    HostText(
                        "config.limits.value", "'limits.%@' must be a whole number from %@ to %@, found %@",
                        [.plain(key), .plain("\(range.lowerBound)"), .plain("\(range.upperBound)"), .text(field.found)]))
                continue
            }
            switch key {
            case "memoryMiB": limits.memoryMiB = whole
            case "openFiles": limits.openFiles = whole
            case "processes": limits.processes = whole
            case "cpuSeconds": limits.cpuSeconds = whole
            default: limits.fileSizeMiB = whole
            }
        }
        return limits
    }

    /// An entry's `deny` (capabilities taken from what its manifest declares) and `sandbox`
    /// (`"required"`: not started where its sandbox cannot be whole).
    static func sandboxFields(_ fields: [String: JSONValue], problems: inout [HostText]) -> ([String], SandboxRequirement) {
        var deny: [String] = []
        switch fields["deny"] {
        case nil: break
        case .array(let items)?:
            for item in items {
                if case .string(let word) = item, ModuleCapabilities.isDeniable(word) {
                    deny.append(word)
                } else {
                    problems.append(
                        HostText(
                            "config.deny.value",
                            "'deny' lists %@, not a capability: use \"network\", \"exec\", \"read\", \"write\", or a declared \"read PATH\" or \"write PATH\"",
                            [.text(item.found)]))
                }
            }
        case let other?:
            problems.append(
                HostText("config.deny.type", "'deny' must be an array of capabilities (\"network\", …), found %@", [.text(other.found)]))
        }
        var sandbox = SandboxRequirement.bestEffort
        switch fields["sandbox"] {
        case nil: break
        case .string(let value)? where SandboxRequirement(rawValue: value) != nil:
            sandbox = SandboxRequirement(rawValue: value) ?? .bestEffort
        case let other?:
            problems.append(
                HostText(
                    "config.sandbox.value", "'sandbox' must be \"required\", \"best-effort\" or \"off\", found %@",
                    [.text(other.found)]))
        }
        return (deny, sandbox)
    }
}
