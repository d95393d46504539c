import Dispatch
import FoundationEssentials

/// Decodes a module's `config` strictly, with the kit's own parser and ``ConfigDecoder``:
/// the decoder records which keys the configuration type read, so that a key it never read
/// (`"sorce"`) is an error naming it, not a setting silently ignored.
///
/// Every problem is told at once (``ConfigurationError/problems``): the optional keys of the
/// wrong type, the keys never read, and what the type's own `init(from:)` throws. Keys never
/// read are told only when the type read all it meant to: after a decoding error of a
/// required key it stopped early, and the keys after it would look unknown.
enum StrictDecoding {
    static func decode<C: Decodable>(_ type: C.Type, from json: Data) throws -> C {
        let value: JSONValue
        do {
            // Copied as a buffer: iterating a `Data` makes a start ask at run time whether it
            // is a Sequence (a scan of every loaded conformance).
            value = try JSONParser.parse(json.withUnsafeBytes { [UInt8]($0) })
        } catch {
            throw ConfigurationError(message: "config: The given data was not valid JSON: \(error)")
        }
        let recorder = KeyRecorder(root: value)
        var decoded: C?
        var thrown: [String] = []
        var readEveryKey = true
        do {
            decoded = try ConfigDecoder(value: value, codingPath: [], recorder: recorder, recordingPath: "").decode(type)
        } catch let error as DecodingError {
            thrown = [ConfigurationError(decoding: error, in: value).message]
            readEveryKey = false
        } catch let error as ConfigurationError {
            // The type's own validation, after it read its keys (as the kit's guide asks).
            thrown = error.problems
        }
        var problems: [String] = []
        // Once each: a type may name a key never read itself (NoConfiguration does).
        for problem in recorder.problems + (readEveryKey ? unknownKeyProblems(recorder) : []) + thrown where !problems.contains(problem) {
            problems.append(problem)
        }
        guard problems.isEmpty, let decoded else { throw ConfigurationError(problems: problems) }
        return decoded
    }

    /// `config.sorce is not a setting; did you mean 'source'?`, for each key never read.
    private static func unknownKeyProblems(_ recorder: KeyRecorder) -> [String] {
        recorder.unknownKeys.map { unknown in
            let candidates = recorder.known(at: unknown.path)
            let near = candidates.min { editDistance($0, unknown.key) < editDistance($1, unknown.key) }
            let hint = near.flatMap { editDistance($0.lowercased(), unknown.key.lowercased()) <= 2 ? "; did you mean '\($0)'?" : nil }
            let known = candidates.sorted().map { "'\($0)'" }.joined(separator: ", ")
            return "\(unknown.path.isEmpty ? "config" : "config." + unknown.path).\(unknown.key) is not a setting"
                + (hint ?? (known.isEmpty ? "; this module takes none" : "; use \(known)"))
        }
    }
}

/// What one decoding saw: the keys present in each object of the JSON, the keys the type
/// asked for, and the problems of the optional keys it went past.
final class KeyRecorder: @unchecked Sendable {
    // Unchecked: used only during one synchronous decode, on one thread.
    /// The whole `config`, for the values a problem shows.
    let root: JSONValue
    var problems: [String] = []
    private var present: [String: Set<String>] = [:]
    private var used: [String: Set<String>] = [:]

    init(root: JSONValue) {
        self.root = root
    }

    func saw(_ keys: [String], at path: String) { present[path, default: []].formUnion(keys) }
    func read(_ key: String, at path: String) { used[path, default: []].insert(key) }
    func known(at path: String) -> Set<String> { used[path] ?? [] }

    var unknownKeys: [(path: String, key: String)] {
        present.keys.sorted().flatMap { path in
            present[path, default: []].subtracting(used[path] ?? []).sorted().map { (path, $0) }
        }
    }
}
