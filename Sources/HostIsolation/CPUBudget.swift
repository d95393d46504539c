/// The CPU time the other side of a link may use in one call that has no time limit (a
/// command, a screen: each may wait for the person as long as it likes, so only the CPU it
/// burns meanwhile is limited), and how to read what it has used.
package struct CPUBudget: Sendable {
    package let limit: Duration
    /// The other side's CPU time so far (its processes' whole tree); `nil` once it is gone.
    package let used: @Sendable () -> Duration?
    /// Where the limit is set, for the message (`limits.cpuSeconds in modules.json`).
    package let setting: String
    /// What the person knows a call as (`a command` for `__module.command`), by the name the
    /// link keeps it under; one not here is named as kept.
    package let callNames: [String: String]

    package init(limit: Duration, setting: String, callNames: [String: String] = [:], used: @escaping @Sendable () -> Duration?) {
        self.limit = limit
        self.setting = setting
        self.callNames = callNames
        self.used = used
    }

    /// The call `name` as the person knows it.
    func shown(_ name: String) -> String {
        callNames[name] ?? "'\(name)'"
    }

    /// How often the CPU time is read while the call waits: four times within the limit, at
    /// least once a second.
    var lookEvery: Duration { min(.seconds(1), limit / 4) }
}
