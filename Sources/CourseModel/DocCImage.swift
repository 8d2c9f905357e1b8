/// An image a lesson names the DocC way (`![Diagram](remainderInteger)`): every file of the
/// course that DocC would take for one of its variants (`remainderInteger.png`,
/// `remainderInteger@2x.png`, `remainderInteger~dark@2x.png` ...), in any of its folders.
package struct DocCImage: Sendable, Equatable {
    /// One file of the image: for the light or the dark appearance, at a display scale.
    package struct Variant: Sendable, Equatable {
        /// The file, inside the course folder (`Assets/remainderInteger@2x.png`).
        package var path: String
        /// 1, 2 or 3: the `@2x` or `@3x` before the extension (1 without one).
        package var scale: Int
        /// Whether the file is the dark-mode variant (`~dark` after the name).
        package var isDark: Bool
        /// The file's size in pixels, when its header says it (PNG, GIF, JPEG; not SVG).
        package var pixelSize: PixelSize?

        package init(path: String, scale: Int, isDark: Bool, pixelSize: PixelSize? = nil) {
            self.path = path
            self.scale = scale
            self.isDark = isDark
            self.pixelSize = pixelSize
        }
    }

    /// Light variants before dark ones, each by scale (1x first).
    package var variants: [Variant]

    package init(variants: [Variant]) {
        self.variants = variants.sorted { ($0.isDark ? 1 : 0, $0.scale) < ($1.isDark ? 1 : 0, $1.scale) }
    }

    /// The variants for one appearance.
    package func variants(dark: Bool) -> [Variant] { variants.filter { $0.isDark == dark } }

    /// The file extensions DocC takes for images.
    package static let extensions: Set<String> = ["png", "jpg", "jpeg", "svg", "gif"]

    /// A file name as DocC reads it: the image's name, whether it is the dark variant, its
    /// display scale. `chart~dark@2x.png` is (`chart`, dark, 2); `chart.png` is (`chart`,
    /// light, 1); a file that is not an image (by its extension) is nil. The marks stand in
    /// DocC's order: `~dark`, then `@2x`, then the extension.
    package static func parse(fileName: String) -> (name: String, isDark: Bool, scale: Int)? {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex,
              extensions.contains(fileName[fileName.index(after: dot)...].lowercased()) else { return nil }
        var name = fileName[..<dot]
        var scale = 1
        if name.count > 3, let marked = (1...3).first(where: { name.hasSuffix("@\($0)x") }) {
            scale = marked
            name = name.dropLast(3)
        }
        var isDark = false
        if name.hasSuffix("~dark"), name.count > 5 {
            isDark = true
            name = name.dropLast(5)
        }
        return (String(name), isDark, scale)
    }

    /// Whether a link's target names an image the DocC way: a bare name, no folder and no
    /// extension (`remainderInteger`).
    package static func isName(_ path: String) -> Bool {
        !path.isEmpty && !path.contains("/") && !path.contains(".")
    }
}

/// Width and height in pixels.
package struct PixelSize: Sendable, Equatable {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size a PNG, GIF or JPEG file's header gives, from its first bytes (a JPEG's frame
    /// header may stand after its metadata: pass the whole file); nil for anything else.
    package static func of(_ bytes: [UInt8]) -> PixelSize? {
        func big(_ at: Int, _ count: Int) -> Int { (at..<at + count).reduce(0) { $0 << 8 | Int(bytes[$1]) } }
        // PNG: the signature, then the IHDR chunk's width and height (big-endian).
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return valid(big(16, 4), big(20, 4))
        }
        // GIF: `GIF87a` or `GIF89a`, then the width and height (little-endian).
        if bytes.count >= 10, bytes.starts(with: Array("GIF8".utf8)) {
            return valid(Int(bytes[6]) | Int(bytes[7]) << 8, Int(bytes[8]) | Int(bytes[9]) << 8)
        }
        // JPEG: segments after the start marker, up to a start-of-frame (SOF0 ... SOF15, not
        // DHT, JPG or DAC), whose height and width follow its precision byte.
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2
        while at + 9 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }
            let length = big(at + 2, 2)
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return valid(big(at + 7, 2), big(at + 5, 2))
            }
            guard length >= 2 else { return nil }
            at += 2 + length
        }
        return nil
    }

    private static func valid(_ width: Int, _ height: Int) -> PixelSize? {
        width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil
    }
}
