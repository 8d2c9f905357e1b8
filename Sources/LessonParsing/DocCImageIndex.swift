import CourseFiles
import CourseModel
import Foundation

/// The image files of a course folder by the names DocC gives them (`Assets/chart~dark@2x.png`
/// is a variant of `chart`), read the way DocC reads a catalog: every folder, at any depth.
/// Hidden files and folders are not looked at (the site publishes none), nor a site that
/// coursebook wrote inside the course (its files are copies), nor a symbolic link that leads
/// out of the course.
struct DocCImageIndex {
    /// One file found for a name.
    struct Found: Equatable {
        var path: String
        var isDark: Bool
        var scale: Int
    }

    /// Every image file by name, each name's files in path order (bytes).
    private(set) var files: [String: [Found]] = [:]

    /// The file a site coursebook wrote holds (`SiteWriter.marker`): a folder with it is skipped.
    static let siteMarker = ".coursebook-site"

    /// - Parameters:
    ///   - folder: the course folder, absolute; `root` the same with its links resolved.
    init(folder: String, root: String) {
        var found: [(String, Found)] = []
        var pending = [""]
        let files = FileManager.default
        while let relative = pending.popLast() {
            let here = relative.isEmpty ? folder : folder + "/" + relative
            guard let names = try? files.contentsOfDirectory(atPath: here), !names.contains(Self.siteMarker) else { continue }
            for name in names where !name.hasPrefix(".") {
                let inside = relative.isEmpty ? name : relative + "/" + name
                let path = here + "/" + name
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    pending.append(inside)
                case S_IFREG, S_IFLNK:
                    guard let parsed = DocCImage.parse(fileName: name) else { continue }
                    if info.st_mode & S_IFMT == S_IFLNK {
                        // A link may lead out of the course, or to a folder: only a file inside counts.
                        guard let real = Confinement.resolved(path), Confinement.isInside(real, root),
                              stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                    }
                    found.append((parsed.name, Found(path: inside, isDark: parsed.isDark, scale: parsed.scale)))
                default:
                    continue
                }
            }
        }
        for (name, file) in found.sorted(by: { $0.1.path.utf8.lexicographicallyPrecedes($1.1.path.utf8) }) {
            self.files[name, default: []].append(file)
        }
    }

    /// What a lesson's `![...](name)` shows: each variant once, from the first file in path
    /// order, and the variants that the course has more than once (two folders, or two
    /// extensions, with a file for the same appearance and scale), each as its files.
    func image(named name: String) -> (image: DocCImage, ambiguous: [[String]])? {
        guard let all = files[name] else { return nil }
        var groups: [[Found]] = []
        for file in all {
            if let index = groups.firstIndex(where: { $0[0].isDark == file.isDark && $0[0].scale == file.scale }) {
                groups[index].append(file)
            } else {
                groups.append([file])
            }
        }
        let image = DocCImage(variants: groups.map { DocCImage.Variant(path: $0[0].path, scale: $0[0].scale, isDark: $0[0].isDark) })
        return (image, groups.filter { $0.count > 1 }.map { $0.map(\.path) })
    }
}
