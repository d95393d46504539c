/// The CPU time the other side of a link may use in one call that has no time limit (a
/// command, a screen: each may wait for the person as long as it likes, so only the CPU it
/// burns meanwhile is limited), and how to read what it has used. It is counted over a
/// window of twice the limit, not the whole call: a screen left open all day that works now
/// and then is no runaway, a loop that burns a core is stopped after the limit.
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

    /// The span of the call over which its CPU time is counted.
    var window: Duration { limit * 2 }

    /// What one call's other side used, read while the call waits.
    struct Watch {
        /// The call, as the link keeps it.
        let call: String
        /// When each reading was taken and the CPU time it read, the oldest first: the newest
        /// one taken before the window began, and those since.
        private var readings: [(at: ContinuousClock.Instant, used: Duration)]

        init(call: String, used: Duration, at began: ContinuousClock.Instant = .now) {
            self.call = call
            readings = [(began, used)]
        }

        /// Notes `used`, read at `now`; whether more than the limit was used within the window.
        /// A reading is kept only a 32nd of the window after the last one kept (a day's limit
        /// reads every second): the window then stretches by at most as much.
        mutating func note(_ used: Duration, at now: ContinuousClock.Instant = .now, of budget: CPUBudget) -> Bool {
            if let last = readings.last, now - last.at >= budget.window / 32 { readings.append((now, used)) }
            while readings.count > 2, now - readings[1].at >= budget.window { readings.removeFirst() }
            return used - readings[0].used > budget.limit
        }
    }
}
