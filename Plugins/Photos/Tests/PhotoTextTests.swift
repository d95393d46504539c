import ModuleKit
import PhotosDomain
import Testing

@testable import PhotosFeature

/// A photo's details read right for any count: plural forms per language, and a tiny image
/// in bytes rather than "0 KB".
@Suite struct PhotoTextTests {
    func hit(size: Int, count: Int) -> Hit {
        Hit(
            id: 7, pageURL: "p", type: "photo", tags: "sea", previewURL: "", previewWidth: 1, previewHeight: 1, webformatURL: "",
            webformatWidth: 1, webformatHeight: 1, largeImageURL: "", imageWidth: 48, imageHeight: 32, imageSize: size, views: count,
            downloads: count, collections: count, likes: count, comments: count, userID: 1, user: "Nikos", userImageURL: "")
    }

    @Test(arguments: [
        ("en", 1, 17, "Size: 48×32, 17 bytes", "1 view, 1 download, 1 like, 1 comment, 1 collection"),
        ("en", 2, 1, "Size: 48×32, 1 byte", "2 views, 2 downloads, 2 likes, 2 comments, 2 collections"),
        ("fr", 0, 2048, "Taille : 48×32, 2 Ko", "0 vue, 0 téléchargement, 0 mention j’aime, 0 commentaire, 0 collection"),
        ("de", 1, 1025, "Größe: 48×32, 2 KB", "1 Aufruf, 1 Download, 1 Gefällt-mir, 1 Kommentar, 1 Sammlung"),
        ("el", 3, 5, "Μέγεθος: 48×32, 5 bytes", "3 προβολές, 3 λήψεις, 3 «μου αρέσει», 3 σχόλια, 3 συλλογές"),
    ])
    func countsAndSizesTakeTheirForm(locale: String, count: Int, size: Int, sizeLine: String, stats: String) throws {
        let lines = PhotoText.details(hit(size: size, count: count), try photoStrings(locale: locale))
        #expect(lines.contains(sizeLine), "\(lines)")
        #expect(lines.contains(stats), "\(lines)")
    }
}
