import Synchronization

/// How many calls each member of the other side took, and how long: kept by a link for the
/// calls it sends (each from the call to its answer, the other side's work and the crossing
/// both ways), for `modules --timing` and the stop's summary.
package final class RouteCallStats: Sendable {
    /// One member's calls.
    package struct Summary: Sendable, Equatable {
        /// `GeoRoute.savedCities()`.
        package let member: String
        package let count: Int
        package let p50: Duration
        package let p99: Duration
    }

    /// The durations kept a member: the latest ones, so that a long run keeps a bounded sample.
    static let kept = 4_096

    private struct Member {
        var count = 0
        var recent: [Duration] = []
        var next = 0

        mutating func add(_ duration: Duration) {
            count += 1
            if recent.count < RouteCallStats.kept {
                recent.append(duration)
            } else {
                recent[next] = duration
                next = (next + 1) % RouteCallStats.kept
            }
        }
    }

    private let members = Mutex<[String: Member]>([:])

    package init() {}

    func record(_ member: String, _ duration: Duration) {
        // In place: a copy of the entry out and back would copy its durations every call.
        members.withLock { $0[member, default: Member()].add(duration) }
    }

    /// Every member called, by name.
    package var summaries: [Summary] {
        members.withLock { members in
            members.map { name, entry in
                let sorted = entry.recent.sorted()
                return Summary(member: name, count: entry.count, p50: Self.percentile(sorted, 0.50), p99: Self.percentile(sorted, 0.99))
            }
        }.sorted { $0.member < $1.member }
    }

    /// The nearest-rank percentile of `sorted`.
    static func percentile(_ sorted: [Duration], _ fraction: Double) -> Duration {
        guard !sorted.isEmpty else { return .zero }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
