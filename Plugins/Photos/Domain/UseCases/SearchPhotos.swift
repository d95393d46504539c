/// Search photos page by page: the use case, with its rules.
public protocol SearchPhotosUseCase: Sendable {
    func search(_ query: PhotoQuery) async throws(PhotoError) -> PhotoResult
}

/// The rules of a search, whatever the source: a query of 1 to 100 characters (the API's
/// limit), 3 to 200 results a page (its range), page 1 or later and not past the last page,
/// in the person's language and safe-search choice.
public struct SearchPhotos: SearchPhotosUseCase {
    public static let maximumQueryLength = 100
    public static let perPageRange = 3...200

    let source: any PhotoDataSource
    let preferences: @Sendable () -> SearchPreferences

    public init(source: any PhotoDataSource, preferences: @escaping @Sendable () -> SearchPreferences = { SearchPreferences() }) {
        self.source = source
        self.preferences = preferences
    }

    public func search(_ query: PhotoQuery) async throws(PhotoError) -> PhotoResult {
        let text = Self.trimmed(query.text)
        guard !text.isEmpty else { throw PhotoError.emptyQuery }
        guard text.count <= Self.maximumQueryLength else { throw PhotoError.queryTooLong(limit: Self.maximumQueryLength) }
        let perPage = min(max(query.perPage, Self.perPageRange.lowerBound), Self.perPageRange.upperBound)
        let now = preferences()
        let checked = PhotoQuery(text: text, page: max(1, query.page), perPage: perPage, language: now.language, safeSearch: now.safeSearch)
        let result = try await source.search(checked)
        let pages = checked.pageCount(of: result)
        if checked.page > pages && checked.page > 1 { throw PhotoError.pageOutOfRange(page: checked.page, pages: pages) }
        return result
    }

    /// `text` without leading and trailing spaces (the domain imports nothing, not even
    /// Foundation's trimming).
    static func trimmed(_ text: String) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
