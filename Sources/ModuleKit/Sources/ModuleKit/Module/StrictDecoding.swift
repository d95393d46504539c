import Foundation

/// Decodes a module's `config` strictly, with the kit's own parser and ``ConfigDecoder``:
/// the decoder records which keys the configuration type read, so that a key it never read
/// (`"sorce"`) is an error naming it, not a setting silently ignored.
enum StrictDecoding {
    static func decode<C: Decodable>(_ type: C.Type, from json: Data) throws -> C {
        let value: JSONValue
        do {
            // Copied as a buffer: iterating a `Data` makes a start ask at run time whether it
            // is a Sequence (a scan of every loaded conformance).
            value = try JSONParser.parse(json.withUnsafeBytes { [UInt8]($0) })
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: [], debugDescription: "The given data was not valid JSON: \(error)", underlyingError: error))
        }
        let recorder = KeyRecorder()
        let decoded = try ConfigDecoder(value: value, codingPath: [], recorder: recorder, recordingPath: "").decode(type)
        if let unknown = recorder.unknownKeys.first {
            let near = recorder.known(at: unknown.path).min { editDistance($0, unknown.key) < editDistance($1, unknown.key) }
            let hint = near.flatMap { editDistance($0.lowercased(), unknown.key.lowercased()) <= 2 ? "; did you mean '\($0)'?" : nil }
            let known = recorder.known(at: unknown.path).sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw ConfigurationError(
                message: "\(unknown.path.isEmpty ? "config" : "config." + unknown.path).\(unknown.key) is not a setting"
                    + (hint ?? (known.isEmpty ? "; this module takes none" : "; use \(known)")))
        }
        return decoded
    }
}

/// The keys present in each object of the JSON and the keys the type asked for.
final class KeyRecorder: @unchecked Sendable {
    // Unchecked: used only during one synchronous decode, on one thread.
    private var present: [String: Set<String>] = [:]
    private var used: [String: Set<String>] = [:]

    func saw(_ keys: [String], at path: String) { present[path, default: []].formUnion(keys) }
    func read(_ key: String, at path: String) { used[path, default: []].insert(key) }
    func known(at path: String) -> Set<String> { used[path] ?? [] }

    var unknownKeys: [(path: String, key: String)] {
        present.keys.sorted().flatMap { path in
            present[path, default: []].subtracting(used[path] ?? []).sorted().map { (path, $0) }
        }
    }
}
