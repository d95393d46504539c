/// Limits on the module and contracts libraries the host reads.
package enum LibraryFile {
    /// The largest library the host reads, hashes or opens.
    package static let maximumSize = 512 << 20
}
