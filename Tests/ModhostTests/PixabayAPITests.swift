import Foundation
import ModuleHostTesting
import ModuleKitTesting
import TestSupport
import Testing

/// Photos against a loopback server that answers the way the Pixabay API documentation
/// describes (field list and rules in the documentation's words; values made up here).
@Suite struct PixabayAPITests {
    /// A hit with every documented field: the usual ones, the full-access URLs and two newer
    /// flags. `order` lists the keys to write, in that order (the API may use any order).
    static func hit(dropping dropped: Set<String> = [], reversed: Bool = false, extra: [String: String] = [:]) -> String {
        var fields: [(String, String)] = [
            ("id", "4411"), ("pageURL", #""https://pixabay.example/photos/harbour-boats-4411/""#), ("type", #""photo""#),
            ("tags", #""harbour, boats, evening""#), ("previewURL", #""https://cdn.example/4411_150.jpg""#),
            ("previewWidth", "150"), ("previewHeight", "99"), ("webformatURL", #""https://cdn.example/4411_640.jpg""#),
            ("webformatWidth", "640"), ("webformatHeight", "424"), ("largeImageURL", #""https://cdn.example/4411_1280.jpg""#),
            ("fullHDURL", #""https://cdn.example/4411_1920.jpg""#), ("imageURL", #""https://cdn.example/4411.jpg""#),
            ("imageWidth", "5184"), ("imageHeight", "3456"), ("imageSize", "2913640"), ("views", "8120"), ("downloads", "3204"),
            ("likes", "57"), ("comments", "9"), ("user_id", "70113"), ("user", #""Lena""#),
            ("userImageURL", #""https://cdn.example/users/70113.png""#), ("noAiTraining", "true"), ("isAiGenerated", "false"),
        ]
        fields.removeAll { dropped.contains($0.0) }
        if reversed { fields.reverse() }
        fields += extra.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        return "{" + fields.map { #""\#($0.0)": \#($0.1)"# }.joined(separator: ", ") + "}"
    }

    static func page(_ hit: String) -> String { #"{"total": 1, "totalHits": 1, "hits": [\#(hit)]}"# }

    /// A world with Photos on `server` (and Settings).
    func app(_ server: LoopbackHTTPServer) throws -> TestHost {
        let photos = #""config": {"source": "pixabay", "baseURL": "\#(server.baseURL)/api/", "apiKey": "KEY-1234"}"#
        return try TestHost(entries: [("Photos", photos), ("Settings", "")])
    }

    func run(_ app: TestHost, _ arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> CommandResult {
        try app.run(arguments: arguments, input: input, environment: environment)
    }

    static let expectedSearch =
        "Page 1 of 1 (1 photo)\n  #4411  harbour, boats, evening — Lena\nImages from Pixabay: https://pixabay.com/\n"

    @Test func theDocumentedExampleDecodesAndShows() throws {
        let server = try LoopbackHTTPServer { _ in .json(Self.page(Self.hit())) }
        defer { server.stop() }
        let app = try app(server)
        let search = try run(app, ["photos", "search", "harbour"])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout == Self.expectedSearch)
        let show = try run(app, ["photos", "show", "4411"])
        #expect(show.stdout.hasPrefix("#4411 photo\nTags: harbour, boats, evening\n"), "\(show.stdout)")
    }

    @Test func keysInAnyOrderAndNewKeysStillDecode() throws {
        let hit = Self.hit(reversed: true, extra: ["isGRated": "false", "someNewField": #"{"nested": [1, 2]}"#, "collections": "3"])
        let server = try LoopbackHTTPServer { _ in .json(#"{"hits": [\#(hit)], "totalHits": 1, "total": 1, "futureKey": "x"}"#) }
        defer { server.stop() }
        #expect(try run(try app(server), ["photos", "search", "harbour"]).stdout == Self.expectedSearch)
    }

    @Test func missingCountersAndLinksDecodeWithDefaults() throws {
        let hit = Self.hit(dropping: ["views", "downloads", "likes", "comments", "imageSize", "pageURL", "userImageURL", "type", "user_id"])
        let server = try LoopbackHTTPServer { _ in .json(Self.page(hit)) }
        defer { server.stop() }
        let app = try app(server)
        #expect(try run(app, ["photos", "search", "harbour"]).stdout == Self.expectedSearch)
        let show = try run(app, ["photos", "show", "4411"])
        #expect(show.status == 0)
        #expect(show.stdout.contains("Tags: harbour, boats, evening"))
    }

    @Test(arguments: [
        (
            Self.hit(dropping: ["largeImageURL"]),
            "The photo service sent a page without 'hits[0].largeImageURL'; check config.baseURL and the service."
        ),
        (Self.hit(dropping: ["user"]), "The photo service sent a page without 'hits[0].user'; check config.baseURL and the service."),
        (
            Self.hit().replacingOccurrences(of: #""imageWidth": 5184"#, with: #""imageWidth": "wide""#),
            "The photo service sent 'hits[0].imageWidth' of another type than documented; check config.baseURL and the service."
        ),
        (
            Self.hit().replacingOccurrences(of: "https://cdn.example/4411_640.jpg", with: "file:///etc/passwd"),
            "The photo service sent 'hits[0].webformatURL' that is not an http(s) address; check config.baseURL and the service."
        ),
    ])
    func aMissingOrWrongRequiredFieldIsNamedByItsPath(hit: String, message: String) throws {
        let server = try LoopbackHTTPServer { _ in .json(Self.page(hit)) }
        defer { server.stop() }
        let result = try run(try app(server), ["photos", "search", "harbour"])
        #expect(result.status == 1)
        #expect(result.stderr == "modhost: error: photos search: \(message)\n")
    }

    @Test func problemsAreSaidInTheAppsLanguage() throws {
        let server = try LoopbackHTTPServer { _ in .json(Self.page(Self.hit(dropping: ["largeImageURL"]))) }
        defer { server.stop() }
        let result = try run(try app(server), ["photos", "search", "port"], environment: ["LANG": "fr_FR.UTF-8"])
        #expect(
            result.stderr
                == "modhost: erreur: photos search: Le service de photos a envoyé une page sans « hits[0].largeImageURL » ; vérifiez config.baseURL et le service.\n"
        )
        #expect(server.received.last?.contains("lang=fr") == true, "the search is asked in French too")
    }

    @Test func theLanguageAndSafeSearchFollowTheAppAndTheSetting() throws {
        let server = try LoopbackHTTPServer { _ in .json(Self.page(Self.hit())) }
        defer { server.stop() }
        let app = try app(server)
        _ = try run(app, ["photos", "search", "harbour"])
        #expect(server.received.last?.contains("&lang=en&safesearch=true&") == true, "\(server.received)")
        _ = try run(app, ["photos", "search", "hafen"], environment: ["LANG": "de_DE.UTF-8"])
        #expect(server.received.last?.contains("&lang=de&") == true)
        #expect(try run(app, ["settings", "set", "settings.language", "el"]).status == 0)
        _ = try run(app, ["photos", "search", "λιμάνι"])
        #expect(server.received.last?.contains("&lang=el&") == true)
        #expect(try run(app, ["settings", "get", "photos.safeSearch"]).stdout == "on\n")
        #expect(try run(app, ["settings", "set", "photos.safeSearch", "off"]).status == 0)
        _ = try run(app, ["photos", "search", "boats"])
        #expect(server.received.last?.contains("&safesearch=false&") == true)
    }

    @Test func aQueryOverTheAPIsLimitIsRefusedBeforeAnyRequest() throws {
        let server = try LoopbackHTTPServer { _ in .json(Self.page(Self.hit())) }
        defer { server.stop() }
        let result = try run(try app(server), ["photos", "search", String(repeating: "a", count: 101)])
        #expect(result.status == 1)
        #expect(result.stderr.contains("100"))
        #expect(server.received.isEmpty)
    }

    @Test func attributionShowsWithResultsButNotInJSON() throws {
        let server = try LoopbackHTTPServer { _ in .json(Self.page(Self.hit())) }
        defer { server.stop() }
        let app = try app(server)
        let json = try run(app, ["photos", "search", "harbour", "--json"])
        #expect(json.status == 0)
        #expect(!json.stdout.contains("Pixabay"))
        // Home → Photos → Search → "harbour": the results screen names its source.
        let screen = try run(app, [], input: "1\n1\nharbour\n")
        #expect(screen.stdout.contains("Images from Pixabay: https://pixabay.com/"), "\(screen.stdout)")
        let french = try run(app, ["photos", "search", "port"], environment: ["LANG": "fr_FR.UTF-8"])
        #expect(french.stdout.hasSuffix("Images de Pixabay : https://pixabay.com/\n"))
    }

    @Test func thePlainTextErrorOfTheAPIIsShownAsItsMessage() throws {
        let server = try LoopbackHTTPServer { _ in
            LoopbackHTTPServer.Response(status: 400, body: Array("[ERROR 400] Invalid or missing API key".utf8))
        }
        defer { server.stop() }
        let result = try run(try app(server), ["photos", "search", "harbour"])
        #expect(result.stderr == "modhost: error: photos search: The photo service refused (HTTP 400): Invalid or missing API key\n")
    }
}
