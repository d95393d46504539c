import Contracts
import ModuleKit

/// Notes: keeps short notes in its own folder, greets the logged-in user when Auth is there.
final class NotesModule: Module {
    init() {}  // no work here: the host may create a module only to check it

    func register(_ registry: ModuleRegistry, configuration: NoConfiguration) throws {}

    func start(_ context: ModuleContext) throws {
        let auth = try context.resolver.optional((any AuthRoute).self)  // nil when Auth is off
        context.logger.info("started; auth \(auth == nil ? "absent" : "present")")
    }

    func commands(_ context: ModuleContext) -> [ModuleCommand] {
        [
            ModuleCommand(name: "add", summary: "Keep a note", arguments: "TEXT") { invocation in
                guard let text = invocation.arguments.first else { throw CommandUsageError("add needs the note's TEXT") }
                try context.storage.files().append("notes.txt", Array((text + "\n").utf8))
                context.ui.print("Noted.")
            },
            ModuleCommand(name: "list", summary: "Show the notes") { _ in
                let notes = String(decoding: try context.storage.files().read("notes.txt") ?? [], as: UTF8.self)
                for note in notes.split(separator: "\n") { context.ui.print(String(note)) }
            },
        ]
    }
}

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(NotesModule.self, request) }
