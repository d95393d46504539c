import ModuleKit
import PhotosDomain

extension PhotoError {
    /// The message a person reads, in the current locale.
    public func message(_ strings: ModuleStrings) -> String {
        switch self {
        case .emptyQuery: strings[.errorEmptyQuery]
        case .queryTooLong(let limit): strings.format(.errorQueryTooLong, "\(limit)")
        case .pageOutOfRange(let page, let pages): strings.format(.errorPageRange, "\(page)", "\(pages)")
        case .notFound(let id): strings.format(.errorNotFound, "\(id)")
        case .unreachable(let url): strings.format(.errorUnreachable, url)
        case .noNetworking(let detail): strings.format(.errorNoNetworking, detail)
        case .timeout(let url): strings.format(.errorTimeout, url)
        case .rateLimited(let seconds?): strings.plural(.errorRateLimitedAfter, count: seconds, "\(seconds)")
        case .rateLimited(nil): strings[.errorRateLimited]
        case .rejected(let status, let message): strings.format(.errorRejected, "\(status)", message.isEmpty ? "-" : message)
        case .badResponse(let detail): strings.format(.errorBadResponse, detail)
        case .unexpectedPage(let problem): problem.message(strings)
        case .tooLarge(let limit): strings.format(.errorTooLarge, "\(limit)")
        case .catalogUnreadable(let path): strings.format(.errorCatalogUnreadable, path)
        case .catalogNotAPage(let path, let problem): strings.format(.errorCatalogPage, path, problem.catalogMessage(strings))
        case .catalogImageUnreadable(let path): strings.format(.errorCatalogImage, path)
        case .storage(let detail): strings.format(.errorStorage, detail)
        case .fileExists(let path): strings.format(.errorFileExists, path)
        case .folderMissing(let path): strings.format(.errorFolderMissing, path)
        case .sourceNotConfigured: strings[.errorSourceNotConfigured]
        }
    }
}

extension PageProblem {
    /// What is wrong, naming the field (`hits[0].largeImageURL`) and what to check.
    func message(_ strings: ModuleStrings) -> String {
        switch kind {
        case .notJSON: strings[.errorPageNotJSON]
        case .missing: strings.format(.errorPageMissing, field)
        case .wrongType: strings.format(.errorPageWrongType, field)
        case .notWebAddress: strings.format(.errorPageNotWebAddress, field)
        }
    }

    /// The same, said of the catalog file rather than of the service.
    func catalogMessage(_ strings: ModuleStrings) -> String {
        switch kind {
        case .notJSON: strings[.catalogNotJSON]
        // The whole file of another type: a list or a string where the page's object goes.
        case .wrongType where field.isEmpty: strings[.catalogNotObject]
        case .missing: strings.format(.catalogMissingField, field)
        case .wrongType: strings.format(.catalogWrongType, field)
        case .notWebAddress: strings.format(.catalogNotAddress, field)
        }
    }
}
