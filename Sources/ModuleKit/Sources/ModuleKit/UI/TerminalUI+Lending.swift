// What the host needs to lend the terminal to another process and take it back: the keys
// typed ahead, the breadcrumb the borrower's screens show under, the notes not yet shown.
extension TerminalUI {
    /// The notes printed on the screen and not shown yet (shown above the next question), taken:
    /// what leaving full screen would otherwise drop.
    @_spi(Host)
    public func takeUnshownNotes() -> [String] {
        defer { fullScreen?.notes = [] }
        return fullScreen?.notes.map(\.text) ?? []
    }

    /// Keys typed ahead and not yet read, taken (full screen; none in the line mode, which
    /// reads the terminal a byte at a time and leaves the rest to the next reader): the host
    /// sends them with the terminal when it lends it to another process.
    @_spi(Host)
    public func takeTypedAhead() -> [UInt8] {
        fullScreen?.session.takeTypedAhead() ?? []
    }

    /// Keys another process read ahead on the terminal it lends back or lends here: read first
    /// (full screen; the line mode has nowhere to put them and drops them).
    @_spi(Host)
    public func giveTypedAhead(_ bytes: [UInt8]) {
        fullScreen?.session.giveTypedAhead(bytes)
    }

    /// The breadcrumb's steps above the screen on view (full screen; none in the line mode):
    /// the host sends them with the terminal it lends from that screen, for the screens there
    /// to show under.
    @_spi(Host)
    public var breadcrumbTrail: [String] {
        fullScreen?.trailBelowCurrent ?? []
    }

    /// What every screen shows under now (``showScreens(under:)``), as given.
    @_spi(Host)
    public var screensShownUnder: @MainActor () -> [String] { trailAbove }

    /// Shows every screen from now on under `trail` (the lender's ``breadcrumbTrail``; another
    /// process's words, so at most 16 steps of 200 characters, cleaned as a title is), full
    /// screen left and entered again included, until told another (`[]`: none).
    @_spi(Host)
    public func showScreens(under trail: [String]) {
        showScreens(under: { trail })
    }

    /// Shows every screen from now on under the steps `trail` gives, asked again before each
    /// screen (a step may follow the language chosen meanwhile), cleaned as
    /// ``showScreens(under:)-([String])`` cleans them.
    @_spi(Host)
    public func showScreens(under trail: @escaping @MainActor () -> [String]) {
        trailAbove = trail
        refreshTrailAbove()
    }

    /// Asks the steps above the screens here again (``showScreens(under:)``): the navigator
    /// does before each screen, as it asks the screens below for their titles.
    func refreshTrailAbove() {
        fullScreen?.trailAbove = Self.cleaned(trailAbove())
    }

    /// At most 16 steps of 200 characters, redacted: another process's words.
    fileprivate static func cleaned(_ trail: [String]) -> [String] {
        // Cut before anything reads it: one character may carry any number of combining marks.
        trail.prefix(16).map {
            Redaction.redact(String(String.UnicodeScalarView($0.unicodeScalars.prefix(200))), jsonFields: false)
        }
    }
}
