import Foundation
import HostIsolation
import HostModel
import HostProcesses
@_spi(Host) import ModuleKit

/// A module running in a process of its own, from the host's side: the process, the route
/// link to it, and what the host registers for it (a proxy of each route it provides).
package final class IsolatedModule: @unchecked Sendable {
    // `process` and `end` are touched only with `lock` held.
    package let name: String
    /// Its routes as keys the host's locator knows (from the generated bridges).
    let manifest: ModuleManifest
    package let link: RouteLink
    package let pid: Int32
    private let lock = NSLock()
    private let process: ModuleProcess
    private var end: ChildEnd??

    /// The route the module's process serves besides its own: start and stop.
    package static let control = "__module"

    init(name: String, manifest: ModuleManifest, process: ModuleProcess, link: RouteLink) {
        self.name = name
        self.manifest = manifest
        self.process = process
        self.link = link
        pid = process.pid
    }

    /// How the process ended, once it has: it is ended (its link closed, then killed after
    /// `grace`) when it has not.
    func ended(grace: Duration = .seconds(2)) -> ChildEnd? {
        lock.withLock {
            if let end { return end }
            let ending = process.end(grace: grace)
            end = .some(ending)
            return ending
        }
    }

    /// The route calls sent to it so far (its start and stop not counted).
    var routeCalls: [RouteCalls] {
        link.stats.summaries.filter { !$0.member.hasPrefix(Self.control + ".") }.map {
            RouteCalls(member: $0.member, count: $0.count, p50: $0.p50, p99: $0.p99)
        }
    }

    /// Whether its process is gone.
    var hasEnded: Bool { lock.withLock { end != nil } }

    /// The manifest of module `descriptor` with route keys of the generated bridges; or the
    /// route that cannot cross, when one it provides or requires has no bridge.
    static func manifest(of descriptor: ModuleDescriptor) -> Result<ModuleManifest, IsolationProblem> {
        func keys(_ names: [String], needed: Bool) -> Result<[RouteKey], IsolationProblem> {
            var keys: [RouteKey] = []
            for name in names {
                if let bridge = RouteBridge.all[name] {
                    keys.append(bridge.key)
                } else if needed {
                    return .failure(IsolationProblem(route: name))
                }
            }
            return .success(keys)
        }
        do {
            return .success(
                ModuleManifest(
                    name: descriptor.name, version: descriptor.version, provides: try keys(descriptor.provides, needed: true).get(),
                    requires: try keys(descriptor.requires, needed: true).get(), uses: try keys(descriptor.uses, needed: false).get()))
        } catch {
            return .failure(error)
        }
    }
}

/// A route that cannot cross to a module's own process: no bridge was generated for it.
struct IsolationProblem: Error {
    let route: String

    var text: HostText {
        HostText(
            "reason.isolation.route",
            "cannot run in a process of its own: route '%@' cannot cross (the host carries the routes of the contracts it is built with)",
            [.plain(route)])
    }
}
